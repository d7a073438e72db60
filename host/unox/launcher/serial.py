"""The serial driver: the launcher's firmware over a pyserial port (docs/protocol.md).

A fire is one FIRE frame and its FIRED reply. Retransmissions keep their sequence number, so the
firmware runs a FIRE once however often it arrives, also across a pulled and replugged cable. When the
driver gives a fire up (cable out too long, firmware rebooted mid-fire), it reports fault `link` with
nothing fired and starts a new session next time, so the abandoned FIRE can never run later.

Every public call writes the link's held ACKs before it returns (`PortLink.flush`), except
`wait_press()` reporting a press: that press's ACK goes out in the same write as the FIRE answering it
(or at the start of whatever call comes next, so callers should not dawdle 250 ms before it).
"""

from __future__ import annotations

import serial

from unox.launcher.base import FireResult, Launcher, LauncherError, LauncherStatus, check_count, check_pattern
from unox.launcher.clock import Clock
from unox.launcher.port_link import PORT_ERRORS, READ_TIMEOUT_S, PortLink, advice

BAUD = 115200
REPLY_TIMEOUT_S = 5.0
FIRE_TIMEOUT_S = 25.0  # longer than the firmware's highest max_on_ms: no FIRED by then is a lost link
BUSY_RETRY_S = 0.3


