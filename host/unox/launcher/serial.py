"""The serial driver: the host end of the firmware link (docs/protocol.md) over any pyserial port.

One thread, no background work: every call pumps the port, so the simulator's virtual clock moves only
when the driver waits. Reliability comes from `unoxfw.link.Endpoint` (seq/ack/retransmit, duplicates
dropped, replies re-sent). When the port breaks (USB cable pulled), the driver reopens it and keeps the
same link session, so the pending FIRE is retransmitted with the same sequence number: the firmware
either runs it once or answers it again from its reply cache; no fire is lost or doubled.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import serial
from unoxfw.link import PROTOCOL, Endpoint

from unox.launcher.base import FireResult, Launcher, LauncherError, LauncherStatus, check_count, check_pattern
from unox.launcher.clock import Clock, clock_for
from unox.launcher.device_state import DeviceState

BAUD = 115200
READ_TIMEOUT_S = 0.002
HEARTBEAT_S = 0.5  # well inside the firmware's silence_ms, so a running motor is never cut off
HELLO_TIMEOUT_S = 2.0
REPLY_TIMEOUT_S = 2.0
QUIET_S = 3.0  # the firmware sends a HEARTBEAT every second: this much silence means the link is down
LINK_TIMEOUT_S = 30.0  # how long a pulled cable may stay out (silence, or no port) before giving up
PORT_ERRORS = (serial.SerialException, OSError)


def _advice(name: str) -> str:
    return (
        f"check that the launcher's USB cable is plugged in, that {name} is the right port, that the "
        f"Pico runs the unox firmware (`unox firmware flash --port {name}`) and that you may use the "
        "port (group dialout)"
    )


class SerialLauncher(Launcher):
    """The firmware's launcher over an open pyserial port (a real one, or `sim://`)."""

    def __init__(
        self,
        port,
        *,
        name: str = "",
        config: dict | None = None,
        clock: Clock | None = None,
        seed: int | None = None,
        link_timeout: float = LINK_TIMEOUT_S,
    ):
        self.port = port
        self.name = name or getattr(port, "port", None) or "the launcher port"
        self.clock = clock or clock_for(port)
        self.state = DeviceState()
        epoch = random.Random(seed).randrange(1, 0xFFFF)
        self.link = Endpoint(self._write, epoch=epoch)
        self.link_timeout = link_timeout
        self.broken = False
        self.connected = False
        self._pending: str | None = None  # ref of the FIRE waiting for its FIRED
        self._pending_n = 0
        self._fire_lost = False
        self._last_beat = -HEARTBEAT_S
        self._heard = self._now()
        self._prepare(port)
        self._handshake()
        if config is not None:
            self.configure(config.get("firmware", {}))

    @classmethod
    def open_port(cls, device: str, **options) -> SerialLauncher:
        try:
            port = serial.Serial(device, BAUD, timeout=READ_TIMEOUT_S, write_timeout=1.0)
        except PORT_ERRORS as exc:
            raise LauncherError(f"cannot open {device} ({exc}); {_advice(device)}") from exc
        try:
            return cls(port, name=device, **options)
        except LauncherError:
            port.close()
            raise

    # ---- the port ---------------------------------------------------------------------------------
    def _now(self) -> float:
        return self.clock.now()

    def _ms(self) -> int:
        return int(self._now() * 1000)

    @staticmethod
    def _prepare(port) -> None:
        port.timeout = READ_TIMEOUT_S
        port.reset_input_buffer()

    def _write(self, frame: bytes) -> None:
        if self.broken:
            return  # the Endpoint keeps the frame unacked; it is resent after the reconnect
        try:
            self.port.write(frame)
        except PORT_ERRORS:
            self.broken = True

    def _read(self) -> bytes:
        try:
            return self.port.read(max(1, self.port.in_waiting))
        except PORT_ERRORS:
            self.broken = True
            return b""

    def pump(self) -> None:
        """One step: read what arrived (waiting at most READ_TIMEOUT_S), retransmit, heartbeat."""
        if self.broken:
            self._reconnect()
        data = self._read()
        now = self._ms()
        if data:
            self._heard = self._now()
            for _seq, kind, args in self.link.receive(data, now):
                self.state.apply(kind, args)
        self.link.poll(now)
        if self._now() - self._last_beat >= HEARTBEAT_S:
            self._last_beat = self._now()
            self.link.send_unreliable("HEARTBEAT", ("%04X" % self.link.epoch,))
        if self.connected and self.state.peer_seen not in (None, "%04X" % self.link.epoch):
            self._rehello()

    def _wait(self, done: Callable[[], bool], timeout: float | None) -> bool:
        deadline = None if timeout is None else self._now() + timeout
        while not done():
            if deadline is not None and self._now() >= deadline:
                return False
            self.pump()
        return True

    # ---- session ----------------------------------------------------------------------------------
    def _handshake(self) -> None:
        self.state.firmware = None
        self.link.hello((PROTOCOL,), self._ms())
        if not self._wait(lambda: self.state.firmware is not None, HELLO_TIMEOUT_S):
            raise LauncherError(f"no answer from the launcher on {self.name}; {_advice(self.name)}")
        self.state.peer_seen = None
        self.connected = True

    def _rehello(self) -> None:
        """The firmware rebooted and forgot our session: start a new one, then resend what was pending."""
        self.connected = False
        if self._pending is not None:
            if self.link.unacked() == 0:
                self._fire_lost = True  # it had the FIRE when it rebooted: how many cards came out is unknown
        self._handshake()
        if self._pending is not None and not self._fire_lost:
            self._pending = self._send_fire(self._pending_n)  # it never had it: send it in the new session

    def _reconnect(self) -> None:
        """The port broke (cable pulled): reopen it until it comes back, keeping the link session."""
        deadline = self._now() + self.link_timeout
        while True:
            try:
                self.port.close()
                self.port.open()
                self._prepare(self.port)
                self.broken = False
                return
            except PORT_ERRORS as exc:
                if self._now() >= deadline:
                    self.connected = False
                    raise LauncherError(f"lost the launcher on {self.name} ({exc}); {_advice(self.name)}")
                self.clock.sleep(0.25)

    def configure(self, values: dict[str, int]) -> None:
        """Sends calibrated settings as CONFIG frames, one at a time; a refusal names the key."""
        for key, value in values.items():
            self.state.config.pop(key, None)
            errors = len(self.state.errors)
            self.link.send("CONFIG", (key, int(value)), self._ms())
            answered = self._wait(lambda k=key, e=errors: k in self.state.config or len(self.state.errors) > e,
                                  REPLY_TIMEOUT_S)
            if len(self.state.errors) > errors:
                what, reason, hint = self.state.errors[-1]
                raise LauncherError(f"the firmware refused {key} = {value}: {reason}; allowed: {hint}")
            if not answered:
                raise LauncherError(f"no answer to CONFIG {key} from {self.name}; {_advice(self.name)}")

    # ---- the Launcher interface -----------------------------------------------------------------
    def _send_fire(self, n: int) -> str:
        return "%02X" % self.link.send("FIRE", (n,), self._ms())

    def fire(self, n: int) -> FireResult:
        check_count(n)
        if n == 0:
            return FireResult(0, 0, None)
        self._pending, self._pending_n, self._fire_lost = self._send_fire(n), n, False
        self._heard = self._now()
        try:
            while self._pending not in self.state.results:
                if self._fire_lost:
                    return self._link_lost(n, "reboot")
                if self._now() - self._heard > self.link_timeout:
                    return self._link_lost(n, "silent")
                try:
                    self.pump()
                except LauncherError:
                    return self._link_lost(n, "unplugged")
            return self.state.results.pop(self._pending)
        finally:
            self._pending = None

    def _link_lost(self, n: int, why: str) -> FireResult:
        """No FIRED will come: the count is unknown, so report nothing fired and the link fault."""
        self.state.last_fault = "link"
        return FireResult(n, 0, "link", {"detail": why})

    def beep(self, pattern: str) -> None:
        self.link.send("BEEP", (check_pattern(pattern),), self._ms())
        self._wait(lambda: self.link.unacked() == 0, REPLY_TIMEOUT_S)

    def status(self) -> LauncherStatus:
        s = self.state
        if self.connected and not self.broken:
            s.status = {}
            self.link.send("STATUS", (), self._ms())
            self._wait(lambda: bool(s.status), REPLY_TIMEOUT_S)
        alive = self.connected and not self.broken and self._now() - self._heard <= QUIET_S
        faults = s.faults()
        if not alive and "link" not in faults:
            faults.append("link")
        return LauncherStatus(alive, s.firmware, s.counted, s.battery_mv, s.lid_open, faults,
                              low_battery=s.battery_low)

    def wait_press(self, timeout: float | None = None) -> bool:
        if not self._wait(lambda: self.state.presses > 0, timeout):
            return False
        self.state.presses -= 1
        return True

    def close(self) -> None:
        try:
            self.port.close()
        except PORT_ERRORS:
            pass
        self.connected = False
