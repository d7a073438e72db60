"""The emulator's own shortcuts, each held against plain stepping (firmware/emu/pico.mjs, docs/pico.md).

- A core asleep in WFE/WFI jumps to its next alarm instead of being stepped one cycle at a time, and the
  instructions the firmware executes most are decoded by a table (fastpath.mjs) instead of rp2040js's chain
  of tests, with stores to SRAM tested first (`--plain` turns all of it off): the same inputs must give the
  same replies, slice for slice (time, pads, rising edges, USB bytes, the ns the core executed), and so the
  same cards, beeps and bytes.
- The USB host sends the chip an OUT packet only when it has bytes (rp2040js's own answered every armed
  buffer at once, empty, and an idle chip never slept): a chip told to sleep sleeps.
"""

from __future__ import annotations

from unoxsim.pico import repl_exec

from .conftest import cards_out, wait_booted


def recorded(device) -> list[dict]:
    """Every reply the chip sends from now on, in order."""
    replies: list[dict] = []
    run = device.chip.run

    def record(*args):
        reply = run(*args)
        replies.append(reply)
        return reply

    device.chip.run = record
    return replies


def drive(device, presses: int | None = None) -> tuple[list[dict], bytes, int]:
    """Boot, presses (standalone: the profile's draw fires 0..6 cards each, seeded by the boot's ticks, so
    by the firmware's size), a line of bytes from the host, and the chip's answers; the replies, everything
    it wrote on its USB serial, and how many presses it took. `presses=None`: press until the motor has run
    (at most 8), so the compared window always holds a fire whatever the firmware's size."""
    replies = recorded(device)
    wait_booted(device)
    pressed = 0
    while pressed < (presses if presses is not None else 8):
        device.press_button(hold_ms=40)
        device.advance(700)
        pressed += 1
        if presses is None and len(device.wire("motor_in1").history) > 2:
            break
    device.host_write(b"00 HELLO 0001 host 0000\n")
    device.advance(300)
    return replies, device.host_read(), pressed


def test_the_jump_over_sleep_gives_the_replies_of_plain_stepping(pico):
    jumping = pico(boot=False, seed=5, cards=40)
    plain = pico(boot=False, seed=5, cards=40, plain=True)
    fast, fast_usb, pressed = drive(jumping)
    slow, slow_usb, _ = drive(plain, presses=pressed)
    assert len(fast) == len(slow) > 500
    for i, (a, b) in enumerate(zip(fast, slow, strict=True)):
        assert {k: v for k, v in a.items() if k != "awake"} == {k: v for k, v in b.items() if k != "awake"}, i
        assert a["awake"] == b["awake"], i  # the same instructions ran: only the sleeping was skipped
    assert fast_usb == slow_usb and b"HEARTBEAT" in fast_usb
    assert cards_out(jumping) == cards_out(plain)
    assert jumping.wire("motor_in1").history == plain.wire("motor_in1").history
    assert len(jumping.wire("motor_in1").history) > 2  # a press fired: the motor ran in the compared window
    assert jumping.wire("buzzer").history == plain.wire("buzzer").history


def test_a_chip_told_to_sleep_sleeps(pico):
    device = pico()
    repl_exec(device, "1")  # main.py stopped, the raw REPL up
    start_ns, awake_ns = device.now_us() * 1000, device.awake_ns
    repl_exec(device, "import time\ntime.sleep_ms(400)", stop_firmware=False)
    elapsed_ns = device.now_us() * 1000 - start_ns
    assert elapsed_ns >= 400_000_000
    # Its core ran for a few ms of the 400 (the REPL's compile, USB); before the host stopped answering
    # every armed OUT buffer with an empty packet it ran 90 % of the time, polling.
    assert device.awake_ns - awake_ns < elapsed_ns * 0.1
