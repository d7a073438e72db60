"""The host end of the firmware link over a pyserial port: pumping, heartbeats, handshake, reconnect.

One thread, no background work: every wait pumps the port, so the simulator's virtual clock moves only
when the driver waits. Reliability is `unoxfw.link.Endpoint` (seq/ack/retransmit, duplicates dropped,
replies re-sent from the firmware's cache). When the port breaks (USB cable pulled), each pump tries to
reopen it (every REOPEN_S, never blocking), keeping the same session, so unacknowledged frames go out
again with their old sequence numbers and the firmware runs each command once.

The link is down when nothing came from the firmware for QUIET_S (it beats every 250 ms): `alive()`
says so at once, without waiting for anything.

Frames the link produces while taking input (the ACKs, and the beats and resends that fall due then)
are held and go out in the same write as the next frame the host sends (a press's ACK rides with the
FIRE that answers it), and in any case before the link waits for input again (`flush()`, which the driver
also calls before returning to its caller).
"""

from __future__ import annotations

import os
import random
import select
from collections.abc import Callable

import serial
from unoxfw.link import PROTOCOL, Endpoint

from unox.launcher.base import LauncherError, StrangerLauncher
from unox.launcher.clock import Clock, clock_for
from unox.launcher.device_state import DeviceState

READ_TIMEOUT_S = 0.01  # a read returns on the first bytes; this only bounds an idle wait
READ_CHUNK = 4096  # more than any burst of frames the firmware sends between two pumps
HEARTBEAT_S = 0.5  # sent to the firmware as host_beat_ms; its silence_ms must be at least twice this
_BEAT = b"00 HEARTBEAT "  # the host's beat on the wire: seq 00, never ACKed
HELLO_TIMEOUT_S = 2.0
QUIET_S = 0.9  # the heartbeat timeout: the firmware beats every 250 ms; this silence = link down (< 1 s)
LOST_S = 2.0  # silence that gives a fire in flight up (the firmware cuts its motor after silence_ms)
REOPEN_S = 0.25  # a broken port is tried again this often, from the pumps
PROMPT = b"\n>>> "  # MicroPython's friendly REPL: main.py has ended
RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"  # its raw REPL (a 0x01 reached a stopped main.py's REPL)
PASTE_PROMPT = b"\n=== "  # its paste mode (a 0x05 did)
PROMPTS = (PROMPT, RAW_PROMPT, PASTE_PROMPT)
# at any of them: Ctrl-C (clears the line, leaves paste mode), Ctrl-B (raw REPL -> friendly), end any
# half-typed line, then Ctrl-D: a soft reboot, which runs main.py from the friendly REPL
RESTART = b"\x03\x02\r\r\x04"
RESTART_S = 2.0  # a firmware that falls back to the prompt at once is restarted no more often than this
GAP_S = 2.5  # frames kept arriving ahead of a gap this long (the firmware retransmits at least every 1 s):
# the frame in the gap is gone for good (pushed out of the firmware's window), so a new session is needed
PORT_ERRORS = (serial.SerialException, OSError)


def advice(name: str) -> str:
    return (
        f"check that the launcher's USB cable is plugged in, that {name} is the right port, that the "
        f"Pico runs the unox firmware (`unox firmware flash --port {name}`) and that you may use the "
        "port (group dialout)"
    )


def is_local_port(port) -> bool:
    """A local pyserial port on POSIX, whose file descriptor the link reads and writes directly;
    anything else (the simulator, URL handlers, pyserial's other readers) goes through its methods."""
    return os.name == "posix" and isinstance(port, serial.Serial) and type(port).read is serial.Serial.read


