"""6. No byte on the wire stops the firmware: main.py keeps the keyboard interrupt off while it runs
(`micropython.kbd_intr(-1)`), so MicroPython's REPL control bytes (0x01 raw REPL, 0x02 friendly REPL, 0x03
Ctrl-C, 0x04 Ctrl-D, 0x05 paste mode) are only bad bytes in a line: the line is dropped and sent again. Random
frames from the host's encoder never carry 0x03; every control byte and pair of them, written into the port
at moments through a fire, leaves the fire complete, the counts exact and the link up. The REPL is entered on
purpose only (the frame REPL: tests/pico/test_pico_deploy.py).

Default FRAMES frames; the soak sends 10,000: `UNOX_PICO_FRAMES=10000` (docs/reliability.md)."""

from __future__ import annotations

import os
import random

from unoxfw.link import Endpoint
from unoxfw.signals import PATTERNS

from tests.pico.conftest import cards_out

FRAMES = int(os.environ.get("UNOX_PICO_FRAMES", "300"))
PRINTABLE = [chr(c) for c in range(0x21, 0x7F)]
KINDS = ["HEARTBEAT", "STATUS", "QUERY", "CONFIG", "BEEP", "TAKEN", "PING", "X", "HELLO_NOT", "Z_Z"]


def random_frames(rng: random.Random, count: int) -> list[bytes]:
    frames: list[bytes] = []
    host = Endpoint(frames.append, epoch=0x0303)
    for _ in range(count):
        kind = rng.choice(KINDS)
        if kind == "BEEP":
            args: tuple[str, ...] = (rng.choice(sorted(PATTERNS)),)
        else:
            args = tuple("".join(rng.choices(PRINTABLE, k=rng.randint(1, 12)))
                         for _ in range(rng.randint(0, 4)))
        if rng.random() < 0.5:
            host.send_unreliable(kind, args)
        else:
            host.send(kind, args, 0)
    return frames


def test_random_frames_never_carry_0x03_and_the_firmware_never_sees_a_ctrl_c(pico, host):
    device = pico(seed=3)
    launcher = host(device)
    assert launcher.status().firmware == "0.1.0"
    frames = random_frames(random.Random(3), FRAMES)
    wire = b"".join(frames)
    assert b"\x03" not in wire and len(frames) == FRAMES
    heard = bytearray()
    for start in range(0, len(frames), 50):  # as fast as the chip's USB takes them in
        device.host_write(b"".join(frames[start:start + 50]))
        device.advance_until(5000, lambda: not device.cable.to_board.pending() and not device.queued_to_chip)
        heard += device.host_read()
    assert b"KeyboardInterrupt" not in heard and b">>> " not in heard and b"Traceback" not in heard
    assert launcher.status().firmware == "0.1.0"  # main.py still runs its loop: it answers
    assert device.boots == 1

    device.host_write(b"\x03")  # one raw 0x03: a bad byte in a line, nothing more
    assert launcher.status().firmware == "0.1.0"
    assert b">>> " not in device.host_read() and device.boots == 1 and launcher.link.restarts == 0


CONTROL = [bytes([a]) for a in range(1, 6)] + [bytes([a, b]) for a in range(1, 6) for b in range(1, 6)]
MOMENTS_MS = (0, 30, 90, 200, 450)  # into a fire of 2: with the FIRE, spin-up, cards crossing, run-down


def test_every_repl_control_byte_and_pair_at_any_moment_of_a_fire_leaves_it_complete_and_counted(pico, host):
    # The case was `\x03\x01` mid-fire: main.py stopped into the raw REPL for good, the fire had 2
    # cards out and no answer. Now each of the 30 sequences lands in one fire, at a moment that moves on.
    device = pico(seed=4, cards=100)
    launcher = host(device)
    assert launcher.status().firmware == "0.1.0"
    fired = 0
    for i, control in enumerate(CONTROL):
        at = MOMENTS_MS[i % len(MOMENTS_MS)]
        device.schedule(at, lambda control=control: device.host_write(control))
        result = launcher.fire(2)
        assert (result.fired, result.fault) == (2, None), (control, at, result)
        fired += result.fired
        assert cards_out(device) == fired, (control, at)
        assert device.wire("motor_in1").level() == device.wire("motor_in2").level() == 0
    assert launcher.link.restarts == 0 and device.boots == 1  # main.py never left its loop
    device.press_button(hold_ms=60)  # the link is up: a press is the host's, answered by a FIRE
    assert launcher.wait_press(timeout=2.0)
    assert launcher.fire(1).fired == 1 and cards_out(device) == fired + 1
    assert launcher.status().connected and launcher.take_standalone_fires() == []
