"""A firmware stopped at the MicroPython prompt is started again by the host holding the port.

A 0x03 on the wire is MicroPython's Ctrl-C (the firmware keeps it for mpremote); main.py stops with the
motor off and would stay at `>>> ` until unplugged. The chip's own run: tests/pico/test_pico_ctrl_c.py."""

from __future__ import annotations

from unox.launcher.clock import ManualClock
from unox.launcher.port_link import PROMPT, RESTART, RESTART_S, PortLink


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
