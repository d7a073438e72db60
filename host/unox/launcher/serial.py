"""The serial driver: the launcher's firmware over a pyserial port (docs/protocol.md).

A fire is one FIRE frame (carrying the fire's id) and its FIRED reply. Retransmissions keep their
sequence number, so the firmware runs a FIRE once however often it arrives, also across a pulled and
replugged cable. With the link down (nothing heard for QUIET_S, or the port gone) a fire is refused at
once: FireResult(n, 0, "link") with detail `down`; no FIRE went out, so nothing fired, certainly.
When the driver gives a fire in flight up (silent for `link_timeout`, firmware rebooted mid-fire), it
reports fault `link` with nothing claimed and detail `lost` or `reboot` (the outcome is unknown), and
starts a new session next time, so the abandoned FIRE can never run later; what that fire really did
is `fire_result(fire_id)` once the device answers again (None after a reboot).

Fires the firmware made alone (no host, or the link lost) come as ALONE frames, kept on the device
until `take_standalone_fires()` acknowledges them with TAKEN.

Every public call writes the link's held ACKs before it returns (`PortLink.flush`), except
`wait_press()` reporting a press: that press's ACK goes out in the same write as the FIRE answering it
(or at the start of whatever call comes next, so callers should not dawdle 250 ms before it).
"""

from __future__ import annotations

import random

import serial

from unox.launcher.base import (
    FireResult,
    Launcher,
    LauncherError,
    LauncherStatus,
    StrangerLauncher,
    check_count,
    check_pattern,
)
from unox.launcher.clock import Clock
from unox.launcher.port_link import (
    HEARTBEAT_S,
    LOST_S,
    PORT_ERRORS,
    QUIET_S,
    READ_TIMEOUT_S,
    PortLink,
    advice,
)
from unox.launcher.port_lock import PortBusy, busy_message, is_busy

BAUD = 115200
REPLY_TIMEOUT_S = 5.0
FIRE_TIMEOUT_S = 25.0  # longer than the firmware's highest max_on_ms: no FIRED by then is a lost link
BUSY_RETRY_S = 0.3
QUERY_RETRY_S = 0.25  # a fire still running (or running down) when asked about: ask again this often
MAX_FIRE_ID = 2**31 - 1


