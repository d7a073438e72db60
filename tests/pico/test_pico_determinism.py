"""The emulated Pico gives the same pads and USB bytes for the same inputs, whatever the wall clock or the
lockstep's slicing did (issue 27: a STUCK once went unheard in one run of the whole suite, and heard in every
other).

Two things once depended on them. The flash image every test boots was the one `unox firmware flash` left:
mpremote on a pty is paced by the wall, so littlefs's mtimes and block layout, main.py's boot time and the
phase of every later step changed from session to session. And the buzzer pad was sampled at the end of each
slice (5 ms at rest), so a tone's measured length moved with the slices' phase, past the tests' slack."""

from __future__ import annotations


def test_the_session_image_is_the_one_its_files_make_in_lockstep(deploy, pico_folder, tmp_path):
    from unox.cli.commands.firmware import firmware_source
    from unoxsim.pico import PicoDevice, write_files

    sources, main_py = firmware_source()
    files = {f"/lib/unoxfw/{path.name}": path.read_bytes() for path in sources}
    files["/main.py"] = main_py.read_bytes()
    device = PicoDevice(folder=pico_folder)
    try:
        write_files(device, files)
        again = tmp_path / "again.bin"
        device.save_flash(again)
    finally:
        device.close()
    assert again.read_bytes() == deploy.image.read_bytes()


def run_with_slices(pico, idle_step: int) -> tuple[list, bytes]:
    """Boots, opens the lid at 2,000 emulated ms (LID beeps) and closes it: the buzzer's history and the USB
    bytes. Nothing moves, so the chip is stepped `idle_step` ms at a time throughout (a press would not do:
    while the motor runs, the physics is stepped 1 ms at a time, whatever `idle_step`)."""
    device = pico(boot=False, seed=7, cards=20, idle_step=idle_step)
    device.advance(2000)
    device.open_lid()
    device.advance(1000)
    device.close_lid()
    device.advance(500)
    return device.wire("buzzer").history, device.host_read()


def test_the_buzzer_and_the_usb_bytes_do_not_depend_on_the_slices(pico):
    from unoxfw.signals import PATTERNS

    coarse, fine = run_with_slices(pico, 5), run_with_slices(pico, 3)
    assert coarse == fine
    history, usb = coarse
    assert b"HEARTBEAT" in usb
    lid = PATTERNS["lid"]
    for start in range(len(history) - 3):  # the LID pattern, each step its length within 2 ms
        runs = [(hz, history[start + i + 1][0] - history[start + i][0]) for i, (_, hz) in
                enumerate(history[start:start + 3])]
        if all(hz == want and abs(ms - want_ms) <= 2 for (hz, ms), want, want_ms in
               zip(runs, lid[::2], lid[1::2], strict=True)):
            break
    else:
        raise AssertionError(f"no LID pattern on the buzzer: {history}")
