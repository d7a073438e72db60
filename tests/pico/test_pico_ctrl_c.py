"""6. The byte 0x03 never reaches the firmware as Ctrl-C: random frames from the host's encoder over the
emulated USB serial, and the firmware runs on (no KeyboardInterrupt, no reboot); then one raw 0x03 shows what
the test would have seen (main.py stops into the REPL, as mpremote needs it to).

Default FRAMES frames; the soak sends 10,000: `UNOX_PICO_FRAMES=10000` (docs/reliability.md)."""

from __future__ import annotations

import os
import random

from unoxfw.link import Endpoint
from unoxfw.signals import PATTERNS

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

    device.host_write(b"\x03")  # what one stray 0x03 does: main.py stops (motor off, watchdog paused)
    tail = bytearray()
    prompt = device.advance_until(1000, lambda: b">>> " in tail.__iadd__(device.host_read()))
    assert prompt, bytes(tail[-300:])
