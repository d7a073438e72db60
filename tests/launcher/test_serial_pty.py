"""The serial driver on a real pty, where it reads and writes the port's file descriptor directly.

A thread plays the firmware on the pty's master side with `unoxfw.link.Endpoint`. Nothing sleeps: every
wait is a blocking read with a timeout that only bounds a failure.
"""

from __future__ import annotations

import os
import pty
import select
import threading
import tty

import pytest
import serial
from unox.launcher.clock import ManualClock
from unox.launcher.port_link import HEARTBEAT_S, PortLink, is_local_port
from unox.launcher.serial import SerialLauncher
from unoxfw.link import PROTOCOL, Decoder, Endpoint, encode

BOUND_S = 60.0  # only reached when something is broken: a thread on a loaded machine can wait seconds


class PtyFirmware(threading.Thread):
    """Answers HELLO, then presses the button once; answers each FIRE with ACK and FIRED."""

    def __init__(self, master: int):
        super().__init__(daemon=True)
        self.master = master
        self.device = Endpoint(lambda frame: os.write(master, frame), epoch=0x4242)
        self.fires: list[tuple[str, ...]] = []
        self._stop_r, self._stop_w = os.pipe()

    def stop(self) -> None:
        os.write(self._stop_w, b"x")
        self.join(BOUND_S)
        os.close(self._stop_r)
        os.close(self._stop_w)

    def run(self) -> None:
        while True:
            ready = select.select([self.master, self._stop_r], [], [], BOUND_S)[0]
            if not ready or self._stop_r in ready:
                return
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return  # the master was closed under us (a failed test's teardown)
            for seq, kind, args in self.device.receive(data, 0):
                if kind == "HELLO":
                    self.device.hello((PROTOCOL, "pty-fw"), 0, seq)
                    self.device.send("BUTTON", ("1",), 0)
                elif kind == "FIRE":
                    self.fires.append(args)
                    self.device.send("FIRED", (args[0], args[0], "-", f"{seq:02X}"), 0, seq)


@pytest.fixture
def pty_pair():
    master, slave = pty.openpty()
    tty.setraw(slave)
    port = serial.Serial(os.ttyname(slave), 115200)
    yield master, port
    port.close()
    for fd in (master, slave):
        try:
            os.close(fd)
        except OSError:
            pass  # the test closed it already


@pytest.fixture
def started(pty_pair):
    """Starts a firmware thread on the pty and stops it before the pty closes, also when the test fails:
    the next test's pty may get the same fd number, and a thread left running would read its bytes."""
    threads: list[PtyFirmware] = []

    def start(firmware: PtyFirmware) -> PtyFirmware:
        firmware.start()
        threads.append(firmware)
        return firmware

    yield start
    for thread in threads:
        if thread.is_alive():
            thread.stop()


def test_a_local_pyserial_port_is_read_directly_and_others_through_their_methods(pty_pair):
    _, port = pty_pair
    assert is_local_port(port)
    assert not is_local_port(serial.serial_for_url("loop://"))  # a URL handler keeps pyserial's read
    assert not is_local_port(object())


def test_L1_press_and_fire_over_a_real_pty_frame_for_frame(pty_pair, started):
    master, port = pty_pair
    firmware = started(PtyFirmware(master))
    launcher = SerialLauncher(port, name="pty")
    assert launcher.state.firmware == "pty-fw"
    assert launcher.wait_press(timeout=BOUND_S) is True
    assert launcher.state.presses == 0  # the one press is taken once
    result = launcher.fire(2)
    assert (result.fired, result.fault) == (2, None)
    assert [args[0] for args in firmware.fires] == ["2"]  # one FIRE however the bytes were split
    assert firmware.fires[0][1] == str(result.details["fire_id"])  # named, so it can be asked about
    assert firmware.device.decoder.errors == 0 and launcher.link.endpoint.decoder.errors == 0
    assert launcher.link.endpoint.unacked() == 0  # the firmware's ACK came before its FIRED
    firmware.stop()
    assert not firmware.is_alive()


def test_a_closed_device_breaks_the_link_on_read_without_delivering_anything(pty_pair):
    master, port = pty_pair
    link = PortLink(port, name="pty")
    os.close(master)  # the cable is pulled: the slave reads EOF
    assert link._read() == b""
    assert link.broken
    assert link.state.presses == 0 and link.state.firmware is None


def test_a_closed_device_breaks_the_link_on_write_and_the_frame_stays_unacked(pty_pair):
    master, port = pty_pair
    link = PortLink(port, name="pty")
    os.close(master)
    link.send("STATUS")
    assert link.broken
    assert link.endpoint.unacked() == 1  # it goes out again after a reconnect


