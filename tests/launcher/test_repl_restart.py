"""A firmware that ended at a MicroPython prompt is started again by the host holding the port.

No byte on the wire stops main.py (its keyboard interrupt is off), but an exception can end it, and a firmware
older than that stopped on a stray 0x03; at the REPL a 0x01 or 0x05 moves it to the raw REPL or paste mode.
It would stay there, motor off, until unplugged. The chip's own run: tests/pico/test_pico_ctrl_c.py."""

from __future__ import annotations

import pytest
from unox.launcher.clock import ManualClock
from unox.launcher.port_link import PASTE_PROMPT, PROMPT, RAW_PROMPT, RESTART, RESTART_S, PortLink


class Wire:
    """A port whose reads give the chunks queued in `incoming`, one per read; writes are kept."""

    def __init__(self) -> None:
        self.timeout = 0.0
        self.incoming: list[bytes] = []
        self.written = bytearray()

    def reset_input_buffer(self) -> None:
        pass

    @property
    def in_waiting(self) -> int:
        return len(self.incoming[0]) if self.incoming else 0

    def read(self, size: int = 1) -> bytes:
        return self.incoming.pop(0) if self.incoming else b""

    def write(self, data: bytes) -> int:
        self.written += data
        return len(data)


def link_on(wire: Wire, clock: ManualClock, *, ran_firmware: bool = True) -> PortLink:
    link = PortLink(wire, name="test port", clock=clock)
    link.ran_firmware = ran_firmware  # as after a HELLO our firmware answered (tests/pico: the real one)
    return link


def test_a_pico_that_never_answered_our_hello_is_left_at_its_prompt():
    # another program's Pico (or one without our firmware): a soft reboot would run its own main.py
    wire, clock = Wire(), ManualClock()
    link = link_on(wire, clock, ran_firmware=False)
    wire.incoming = [b"\r" + PROMPT]
    link.pump()
    assert link.restarts == 0 and RESTART not in wire.written


def test_the_prompt_split_across_two_reads_gets_one_soft_reboot():
    wire, clock = Wire(), ManualClock()
    link = link_on(wire, clock)
    banner = b"MicroPython v1.28.0 on 2026-11-26; Raspberry Pi Pico with RP2040\r\nType \"help()\" for more."
    wire.incoming = [banner + b"\r", PROMPT[:3], PROMPT[3:]]
    for _ in range(3):
        link.pump()
    assert link.restarts == 1
    assert wire.written.count(RESTART) == 1
    assert "MicroPython prompt" in link.lost_why


def test_a_firmware_back_at_the_prompt_at_once_is_restarted_at_most_every_restart_s():
    wire, clock = Wire(), ManualClock()
    link = link_on(wire, clock)
    wire.incoming = [b"\r" + PROMPT]
    link.pump()
    clock.sleep(RESTART_S / 2)
    wire.incoming = [b"SyntaxError: invalid syntax\r" + PROMPT]
    link.pump()
    assert link.restarts == 1  # a soft reboot takes time: the echo of our own bytes is not a second stop
    clock.sleep(RESTART_S)
    wire.incoming = [b"\r" + PROMPT]
    link.pump()
    assert link.restarts == 2 and wire.written.count(RESTART) == 2


def test_frames_and_their_arguments_never_look_like_the_prompt():
    wire, clock = Wire(), ManualClock()
    link = link_on(wire, clock)
    wire.incoming = [b"00 HEARTBEAT 0001 0000 host 1234\n", b"02 BEEP >>> ABCD\n", b"03 BEEP x>>>\n"]
    for _ in range(3):
        link.pump()
    assert link.restarts == 0 and RESTART not in wire.written


@pytest.mark.parametrize("prompt", [RAW_PROMPT, PASTE_PROMPT], ids=["raw REPL", "paste mode"])
def test_the_raw_repl_and_paste_mode_are_left_for_the_friendly_repl_and_a_soft_reboot(prompt):
    wire, clock = Wire(), ManualClock()
    link = link_on(wire, clock)
    wire.incoming = [b"OK" + prompt[:9], prompt[9:]]  # split: the tail spans the longest prompt
    for _ in range(2):
        link.pump()
    assert link.restarts == 1
    # Ctrl-C leaves paste mode, Ctrl-B leaves the raw REPL; the soft reboot (Ctrl-D) comes last
    assert RESTART.startswith(b"\x03\x02") and RESTART.endswith(b"\x04")
    assert wire.written.count(RESTART) == 1


def test_a_prompt_asked_for_on_purpose_is_left_alone():
    # unox.launcher.handover asked main.py for its REPL: mpremote is about to use it
    wire, clock = Wire(), ManualClock()
    link = link_on(wire, clock)
    link.watch_prompt = False
    wire.incoming = [b"\r" + PROMPT]
    link.pump()
    assert link.restarts == 0 and RESTART not in wire.written