class SerialLauncher(Launcher):
    """The firmware's launcher over an open pyserial port (a real one, or `sim://`)."""

    def __init__(self, port, *, name: str = "", config: dict | None = None, clock: Clock | None = None,
                 seed: int | None = None, link_timeout: float = LOST_S, board: str | None = None):
        """`board`: the identity the launcher must have (a table's, from its journal); None binds to the
        board of the first HELLO. Another board is a StrangerLauncher, at the start or on any reconnect."""
        name = name or getattr(port, "port", None) or "the launcher port"
        self.link = PortLink(port, name=name, clock=clock, seed=seed, link_timeout=link_timeout, board=board)
        self.link.on_reboot = self._on_reboot
        self.state = self.link.state
        self._pending: str | None = None  # ref of the FIRE waiting for its FIRED
        self._pending_n = 0
        self._lost_in_reboot = False
        self._sent_at = 0.0
        self._errors_seen = 0
        self._fire_id = 0
        # ids the driver picks when the caller names none: the upper half, apart from a journal's own
        self._next_id = random.Random(seed).randrange(2**30, 2**31 - 2**24)
        try:
            self.link.handshake()
            if config is not None:
                self.configure(config.get("firmware", {}))
        finally:
            self.link.flush()

    @staticmethod
    def open_serial(device: str) -> serial.Serial:
        """The launcher's port, opened exclusively, or a LauncherError (PortBusy naming the holder)."""
        try:
            # exclusive: an advisory flock held while open, so a second unox cannot fire this launcher too
            return serial.Serial(device, BAUD, timeout=READ_TIMEOUT_S, write_timeout=1.0, exclusive=True)
        except PORT_ERRORS as exc:
            if is_busy(exc):
                raise PortBusy(busy_message(device)) from exc
            raise LauncherError(f"cannot open {device} ({exc}); {advice(device)}") from exc

    @classmethod
    def open_port(cls, device: str, **options) -> SerialLauncher:
        port = cls.open_serial(device)
        try:
            return cls(port, name=device, **options)
        except LauncherError:
            port.close()
            raise

    @property
    def port(self):
        return self.link.port

    @property
    def board_id(self) -> str | None:
        return self.link.board

    @property
    def stranger_id(self) -> str | None:
        """The board of another launcher answering at our port, refused until accepted (`unknown`: an older
        firmware naming none); None when none is."""
        return self.link.stranger

    def accept_stranger(self, board: str) -> None:
        """Takes `board`, the launcher now at our port, as ours from now on (a person accepted it): the next
        call greets it and fires it. ValueError when it is not the one at the port."""
        self.link.accept_stranger(board)
        try:
            self.link.ensure()  # greeted now, so its status shows the link back at once
        except LauncherError:
            pass  # gone meanwhile: the next call greets it, and a status shows the link down
        finally:
            self.link.flush()

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
        host_beat = values.get("host_beat_ms")
        if host_beat is not None and int(host_beat) != int(HEARTBEAT_S * 1000):
            raise LauncherError(f"host_beat_ms = {host_beat}: it is this host's own heartbeat period "
                                f"({HEARTBEAT_S * 1000:.0f} ms, sent after each HELLO); leave it out")
        values = {key: value for key, value in values.items() if key != "host_beat_ms"}
        silence = values.get("silence_ms")
        if silence is not None and int(silence) < 2 * HEARTBEAT_S * 1000:
            raise LauncherError(f"silence_ms = {silence} is below twice the host's heartbeat period "
                                f"({HEARTBEAT_S * 1000:.0f} ms): every fire would be cut; use at least "
                                f"{2 * HEARTBEAT_S * 1000:.0f}")
        beat, most = values.get("beat_ms"), QUIET_S * 1000 / 3
        if beat is not None and int(beat) > most:
            raise LauncherError(f"beat_ms = {beat} is too slow for the host's {QUIET_S:g} s heartbeat "
                                f"timeout (a lost link must show within it); use at most {most:.0f}")
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
        if fire_id is not None and (isinstance(fire_id, bool) or not isinstance(fire_id, int)
                                    or not 0 < fire_id <= MAX_FIRE_ID):
            raise ValueError(f"fire_id must be an integer from 1 to {MAX_FIRE_ID}, got {fire_id!r}")
        if fire_id is None:
            fire_id, self._next_id = self._next_id, self._next_id + 1
        try:
            result = self._fire(n, fire_id)  # the FIRE carries the press's held ACK in its write
            if n:
                result.details["fire_id"] = fire_id
            return result
        finally:
            # the FIRED's ACK (and that of a press read with it) before the caller goes on, maybe to
            # sleep; holding them for the next FIRE measured slower (docs/benchmarks.md)
            self.link.flush()

    def _fire(self, n: int, fire_id: int) -> FireResult:
        check_count(n)
        if n == 0:
            return FireResult(0, 0, None)
        link = self.link
        try:
            link.ensure(hello_timeout=QUIET_S)
            link.wait(link.alive, QUIET_S)  # a quiet link gets QUIET_S to show it is there
        except StrangerLauncher:
            return self._refuse_down(n, "stranger")  # another launcher at our port: never fired
        except LauncherError:
            return self._refuse_down(n)
        if not link.alive():
            return self._refuse_down(n)
        self._pending_n, self._lost_in_reboot, self._fire_id = n, False, fire_id
        self._send_pending()
        started = self.link.now()
        try:
            result = self._await_fired(n)
        finally:
            self._pending = None
        result.details["fire_ms"] = round((self.link.now() - started) * 1000)  # FIRE sent to FIRED read
        return result

    def _send_pending(self) -> None:
        self._pending = f"{self.link.send('FIRE', (self._pending_n, self._fire_id)):02X}"  # FIRED's ref
        self.state.results.pop(self._pending, None)  # a late FIRED of a given-up fire under a reused seq
        self._sent_at = self.link.now()
        self._errors_seen = len(self.state.errors)

    def _await_fired(self, n: int) -> FireResult:
        link = self.link
        while self._pending not in self.state.results:
            if self._lost_in_reboot:
                return self._give_up(n, "reboot")
            if link.silent_for() > link.link_timeout or link.needs_hello:  # silent, or the session broke
                return self._give_up(n, "lost")
            if link.now() - self._sent_at > FIRE_TIMEOUT_S:
                return self._give_up(n, "no_reply")
            self._check_refusal(n)
            try:
                link.pump()
            except StrangerLauncher:
                return self._give_up(n, "lost")  # our launcher had the FIRE; another one answers now
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
        """No FIRED will come: nothing is claimed, and a new session makes sure the FIRE never runs
        later; what it did is fire_result(fire_id) once the device answers (None after a reboot)."""
        self.state.last_fault = "link"
        self.link.needs_hello = True
        return FireResult(n, 0, "link", {"detail": why})

    def _refuse_down(self, n: int, why: str = "down") -> FireResult:
        """The link is down (or another launcher is at our port: detail `stranger`): no FIRE goes out, so
        nothing fires, now or later."""
        self.state.last_fault = "link"
        return FireResult(n, 0, "link", {"detail": why})

    # ---- what the device remembers ------------------------------------------------------------------
    def fire_result(self, fire_id: int) -> FireResult | None:
        """Asks the firmware (QUERY) what fire `fire_id` did; None when it cannot tell (rebooted since, or
        an id it never had or has forgotten: it keeps the last 16) or cannot be reached. Never fires."""
        try:
            return self._query(fire_id)
        except LauncherError:
            return None
        finally:
            self.link.flush()

    def _query(self, fire_id: int) -> FireResult | None:
        link, key = self.link, str(fire_id)
        link.ensure()
        deadline = link.now() + FIRE_TIMEOUT_S
        while link.now() < deadline:
            self.state.answers.pop(key, None)
            link.send("QUERY", (fire_id,))
            sent = link.now()  # silence counts from here: an idle caller has not heard the device for long

            def given_up(sent: float = sent) -> bool:
                return link.now() - max(sent, link.heard) > link.link_timeout

            link.wait(lambda: key in self.state.answers or given_up(), REPLY_TIMEOUT_S)
            answer = self.state.answers.pop(key, None)
            if answer is None or answer[0] == "unknown":
                return None
            if answer[0] != "running":
                fired, n, fault, detail = int(answer[0]), int(answer[1]), answer[2], answer[3]
                details = {"detail": detail} if detail != "-" else {}
                return FireResult(n, fired, None if fault == "-" else fault, details)
            link.wait(lambda: False, QUERY_RETRY_S)  # still running down: ask again shortly
        return None

    def take_standalone_fires(self) -> list[FireResult]:
        """The fires the firmware made alone (ALONE frames), oldest first, each once, acknowledged at once
        (TAKEN): for a caller with nothing to record first. A table uses `pending_standalone_fires`."""
        fires = self.pending_standalone_fires()
        for result in fires:
            self.standalone_taken(result)
        return fires

    def pending_standalone_fires(self) -> list[FireResult]:
        """The fires the firmware made alone, oldest first, each once; the firmware keeps each (and sends it
        again to the next host session) until `standalone_taken(result)` says it is recorded."""
        link, state = self.link, self.state
        try:
            if not link.needs_hello:
                link.pump()  # what has arrived (never waits more than READ_TIMEOUT_S)
            self._send_taken()
        except LauncherError:
            pass
        finally:
            link.flush()
        taken, state.standalone = state.standalone, []
        return taken

    def standalone_taken(self, result: FireResult) -> None:
        """Fire `result` (from `pending_standalone_fires`) is recorded: TAKEN lets the firmware forget it."""
        key = (f"{int(result.details['boot']):04X}", str(int(result.details["standalone"])))
        self.state.recorded.add(key)
        self.state.taken_due.append(key)
        try:
            self._send_taken()
        except LauncherError:
            pass  # sent with the next call that reaches the firmware; until then it keeps the fire
        finally:
            self.link.flush()

    def _send_taken(self) -> None:
        link, state = self.link, self.state
        if link.needs_hello or link.broken or link.confirming:
            return  # a new session gets the ALONE again, and the TAKEN then
        while state.taken_due and link.endpoint.unacked() < link.endpoint.window - 1:
            link.send("TAKEN", state.taken_due.pop(0))  # never more than the window: none is dropped

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
        """Cheap: one pump, then a STATUS round trip only while the link is alive, given up as soon as
        it is not (so at most QUIET_S); `connected` is False within QUIET_S of the firmware's silence."""
        s, link = self.state, self.link
        try:
            if not link.needs_hello:
                link.pump()  # what arrived meanwhile (heartbeats) says whether it is worth asking
            if link.alive():
                s.status = {}
                link.send("STATUS")
                link.wait(lambda: bool(s.status) or not link.alive(), REPLY_TIMEOUT_S)
        except LauncherError:
            pass  # reported below as a lost link
        link.flush()
        faults = s.faults()
        if not link.alive() and "link" not in faults:
            faults.append("link")
        return LauncherStatus(link.alive(), s.firmware, s.counted, s.battery_mv, s.lid_open, faults,
                              low_battery=s.battery_low, lid_opens=s.lid_opens, board_id=link.board)

    def wait_press(self, timeout: float | None = None) -> bool:
        """A press keeps its ACK held for the FIRE that follows; the next wait or call writes it anyway.

        Raises LauncherError when the port is gone, or when nothing came from the firmware for QUIET_S
        during this wait (the link is down): a front end says so at once instead of waiting on. A session
        that breaks during the wait (a gap that never fills) is replaced by a new one; the wait goes on."""
        try:
            pressed = self._wait_press(timeout)
        except BaseException:
            self.link.flush()
            raise
        if not pressed:
            self.link.flush()
            return False
        self.state.presses -= 1
        return True

    def _wait_press(self, timeout: float | None) -> bool:
        link = self.link
        deadline = None if timeout is None else link.now() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - link.now())
            link.ensure(listen_s=QUIET_S if left is None else min(left, QUIET_S))
            since = link.now()

            def done(since: float = since) -> bool:
                silent = link.now() - max(since, link.heard) > QUIET_S
                return self.state.presses > 0 or silent or link.needs_hello

            ended = link.wait(done, None if deadline is None else max(0.0, deadline - link.now()))
            if self.state.presses > 0:
                return True
            if not ended:
                return False
            if not link.needs_hello:
                why = f" ({link.lost_why})" if link.broken else ""
                name = link.name
                raise LauncherError(f"the launcher on {name} stopped answering{why}; {advice(name)}")

    def close(self) -> None:
        self.link.close()
