"""The host end of the firmware link over a pyserial port: pumping, heartbeats, handshake, reconnect.

One thread, no background work: every wait pumps the port, so the simulator's virtual clock moves only
when the driver waits. Reliability is `unoxfw.link.Endpoint` (seq/ack/retransmit, duplicates dropped,
replies re-sent from the firmware's cache). When the port breaks (USB cable pulled), `reconnect()`
reopens it and keeps the same session, so unacknowledged frames go out again with their old sequence
numbers and the firmware runs each command once.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import serial
from unoxfw.link import PROTOCOL, Endpoint

from unox.launcher.base import LauncherError
from unox.launcher.clock import Clock, clock_for
from unox.launcher.device_state import DeviceState

READ_TIMEOUT_S = 0.01  # read(1) returns on the first byte; this only bounds an idle wait
HEARTBEAT_S = 0.5  # well inside the firmware's silence_ms, so a running motor is never cut off
HELLO_TIMEOUT_S = 2.0
QUIET_S = 3.0  # the firmware sends a HEARTBEAT every second: this much silence means the link is down
PORT_ERRORS = (serial.SerialException, OSError)


def advice(name: str) -> str:
    return (
        f"check that the launcher's USB cable is plugged in, that {name} is the right port, that the "
        f"Pico runs the unox firmware (`unox firmware flash --port {name}`) and that you may use the "
        "port (group dialout)"
    )


class PortLink:
    """Frames in and out of one port; `state` is what the firmware has told us."""

    def __init__(self, port, *, name: str, clock: Clock | None = None, seed: int | None = None,
                 link_timeout: float = 30.0):
        self.port = port
        self.name = name
        self.clock = clock or clock_for(port)
        self.state = DeviceState()
        self.endpoint = Endpoint(self._write, epoch=random.Random(seed).randrange(1, 0xFFFF))
        self.link_timeout = link_timeout
        self.broken = False
        self.in_session = False
        self.needs_hello = True
        self.on_reboot: Callable[[bool], None] | None = None  # called with "had our unacked frames"
        self.heard = self.clock.now()
        self._last_beat = -HEARTBEAT_S
        self._prepare()

    def now(self) -> float:
        return self.clock.now()

    def ms(self) -> int:
        return int(self.clock.now() * 1000)

    def send(self, kind: str, args: tuple = ()) -> int:
        return self.endpoint.send(kind, args, self.ms())

    def alive(self) -> bool:
        return self.in_session and not self.broken and self.now() - self.heard <= QUIET_S

    # ---- bytes ------------------------------------------------------------------------------------
    def _prepare(self) -> None:
        self.port.timeout = READ_TIMEOUT_S
        self.port.reset_input_buffer()

    def _write(self, frame: bytes) -> None:
        if self.broken:
            return  # the Endpoint keeps the frame unacked; it goes out again after the reconnect
        try:
            self.port.write(frame)
        except PORT_ERRORS:
            self.broken = True

    def _read(self) -> bytes:
        try:
            data = self.port.read(max(1, self.port.in_waiting))
            if data and self.port.in_waiting:  # the rest of a frame that was still arriving
                data += self.port.read(self.port.in_waiting)
            return data
        except PORT_ERRORS:
            self.broken = True
            return b""

    def pump(self) -> None:
        """One step: read what arrived (waiting at most READ_TIMEOUT_S), retransmit, heartbeat."""
        if self.broken:
            self.reconnect()
        data = self._read()
        now = self.ms()
        if data:
            self.heard = self.now()
            for _seq, kind, args in self.endpoint.receive(data, now):
                self.state.apply(kind, args)
        self.endpoint.poll(now)
        if self.now() - self._last_beat >= HEARTBEAT_S:
            self._last_beat = self.now()
            self.endpoint.send_unreliable("HEARTBEAT", (f"{self.endpoint.epoch:04X}",))
        if self.in_session and self.state.peer_seen not in (None, f"{self.endpoint.epoch:04X}"):
            self._rebooted()

    def wait(self, done: Callable[[], bool], timeout: float | None) -> bool:
        """Pumps until `done()`; at least once, so `timeout=0` still sees what has arrived."""
        deadline = None if timeout is None else self.now() + timeout
        pumped = False
        while not done():
            if pumped and deadline is not None and self.now() >= deadline:
                return False
            self.pump()
            pumped = True
        return True

    # ---- session ----------------------------------------------------------------------------------
    def ensure(self) -> None:
        """A working port and a live session, or a LauncherError that says what to check."""
        if self.broken:
            self.reconnect()
        if self.needs_hello:
            self.handshake()

    def handshake(self) -> None:
        """HELLO: a new session, a fresh window (frames of an abandoned session are never resent)."""
        self.in_session = False
        self.state.firmware = None
        self.endpoint.hello((PROTOCOL,), self.ms())
        if not self.wait(lambda: self.state.firmware is not None, HELLO_TIMEOUT_S):
            self.needs_hello = True
            raise LauncherError(f"no answer from the launcher on {self.name}; {advice(self.name)}")
        self.state.peer_seen = None
        self.in_session, self.needs_hello = True, False

    def _rebooted(self) -> None:
        """The firmware's heartbeat names no session of ours: it rebooted; start again."""
        had_our_frames = self.endpoint.unacked() == 0
        self.handshake()
        if self.on_reboot is not None:
            self.on_reboot(had_our_frames)

    def reconnect(self) -> None:
        """The port broke (cable pulled): reopen it until it is back, keeping the session."""
        deadline = self.now() + self.link_timeout
        while True:
            try:
                self.port.close()
                self.port.open()
                self._prepare()
                self.broken = False
                self.heard = self.now()
                return
            except PORT_ERRORS as exc:
                if self.now() >= deadline:
                    self.in_session, self.needs_hello = False, True
                    message = f"lost the launcher on {self.name} ({exc}); {advice(self.name)}"
                    raise LauncherError(message) from exc
                self.clock.sleep(0.25)

    def close(self) -> None:
        try:
            self.port.close()
        except PORT_ERRORS:
            pass
        self.in_session = False