class SerialLauncher(Launcher):
    """The firmware's launcher over an open pyserial port (a real one, or `sim://`)."""

    def __init__(self, port, *, name: str = "", config: dict | None = None, clock: Clock | None = None,
                 seed: int | None = None, link_timeout: float = 30.0):
        name = name or getattr(port, "port", None) or "the launcher port"
        self.link = PortLink(port, name=name, clock=clock, seed=seed, link_timeout=link_timeout)
        self.link.on_reboot = self._on_reboot
        self.state = self.link.state
        self._pending: str | None = None  # ref of the FIRE waiting for its FIRED
        self._pending_n = 0
        self._lost_in_reboot = False
        self._sent_at = 0.0
        self._errors_seen = 0
        try:
            self.link.handshake()
            if config is not None:
                self.configure(config.get("firmware", {}))
        finally:
            self.link.flush()

    @classmethod
    def open_port(cls, device: str, **options) -> SerialLauncher:
        try:
            port = serial.Serial(device, BAUD, timeout=READ_TIMEOUT_S, write_timeout=1.0)
        except PORT_ERRORS as exc:
            raise LauncherError(f"cannot open {device} ({exc}); {advice(device)}") from exc
        try:
            return cls(port, name=device, **options)
        except LauncherError:
            port.close()
            raise

    @property
    def port(self):
        return self.link.port

    @property
    def clock(self) -> Clock:
        return self.link.clock

    @property
    def link_timeout(self) -> float:
        return self.link.link_timeout

    @link_timeout.setter
    def link_timeout(self, seconds: float) -> None:
        self.link.link_timeout = seconds

    def configure(self, values: dict[str, int]) -> None:
        """Sends settings as CONFIG frames, one at a time; a refusal names the key and the range."""
        try:
            self._configure(values)
        finally:
            self.link.flush()

    def _configure(self, values: dict[str, int]) -> None:
        self.link.ensure()
        for key, value in values.items():
            self.state.config.pop(key, None)
            errors = len(self.state.errors)
            self.link.send("CONFIG", (key, int(value)))
            answered = self.link.wait(
                lambda k=key, e=errors: k in self.state.config or len(self.state.errors) > e, REPLY_TIMEOUT_S
            )
            if len(self.state.errors) > errors:
                _, reason, hint = self.state.errors[-1]
                raise LauncherError(f"the firmware refused {key} = {value}: {reason}; allowed: {hint}")
            if not answered:
                name = self.link.name
                raise LauncherError(f"no answer to CONFIG {key} from {name}; {advice(name)}")

    # ---- fire -------------------------------------------------------------------------------------
    def fire(self, n: int, fire_id: int | None = None) -> FireResult:
        try:
            return self._fire(n)  # the FIRE carries the press's held ACK in its write
        finally:
            # the FIRED's ACK (and that of a press read with it) before the caller goes on, maybe to
            # sleep; holding them for the next FIRE measured slower (docs/benchmarks.md)
            self.link.flush()

    def _fire(self, n: int) -> FireResult:
        check_count(n)
        if n == 0:
            return FireResult(0, 0, None)
        try:
            self.link.ensure()
        except LauncherError:
            return self._give_up(n, "unplugged")
        self._pending_n, self._lost_in_reboot = n, False
        self._send_pending()
        started = self.link.now()
        try:
            result = self._await_fired(n)
        finally:
            self._pending = None
        result.details["fire_ms"] = round((self.link.now() - started) * 1000)  # FIRE sent to FIRED read
        return result

    def _send_pending(self) -> None:
        self._pending = f"{self.link.send('FIRE', (self._pending_n,)):02X}"  # the ref FIRED names
        self._sent_at = self.link.now()
        self._errors_seen = len(self.state.errors)

    def _await_fired(self, n: int) -> FireResult:
        link = self.link
        while self._pending not in self.state.results:
            if self._lost_in_reboot:
                return self._give_up(n, "reboot")
            if link.now() - link.heard > link.link_timeout:
                return self._give_up(n, "silent")
            if link.now() - self._sent_at > FIRE_TIMEOUT_S:
                return self._give_up(n, "no_reply")
            self._check_refusal(n)
            try:
                link.pump()
            except LauncherError:
                return self._give_up(n, "unplugged")
        return self.state.results.pop(self._pending)

    def _check_refusal(self, n: int) -> None:
        refusals = [e for e in self.state.errors[self._errors_seen :] if e[0] == "FIRE"]
        self._errors_seen = len(self.state.errors)
        if not refusals:
            return
        _, reason, hint = refusals[-1]
        if reason != "busy":
            raise LauncherError(f"the firmware refused FIRE {n}: {reason} ({hint})")
        sent_at = self._sent_at
        self.link.wait(lambda: False, BUSY_RETRY_S)  # it is finishing another fire: ask again shortly
        self._send_pending()
        self._sent_at = sent_at

    def _on_reboot(self, had_our_frames: bool) -> None:
        if self._pending is None:
            return
        if had_our_frames:
            self._lost_in_reboot = True  # it had the FIRE: how many cards came out is unknown
        else:
            self._send_pending()  # it never had it: send it in the new session

    def _give_up(self, n: int, why: str) -> FireResult:
        """No FIRED will come: nothing is claimed, and a new session makes sure the FIRE never runs."""
        self.state.last_fault = "link"
        self.link.needs_hello = True
        return FireResult(n, 0, "link", {"detail": why})

    # ---- the rest of the interface ----------------------------------------------------------------
    def beep(self, pattern: str) -> None:
        try:
            check_pattern(pattern)
            self.link.ensure()
            self.link.send("BEEP", (pattern,))
            self.link.wait(lambda: self.link.endpoint.unacked() == 0, REPLY_TIMEOUT_S)
        finally:
            self.link.flush()

    def status(self) -> LauncherStatus:
        s, link = self.state, self.link
        try:
            if not link.broken and not link.needs_hello:
                link.pump()  # what arrived meanwhile (heartbeats) says whether it is worth asking
            if link.alive():
                s.status = {}
                link.send("STATUS")
                link.wait(lambda: bool(s.status), REPLY_TIMEOUT_S)
        except LauncherError:
            pass  # reported below as a lost link
        link.flush()
        faults = s.faults()
        if not link.alive() and "link" not in faults:
            faults.append("link")
        return LauncherStatus(link.alive(), s.firmware, s.counted, s.battery_mv, s.lid_open, faults,
                              low_battery=s.battery_low)

    def wait_press(self, timeout: float | None = None) -> bool:
        """A press keeps its ACK held for the FIRE that follows; the next wait or call writes it anyway."""
        try:
            self.link.ensure()
            pressed = self.link.wait(lambda: self.state.presses > 0, timeout)
        except BaseException:
            self.link.flush()
            raise
        if not pressed:
            self.link.flush()
            return False
        self.state.presses -= 1
        return True

    def close(self) -> None:
        self.link.close()
