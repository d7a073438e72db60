"""5. Deploy: `unox firmware flash --port PTY` onto a fresh emulated Pico, `unox firmware version --port PTY`;
a flash killed halfway leaves a chip that boots with the motor off, and flashing again mends it."""

from __future__ import annotations

import re

from tests.pico.conftest import CHUNKS_BEFORE_CUT, UNOX, serve_command, wait_booted, wait_rebooted


def test_flash_then_version_on_a_freshly_booted_emulated_pico(deploy):
    code, out = deploy.flash
    assert code == 0, out
    assert "cp " in out and ":/main.py" in out and "firmware flashed" in out
    code, out = deploy.version
    assert code == 0, out
    assert out.startswith("unoxfw 0.1.0 on serial:/dev/pts/"), out


def test_the_flash_says_how_many_files_it_copies_and_the_chip_has_that_many_after(deploy):
    # review of issue 22: it said "copying 14 files" and put 13 on the chip
    code, out = deploy.flash
    assert code == 0, out
    told = re.search(r"then copying (\d+) files", out)
    assert told, out
    assert int(told.group(1)) == len(deploy.files) and "/main.py" in deploy.files, deploy.files


def test_a_flash_killed_while_main_py_is_written_boots_motor_off_and_flashing_again_mends_it(
        deploy, pico_folder):
    # The chip's flash as the session's flash (onto a fresh chip) left it while mpremote was writing main.py
    # (two chunks of it written), the flash still running: a flash killed there, then the power cycled,
    # leaves exactly this flash (the chip runs no further between the two), so the chip powers up from it
    # here instead of flashing again. Every unoxfw file is whole on it before main.py's first byte: the
    # package goes first, so a cut anywhere in the copies leaves no main.py that imports a missing module.
    from unox.launcher.clock import emulated_clock_path
    from unoxsim.pico import RAW_PROMPT, PicoDevice, files_on_chip
    from unoxsim.pico_pty import ChipPtyServer

    assert deploy.mid_main_py is not None and deploy.mid_running, "the flash never wrote main.py"
    assert deploy.mid_chunks >= CHUNKS_BEFORE_CUT, deploy.mid_chunks  # part of main.py was written, not all
    assert deploy.mid_chunks * 256 < len(deploy_main_py())
    device = PicoDevice(folder=pico_folder, image=deploy.mid_main_py)
    server = ChipPtyServer(device)
    try:
        server.publish_clock(str(emulated_clock_path(server.path)))
        device.advance(1500)  # longer than main.py's boot on this chip (about 970 ms)
        for pad in ("motor_in1", "motor_in2"):
            assert all(duty == 0 for _, duty in device.wire(pad).history), pad
        assert device.model.ejected == 0 and device.model.hopper == 83
        assert device.boot_info["armed"] is None, device.boot_info  # no main.py of ours ran: none armed
        seen = bytearray()
        device.host_write(b"\r\x01")  # MicroPython's own REPL is up: what is on the flash?
        assert device.advance_until(2000, lambda: seen.extend(device.host_read()) or RAW_PROMPT in seen), seen
        left = files_on_chip(device, stop_firmware=False)
        package = {path: digest for path, digest in deploy.files.items() if path.startswith("/lib/unoxfw/")}
        assert package and {path: left.get(path) for path in package} == package  # every module whole
        assert left.get("/main.py") != deploy.files["/main.py"]  # main.py not (whole) there
        device.host_write(b"\x02")  # back to the friendly REPL, where mpremote finds it
        device.advance(100)
        device.host_read()
        boots = device.boots
        flashed = serve_command(server, [*UNOX, "firmware", "flash", "--port", server.path])
        assert flashed[0] == 0, flashed[1]
        wait_rebooted(device, boots)
        wait_booted(device)
        device.host_read()
        version = serve_command(server, [*UNOX, "firmware", "version", "--port", server.path])
        assert version[0] == 0 and version[1].startswith("unoxfw 0.1.0 on serial:"), version
    finally:
        server.close()
        device.close()


def deploy_main_py() -> bytes:
    from unox.cli.commands.firmware import firmware_source

    return firmware_source()[1].read_bytes()


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
        boots = device.boots
        code, out = serve_command(server, [*UNOX, "firmware", "flash", "--port", server.path])
        assert code == 0, out
        assert "stopped its motor and handed over the REPL" in out and "firmware flashed" in out, out
        assert device.wire("motor_in1").level() == device.wire("motor_in2").level() == 0
        wait_rebooted(device, boots)  # mpremote's `reset`
        wait_booted(device)
        device.host_read()
        version = serve_command(server, [*UNOX, "firmware", "version", "--port", server.path])
        assert version[0] == 0 and version[1].startswith("unoxfw 0.1.0 on serial:"), version
    finally:
        server.close()
        device.close()
