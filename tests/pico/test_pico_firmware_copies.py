"""Issue 23 on the emulated Pico: `unox firmware flash` from a wheel installed in a fresh venv (the firmware
is package data, not a checkout's folder), and a firmware copy named by `--firmware` whose loop raises an
exception mid-fire: main.py stops the motor at once, not at the on-time cap or the watchdog."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.pico.conftest import UNOX, serve_command, wait_booted, wait_rebooted

ROOT = Path(__file__).resolve().parents[2]
RAISE_AFTER_MS = 100
# The test's bug: a loop step raises once the motor has run RAISE_AFTER_MS (appended to a copy of runner.py).
BUG = f"""

_on = [None]
_step = step


def step(board, app, now_ms):
    _step(board, app, now_ms)
    if board.motor_value() > 0:
        if _on[0] is None:
            _on[0] = now_ms
        elif now_ms - _on[0] >= {RAISE_AFTER_MS}:
            raise ValueError("a bug the test put in the loop")
"""


def flash_with(device_folder, argv: list[str]):
    """A fresh chip, `argv` (a flash command) run against its pty, then the chip's flash image saved."""
    from unox.launcher.clock import emulated_clock_path
    from unoxsim.pico import PicoDevice
    from unoxsim.pico_pty import ChipPtyServer

    device = PicoDevice(folder=device_folder)
    server = ChipPtyServer(device)
    try:
        server.publish_clock(str(emulated_clock_path(server.path)))
        device.advance(300)
        boots = device.boots
        code, out = serve_command(server, [*argv, "--port", server.path])
        wait_rebooted(device, boots)
        wait_booted(device)
        device.host_read()
        version = serve_command(server, [argv[0], "-m", "unox", "firmware", "version", "--port", server.path])
    finally:
        server.close()
    return device, (code, out), version


def test_a_wheel_installed_in_a_fresh_venv_flashes_the_chip(pico_folder, tmp_path):
    from tests.wheel_venv import wheel_venv

    venv = wheel_venv(tmp_path)
    python = str(venv / "bin" / "python")
    device, (code, out), version = flash_with(pico_folder, [python, "-m", "unox", "firmware", "flash"])
    try:
        assert code == 0, out
        assert str(venv / "lib") in out and ":/main.py" in out  # the venv's installed copy went on the chip
        assert "firmware flashed" in out
        assert version[0] == 0 and version[1].startswith("unoxfw 0.1.0 on serial:"), version
    finally:
        device.close()


def test_an_exception_in_the_loop_mid_fire_stops_the_motor_at_once(pico_folder, tmp_path, host):
    from unox.launcher import LauncherError
    from unoxsim.pico import PicoDevice

    copy = tmp_path / "firmware"
    shutil.copytree(ROOT / "firmware" / "unoxfw", copy / "unoxfw",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "firmware" / "main.py", copy / "main.py")
    (copy / "unoxfw" / "main.py").unlink()
    runner = copy / "unoxfw" / "runner.py"
    runner.write_text(runner.read_text() + BUG)
    flashed, (code, out), _ = flash_with(pico_folder, [*UNOX, "firmware", "flash", "--firmware", str(copy)])
    image = tmp_path / "flash.bin"
    try:
        assert code == 0, out
        flashed.save_flash(image)
    finally:
        flashed.close()
    device = PicoDevice(folder=pico_folder, image=image, cards=20)
    try:
        wait_booted(device)
        launcher = host(device)
        launcher.status()
        try:
            launcher.fire(5)
        except LauncherError:
            pass  # the chip's main.py died mid-fire: whatever the host makes of it, the motor is the point
        device.advance(500)
        history = device.wire("motor_in1").history
        on = next(t for t, duty in history if duty > 0)
        off = next(t for t, duty in history if t > on and duty == 0)
        assert off - on <= RAISE_AFTER_MS + 15, history[:6]  # stopped by main.py, not the 8 s on-time cap
        assert device.wire("motor_in2").level() == 0 and device.wire("motor_in1").level() == 0
    finally:
        device.close()