class PortLink:
    """Frames in and out of one port; `state` is what the firmware has told us."""

    def __init__(self, port, *, name: str, clock: Clock | None = None, seed: int | None = None,
                 link_timeout: float = LOST_S, board: str | None = None):
        self.port = port
        self.name = name
        # The launcher's identity (HELLO's board): `board` if given, else the first one a HELLO names. A
        # HELLO naming another is a stranger at our port: none of its frames are taken, nothing is sent.
        self.board = board
        self.stranger: str | None = None  # the board found instead of ours ("unknown": it names none)
        # After a reopen: nothing is (re)sent until a HEARTBEAT names our session, so a frame of ours never
        # reaches another launcher that took the port meanwhile (one in a session of its own would run it)
        self.confirming = False
        self.clock = clock or clock_for(port)
        self.state = DeviceState()
        self.endpoint = Endpoint(self._write, epoch=random.Random(seed).randrange(1, 0xFFFF))
        self.link_timeout = link_timeout
        self.broken = False
        self.in_session = False
        self.needs_hello = True
        self.on_reboot: Callable[[bool], None] | None = None  # called with "had our unacked frames"
        self.heard = self.clock.now()
        self.lost_why = ""  # the port error that broke the link, for the messages
        self._next_reopen = 0.0
        self._gap_since: float | None = None
        self._gap_counts = (0, 0)  # the endpoint's (ahead, delivered) when last looked at
        self._last_beat = -HEARTBEAT_S
        self._direct = False  # a local pyserial port: read and write its file descriptor directly
        self._held: list[bytes] = []  # frames made while taking input, not written yet
        self._holding = False
        self._tail = b""  # the last bytes read, so a prompt split across two reads is still seen
        self._restarted_at: float | None = None
        self.restarts = 0  # times main.py was found stopped at the MicroPython prompt and started again
        self.ran_firmware = False  # a handshake succeeded: main.py on this port is ours
        self.watch_prompt = True  # False while handing the REPL over on purpose (unox.launcher.handover)
        self._prepare()

    def now(self) -> float:
        return self.clock.now()

    def ms(self) -> int:
        return int(self.clock.now() * 1000)

    def send(self, kind: str, args: tuple = ()) -> int:
        return self.endpoint.send(kind, args, self.ms())

    def alive(self) -> bool:
        return (self.in_session and not self.broken and not self.confirming
                and self.now() - self.heard <= QUIET_S)

    # ---- bytes ------------------------------------------------------------------------------------
    def _prepare(self) -> None:
        self.port.timeout = READ_TIMEOUT_S
        self.port.reset_input_buffer()
        self._direct = is_local_port(self.port)

    def _write(self, frame: bytes) -> None:
        """Every frame the Endpoint makes; held while taking input, else written with all held ones."""
        if self._holding:
            self._held.append(frame)
            return
        if self._held:
            # Resends first, in their order, then this frame, then the ACKs (seq 00): a FIRE and a press's
            # ACK fit one 64-byte USB packet, and the chip decodes a whole read before it acts, so a held
            # beat is left out (this write shows the host is there as well as the beat would).
            held, self._held = self._held, []
            frame = (b"".join(f for f in held if not f.startswith(b"00 ")) + frame
                     + b"".join(f for f in held if f.startswith(b"00 ") and not f.startswith(_BEAT)))
        self._put(frame)

    def drop_held(self) -> None:
        """Forgets the held frames: after main.py handed its REPL over, they would reach it as typed text."""
        self._held.clear()

    def flush(self) -> None:
        """Writes the held frames (ACKs) now, in one write: before any wait, so none waits for a timer."""
        if self._held:
            data = b"".join(self._held)
            self._held.clear()
            self._put(data)

    def _put(self, data: bytes) -> None:
        if self.broken:
            return  # the Endpoint keeps its frames unacked; they go out again after the reconnect
        try:
            written = 0
            if self._direct:
                try:
                    written = os.write(self.port.fileno(), data)  # pyserial adds a select per write
                except BlockingIOError:
                    written = 0  # the port's buffer is full: pyserial waits for it (write_timeout)
            if written < len(data):
                self.port.write(data[written:])
        except PORT_ERRORS as exc:
            self._break(exc)

    def _break(self, exc: Exception) -> None:
        self.broken = True
        self.lost_why = str(exc)

    def _read(self) -> bytes:
        try:
            if self._direct:
                return self._read_fd(self.port.fileno())  # fileno() refuses a closed port
            data = self.port.read(max(1, self.port.in_waiting))
            if data and self.port.in_waiting:  # the rest of a frame that was still arriving
                data += self.port.read(self.port.in_waiting)
            return data
        except PORT_ERRORS as exc:
            self._break(exc)
            return b""

    def _watch_prompt(self, data: bytes) -> None:
        """main.py ended at a MicroPython prompt. No byte on the wire stops it (the firmware turns the
        keyboard interrupt off, and hands the REPL over only when asked: unox.launcher.handover), so this
        is an exception that ended it, or a firmware older than that (a stray 0x03 was its Ctrl-C); once
        at the REPL, a stray 0x01 or 0x05 moves it to the raw REPL or paste mode. It would stay there, motor
        off, until unplugged. This process holds the port, so no one meant to use the REPL: a soft reboot
        starts main.py again from any of the three, and the link's reboot handling (HEARTBEAT naming no
        session of ours) takes it from there. Only once our firmware has answered a HELLO here: another
        program's main.py is not ours to start."""
        seen = self._tail + data
        self._tail = seen[-len(RAW_PROMPT):]
        if not self.ran_firmware or not self.watch_prompt or not any(p in seen for p in PROMPTS):
            return  # a Pico that never ran our firmware here: its REPL, or its own main.py, is left alone
        now = self.now()
        if self._restarted_at is not None and now - self._restarted_at < RESTART_S:
            return
        if self.stranger is not None:
            return  # another launcher at our port: its main.py is not ours to start
        self._restarted_at = now
        self.restarts += 1
        self.lost_why = "the firmware ended at the MicroPython prompt; restarted it"
        self._put(RESTART)

    @staticmethod
    def _read_fd(fd: int) -> bytes:
        """All that has arrived, in one select and one read: pyserial's read(1), in_waiting and
        read(rest) took six syscalls and about as much CPU as decoding the frames (bench/latency.py)."""
        if not select.select([fd], [], [], READ_TIMEOUT_S)[0]:
            return b""
        try:
            data = os.read(fd, READ_CHUNK)
        except BlockingIOError:
            return b""  # another reader took it first
        if not data:  # readable but empty: the device is gone (as pyserial reports it)
            raise serial.SerialException("the port is readable but returns no data (unplugged?)")
        return data

    def pump(self) -> None:
        """One step: read what arrived (waiting at most READ_TIMEOUT_S), retransmit, heartbeat.

        With the port broken it only tries to reopen it (every REOPEN_S) and lets READ_TIMEOUT_S pass."""
        if self.broken and not self.try_reopen():
            self.clock.sleep(READ_TIMEOUT_S)
            return
        self.flush()  # never wait for input with an ACK unsent
        data = self._read()
        now_s = self.clock.now()  # one clock reading per step: the press -> FIRE path is this method
        now = int(now_s * 1000)
        endpoint, state = self.endpoint, self.state
        if data:
            self._watch_prompt(data)
            self.heard = now_s
            self._holding = True
            try:
                frames = endpoint.receive(data, now)
            finally:
                self._holding = False
            for _seq, kind, args in frames:
                if self.stranger is None or kind in ("HELLO", "HEARTBEAT"):
                    state.apply(kind, args)  # a stranger's presses and fires are not ours to book
                if kind == "HELLO":
                    self._check_board()
            self._watch_gap(now_s)
        if self.confirming and state.peer_seen == f"{endpoint.epoch:04X}":
            self.confirming = False  # the same firmware, still in our session: go on where we were
        # held too: a beat or a resend made while a press's ACK waits for its FIRE rides in the FIRE's
        # write, not in one of its own ahead of it (the chip would read the FIRE a loop later)
        self._holding = True
        try:
            if not self.confirming:
                endpoint.poll(now)
            if now_s - self._last_beat >= HEARTBEAT_S:
                self._last_beat = now_s
                endpoint.send_unreliable("HEARTBEAT", (f"{endpoint.epoch:04X}",))
        finally:
            self._holding = False
        if self.in_session and state.peer_seen is not None and state.peer_seen != f"{endpoint.epoch:04X}":
            self._rebooted()

    def _watch_gap(self, now_s: float) -> None:
        """A gap that never fills (the firmware dropped the frame from its window) blocks every later
        frame: after GAP_S of that, the session is over and the next call starts a new one."""
        counts = (self.endpoint.ahead, self.endpoint.delivered)
        ahead, delivered = counts[0] - self._gap_counts[0], counts[1] - self._gap_counts[1]
        self._gap_counts = counts
        if delivered or not self.in_session:
            self._gap_since = None
        elif ahead and self._gap_since is None:
            self._gap_since = now_s
        if self._gap_since is not None and now_s - self._gap_since > GAP_S:
            self._gap_since = None
            self.needs_hello = True
            self.state.last_fault = "link"

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
    def ensure(self, hello_timeout: float = HELLO_TIMEOUT_S, listen_s: float = QUIET_S) -> None:
        """A working port and a session, or a LauncherError that says what to check. A new session is
        only tried once the firmware was heard (waiting up to `listen_s` for it), so a dead link costs a
        caller at most `listen_s`, not a HELLO timeout each time."""
        if self.broken and not self.try_reopen(force=True):
            raise LauncherError(f"lost the launcher on {self.name} ({self.lost_why}); {advice(self.name)}")
        if self.confirming:  # reopened: first hear whose port it is (a HEARTBEAT naming our session)
            self.wait(lambda: not self.confirming or self.needs_hello or self.broken, listen_s)
            if self.confirming and not self.needs_hello and self.silent_for() > QUIET_S:  # else a beat tells
                raise LauncherError(f"the launcher on {self.name} is not answering; {advice(self.name)}")
        if self.needs_hello:
            self.listen(listen_s)
            if self.silent_for() > QUIET_S:  # still silent: a HELLO would only wait out its timeout
                raise LauncherError(f"the launcher on {self.name} is not answering; {advice(self.name)}")
            self.handshake(hello_timeout)

    def listen(self, seconds: float) -> None:
        """Reads until the firmware is heard or `seconds` pass, without retransmitting (the old window may
        hold an abandoned FIRE) and without writing."""
        deadline = self.now() + seconds
        while self.silent_for() > QUIET_S:
            data = self._read()
            if data:
                self._watch_prompt(data)
                self.heard = self.clock.now()
                self._holding = True
                try:
                    self.endpoint.receive(data, self.ms())
                finally:
                    self._holding = False
            elif self.broken or self.now() >= deadline:
                return

    def handshake(self, timeout: float = HELLO_TIMEOUT_S) -> None:
        """HELLO: a new session, a fresh window (frames of an abandoned session are never resent), then
        the host's heartbeat period (host_beat_ms), against which the firmware checks its silence_ms."""
        self.in_session = self.confirming = False
        self.state.firmware = None
        self.state.results.clear()  # FIREDs of the old session name refs this one will use again
        self.endpoint.hello((PROTOCOL,), self.ms())
        if not self.wait(lambda: self.state.firmware is not None, timeout):
            self.needs_hello = True
            raise LauncherError(f"no answer from the launcher on {self.name}; {advice(self.name)}")
        if self.stranger is not None:
            self.needs_hello = True  # every later call asks again: our launcher may come back to this port
            raise self.stranger_error()
        self.state.peer_seen = None
        self.in_session, self.needs_hello, self.ran_firmware = True, False, True
        self.send("CONFIG", ("host_beat_ms", int(HEARTBEAT_S * 1000)))

    def _check_board(self) -> None:
        """After a firmware HELLO: bind to its board if none is bound yet, else see whether it is ours."""
        found = self.state.board
        if self.board is None:
            self.board, self.stranger = found, None  # an older firmware names none: nothing to bind
        elif found == self.board:
            self.stranger = None
        else:
            self.stranger = found or "unknown"

    def accept_stranger(self, board: str) -> None:
        """Binds to `board`, the stranger now at our port, because a person said so (`launcher accept`):
        the next call says HELLO to it and it is ours. ValueError when another (or none) is at the port."""
        if self.stranger is None or self.stranger != board or board == "unknown":
            raise ValueError(f"board {board} is not the launcher at {self.name}")
        self.board, self.stranger = board, None
        self.needs_hello = True

    def stranger_error(self) -> StrangerLauncher:
        expected, found = self.board or "unknown", self.stranger or "unknown"
        return StrangerLauncher(
            f"the launcher on {self.name} is board {found}, not {expected}, the board this unox is bound to: "
            f"nothing is fired or counted for it. Plug board {expected} back in there, or start again naming "
            "the launcher to use with `--launcher serial:PORT` (a table: `--resume JOURNAL --launcher "
            f"serial:PORT`, which also takes board {found} on purpose)",
            expected=expected, found=found)

    def _rebooted(self) -> None:
        """The firmware's heartbeat names no session of ours: it rebooted; start again."""
        had_our_frames = self.endpoint.unacked() == 0
        self.handshake()
        if self.on_reboot is not None:
            self.on_reboot(had_our_frames)

    def try_reopen(self, force: bool = False) -> bool:
        """The port broke (cable pulled): one attempt to reopen it, keeping the session; never blocks."""
        now = self.now()
        if not force and now < self._next_reopen:
            return False
        self._next_reopen = now + REOPEN_S
        try:
            self.port.close()
            self.port.open()
            self._prepare()
        except PORT_ERRORS as exc:
            self.lost_why = str(exc)
            return False
        self.broken = False
        self.confirming = self.in_session and not self.needs_hello  # a new HELLO checks the board anyway
        self.state.peer_seen = None  # what the port says now, not before it broke
        return True

    def silent_for(self) -> float:
        """Seconds since the firmware was last heard."""
        return self.now() - self.heard

    def close(self) -> None:
        self.flush()
        try:
            self.port.close()
        except PORT_ERRORS:
            pass
        self.in_session = False