class PressOnCommandFirmware(PtyFirmware):
    """Like PtyFirmware, but presses the button only when the test says so (`press()`), so the press
    comes after the handshake whatever the thread timing; records the BUTTON's sequence number."""

    def __init__(self, master: int):
        super().__init__(master)
        self.button_seq: int | None = None
        self._cmd_r, self._cmd_w = os.pipe()

    def press(self) -> None:
        os.write(self._cmd_w, b"p")

    def run(self) -> None:
        while True:
            ready = select.select([self.master, self._stop_r, self._cmd_r], [], [], BOUND_S)[0]
            if not ready or self._stop_r in ready:
                return
            if self._cmd_r in ready:
                os.read(self._cmd_r, 1)
                self.button_seq = self.device.send("BUTTON", ("1",), 0)
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            for seq, kind, args in self.device.receive(data, 0):
                if kind == "HELLO":
                    self.device.hello((PROTOCOL, "pty-fw"), 0, seq)
                elif kind == "FIRE":
                    self.fires.append(args)
                    self.device.send("FIRED", (args[0], args[0], "-", f"{seq:02X}"), 0, seq)


def port_writes(port: serial.Serial, monkeypatch) -> list[bytes]:
    """Every `os.write` the host makes on `port` from now on, each as the bytes of one syscall."""
    fd, real_write, writes = port.fileno(), os.write, []

    def counting_write(target: int, data: bytes) -> int:
        if target == fd:
            writes.append(bytes(data))
        return real_write(target, data)

    monkeypatch.setattr(os, "write", counting_write)
    return writes


def test_L1_a_press_costs_one_write_syscall_holding_its_ack_and_the_fire(pty_pair, started, monkeypatch):
    master, port = pty_pair
    firmware = started(PressOnCommandFirmware(master))
    launcher = SerialLauncher(port, name="pty", clock=ManualClock())  # frozen: no heartbeat, no resend
    writes = port_writes(port, monkeypatch)
    firmware.press()
    assert launcher.wait_press() is True
    presses_writes = len(writes)
    result = launcher.fire(1)
    assert (result.fired, result.fault) == (1, None)
    assert presses_writes == 0  # the press's ACK was held, not written on its own
    first = list(Decoder().feed(writes[0]))
    assert [kind for _, kind, _ in first] == ["FIRE", "ACK"]  # one syscall: the ACK rides with the FIRE,
    assert first[1][2][0] == f"{firmware.button_seq:02X}"  # after it, so the chip acts on the FIRE first
    assert len(writes) == 2  # then only the FIRED's ACK, written before fire() returned
    assert [kind for _, kind, _ in Decoder().feed(writes[1])] == ["ACK"]
    monkeypatch.undo()
    firmware.stop()
    assert [args[0] for args in firmware.fires] == ["1"]  # the FIRED's ACK is checked above, on the host's
    # write


def test_L1_a_beat_due_as_the_press_arrives_stays_out_of_the_fires_write(pty_pair, started, monkeypatch):
    """A beat made while the press's ACK was held went out in a write of its own, ahead of the FIRE (the
    emulated chip then read the FIRE a loop later: 9.4 ms to the motor instead of 7.7). The FIRE shows the
    host is there, so the held beat is left out of its write."""
    master, port = pty_pair
    firmware = started(PressOnCommandFirmware(master))
    clock = ManualClock()
    launcher = SerialLauncher(port, name="pty", clock=clock)
    link = launcher.link
    link.wait(lambda: link.endpoint.unacked() == 0, None)  # the handshake's CONFIG ACKed: no resend falls due
    link.flush()
    writes = port_writes(port, monkeypatch)
    clock.sleep(HEARTBEAT_S)  # the next pump, the one that reads the press, owes a beat
    firmware.press()
    assert select.select([port.fileno()], [], [], BOUND_S)[0]  # the BUTTON is there for that first pump
    assert launcher.wait_press() is True
    assert writes == []  # the ACK and the beat both held for the FIRE
    assert launcher.fire(1).fired == 1
    assert [kind for _, kind, _ in Decoder().feed(writes[0])] == ["FIRE", "ACK"]
    monkeypatch.undo()
    firmware.stop()


def test_L1_resends_go_ahead_of_the_frame_and_acks_after_it(pty_pair):
    """The firmware's window takes frames in order: a held resend must not land behind the new frame."""
    master, port = pty_pair
    link = PortLink(port, name="pty", clock=ManualClock())
    resend, ack = encode(5, "BEEP", ("1",)), encode(0, "ACK", ("07", "1234"))
    beat = encode(0, "HEARTBEAT", ("1234",))
    link._held = [ack, resend, beat]
    link._write(encode(6, "FIRE", ("1", "9")))
    wire = os.read(master, 4096)
    assert [(seq, kind) for seq, kind, _ in Decoder().feed(wire)] == [(5, "BEEP"), (6, "FIRE"), (0, "ACK")]
    assert link._held == []
    link._held = [beat]
    link.flush()  # nothing else to carry the beat: it goes out on its own
    assert [kind for _, kind, _ in Decoder().feed(os.read(master, 4096))] == ["HEARTBEAT"]
