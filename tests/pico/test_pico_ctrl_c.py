"""6. The byte 0x03 never reaches the firmware as Ctrl-C: random frames from the host's encoder over the
emulated USB serial, and the firmware runs on (no KeyboardInterrupt, no reboot); then one raw 0x03 shows what
the test would have seen (main.py stops into the REPL, as mpremote needs it to).

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

    device.host_write(b"\x03")  # what one stray 0x03 does: main.py stops (motor off, watchdog paused)
    tail = bytearray()
    prompt = device.advance_until(1000, lambda: b">>> " in tail.__iadd__(device.host_read()))
    assert prompt, bytes(tail[-300:])


def test_a_stray_ctrl_c_mid_fire_stops_the_motor_and_the_host_starts_main_py_again(pico, host):
    # A bit flip on the bridge can make 0x03 ("C" is 0x43): MicroPython takes it as Ctrl-C, main.py stops
    # at the prompt (motor off, watchdog paused) and would stay there. The host holding the port sees the
    # prompt and soft-reboots the chip's MicroPython; the fire in flight is told `reboot` (its count is
    # unknown: docs/reliability.md), and the next press is fired and answered by the new main.py.
    device = pico(seed=4, cards=20)
    launcher = host(device)
    assert launcher.status().firmware == "0.1.0"
    device.schedule(60, lambda: device.host_write(b"\x03"))  # 60 ms into the fire: the roller runs
    result = launcher.fire(3)
    assert (result.fault, result.details.get("detail")) == ("link", "reboot"), result
    assert launcher.link.restarts == 1
    assert device.wire("motor_in1").level() == device.wire("motor_in2").level() == 0
    assert launcher.fire_result(result.details["fire_id"]) is None  # a new main.py has no memory of it
    out = cards_out(device)
    device.press_button(hold_ms=60)
    assert launcher.wait_press(timeout=2.0)
    again = launcher.fire(1)  # the card the cut left half-fed may be wedged: the new main.py tells so
    assert again.fault != "link", again
    assert cards_out(device) == out + again.fired
    assert launcher.link.restarts == 1 and device.boots == 1  # a soft reboot: the chip itself never reset
