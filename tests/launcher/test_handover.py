"""`unox firmware flash` asks main.py over the protocol for its REPL (the firmware keeps Ctrl-C off while it
runs): main.py stops its motor, answers `REPL ok` and ends its loop; a port where no firmware of ours speaks,
or one too old for the frame, is left to mpremote. The chip's own run: tests/pico/test_pico_deploy.py."""

from __future__ import annotations

import pytest
import serial
import unoxsim  # noqa: F401  # registers sim://
from unox.launcher.base import LauncherError
from unox.launcher.handover import HANDED_OVER, OLD, SILENT, hand_over, main
from unox.launcher.port_link import PortLink


def sim_link(url: str = "sim://?seed=5&cards=10") -> tuple[PortLink, object]:
    port = serial.serial_for_url(url, timeout=0)
    return PortLink(port, name="sim"), port.device


def test_a_running_firmware_stops_its_motor_and_hands_over_its_repl():
    link, device = sim_link()
    device.press_button(hold_ms=60)  # a standalone fire (no host yet): the motor runs when the flash asks
    device.advance_until(2000, lambda: device.wire("motor_in1").level() > 0)
    assert device.wire("motor_in1").level() > 0
    assert hand_over(link) == HANDED_OVER
    assert device.app.handover
    assert device.wire("motor_in1").level() == device.wire("motor_in2").level() == 0
    written = bytearray()
    link.port.write = lambda data: written.extend(data) or len(data)  # what would reach the REPL now
    link.close()
    assert written == b""  # the held ACK of `REPL ok` is dropped: at the REPL it would be typed text
    device.advance(6000)  # main.py paused its watchdog: the REPL session is not reset under mpremote
    assert device.boots == 1 and device.wire("motor_in1").level() == 0


def test_a_port_where_no_firmware_of_ours_speaks_is_left_to_mpremote():
    link, device = sim_link()
    assert hand_over(link) == HANDED_OVER
    link.close()
    link.port.open()  # main.py has ended: nothing beats on the port any more
    again = PortLink(link.port, name="sim")
    written = bytearray()
    link.port.write = lambda data: written.extend(data) or len(data)
    assert hand_over(again) == SILENT
    assert written == b""  # no HELLO typed into a REPL: mpremote finds it as it was


def repl_answered_by(answer):
    """App._on_frame of a firmware that answers the frame REPL with `answer` (an older one), every other frame
    as ours does."""
    from unoxfw import app

    ours = app.App._on_frame

    def on_frame(self, seq, kind, args, now_ms):
        if kind == "REPL":
            return answer(self, seq, now_ms)
        return ours(self, seq, kind, args, now_ms)

    return on_frame


def test_a_firmware_without_the_frame_is_left_to_mpremote_and_ctrl_c(monkeypatch):
    from unoxfw import app

    link, device = sim_link()

    def refuse(self, seq, now_ms):
        self.link.send("ERR", ("REPL", "unknown_kind", "see_docs/protocol.md"), now_ms, seq)

    monkeypatch.setattr(app.App, "_on_frame", repl_answered_by(refuse))  # as protocol 2 before the frame
    assert hand_over(link) == OLD
    assert not device.app.handover


def test_a_firmware_that_answers_hello_but_not_repl_is_an_error_with_the_recovery(monkeypatch):
    from unoxfw import app

    link, device = sim_link()
    monkeypatch.setattr(app.App, "_on_frame", repl_answered_by(lambda self, seq, now_ms: None))
    with pytest.raises(LauncherError, match="did not hand over its REPL.*BOOTSEL"):
        hand_over(link)


def test_the_command_line_names_a_missing_port_in_one_line(capsys):
    assert main(["/dev/ttyUNOX-gone"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "cannot open /dev/ttyUNOX-gone" in err and err.count("\n") == 1
    assert main([]) == 2
