"""5. Deploy: `unox firmware flash --port PTY` onto a fresh emulated Pico, `unox firmware version --port PTY`;
a flash killed halfway leaves a chip that boots with the motor off, and flashing again mends it."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile

from tests.pico.conftest import BOOT_LIMIT_MS, UNOX, serve_command, wait_booted


def test_flash_then_version_on_a_freshly_booted_emulated_pico(deploy):
    code, out = deploy.flash
    assert code == 0, out
    assert "cp " in out and ":/main.py" in out and "firmware flashed" in out
    code, out = deploy.version
    assert code == 0, out
    assert out.startswith("unoxfw 0.1.0 on serial:/dev/pts/"), out


def test_a_flash_killed_while_main_py_is_written_boots_motor_off_and_flashing_again_mends_it(pico_folder):
    from unox.launcher.clock import emulated_clock_path
    from unoxsim.pico import PicoDevice
    from unoxsim.pico_pty import ChipPtyServer

    device = PicoDevice(folder=pico_folder)
    server = ChipPtyServer(device)
    try:
        server.publish_clock(str(emulated_clock_path(server.path)))
        device.advance(300)
        with tempfile.TemporaryFile() as out:
            proc = subprocess.Popen([*UNOX, "firmware", "flash", "--port", server.path], stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True)

            def main_py_started() -> bool:
                return proc.poll() is not None or b":/main.py" in os.pread(out.fileno(), 1 << 16, 0)

            server.serve(stop=main_py_started)
            os.killpg(proc.pid, signal.SIGKILL)  # the flash and its mpremote, mid-copy of main.py
            proc.wait()
            assert proc.returncode == -signal.SIGKILL
        device.power_cycle()
        cycled = device.now_ms()
        device.advance(1500)  # longer than main.py's boot on this chip (about 970 ms)
        for pad in ("motor_in1", "motor_in2"):
            assert all(duty == 0 for t, duty in device.wire(pad).history if t >= cycled), pad
        assert device.model.ejected == 0 and device.model.hopper == 83
        flashed = serve_command(server, [*UNOX, "firmware", "flash", "--port", server.path])
        assert flashed[0] == 0, flashed[1]
        boots = device.boots
        device.advance_until(BOOT_LIMIT_MS, lambda: device.boots > boots)
        wait_booted(device)
        device.host_read()
        version = serve_command(server, [*UNOX, "firmware", "version", "--port", server.path])
        assert version[0] == 0 and version[1].startswith("unoxfw 0.1.0 on serial:"), version
    finally:
        server.close()
        device.close()


def test_flashing_over_a_running_firmware_mid_fire_stops_the_motor_and_takes_the_repl_by_the_protocol(
        deploy, pico_folder):
    # main.py keeps Ctrl-C off while it runs: the flash asks it for the REPL (the frame REPL) first
    from unox.launcher.clock import emulated_clock_path
    from unoxsim.pico import PicoDevice
    from unoxsim.pico_pty import ChipPtyServer

    device = PicoDevice(folder=pico_folder, image=deploy.image, seed=1, cards=40)
    server = ChipPtyServer(device)
    try:
        server.publish_clock(str(emulated_clock_path(server.path)))
        wait_booted(device)
        for _ in range(6):  # a standalone press whose draw fires (40 % fire nothing)
            device.press_button(hold_ms=40)
            if device.advance_until(400, lambda: device.wire("motor_in1").level() > 0):
                break
        assert device.wire("motor_in1").level() > 0
        code, out = serve_command(server, [*UNOX, "firmware", "flash", "--port", server.path])
        assert code == 0, out
        assert "stopped its motor and handed over the REPL" in out and "firmware flashed" in out, out
        assert device.wire("motor_in1").level() == device.wire("motor_in2").level() == 0
        boots = device.boots
        device.advance_until(BOOT_LIMIT_MS, lambda: device.boots > boots)  # mpremote's `reset`
        wait_booted(device)
        device.host_read()
        version = serve_command(server, [*UNOX, "firmware", "version", "--port", server.path])
        assert version[0] == 0 and version[1].startswith("unoxfw 0.1.0 on serial:"), version
    finally:
        server.close()
        device.close()
