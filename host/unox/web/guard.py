"""What keeps one Wi-Fi guest from stalling the server: request deadlines, caps, a rate of new sockets.

uvicorn's h11 protocol waits for a request's headers and its body for ever and accepts sockets until the
process runs out of files. Here every connection is booked on arrival:

- the whole request, headers and body, must be in within `REQUEST_TIMEOUT_S`, and a body must keep coming
  at `MIN_BODY_RATE` bytes a second after a short grace, so a trickled body holds no socket for long;
- connections and WebSockets are capped overall and per address below the file limit, WebSockets also per
  seat (each player's, the operator's, and all the table views' together), and a handshake's Host, Origin
  and token are checked before it takes a slot;
- an address may open only so many connections that never send a whole request (a token bucket, refunded
  by each request that comes in whole); past that it is refused at once, so a re-opening flood costs the
  server an accept and an abort each, and pushes out nobody;
- a newcomer over a cap pushes out the oldest connection that has not sent a whole request yet (one that
  never did first, then an idle keep-alive), never one being served nor a WebSocket.

What it closes or refuses is logged one line per kind of event, at most once a minute (`Events`).
"""

from __future__ import annotations

import _socket
import asyncio
import errno
import json
import logging
import resource
import socket
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.wsproto_impl import WSProtocol

log = logging.getLogger(__name__)

REQUEST_TIMEOUT_S = 10.0  # a request's headers and body together (and an idle keep-alive)
BODY_GRACE_S = 2.0  # after the headers, before the body's rate counts
MIN_BODY_RATE = 512  # bytes a second after the grace; a table request is a few hundred bytes in all
MAX_CONNECTIONS = 256  # a table is a dozen phones and a TV; the file limit lowers this further
PER_ADDRESS = 32  # a browser opens about six connections and a socket per page
MAX_SOCKETS = 64  # WebSockets overall
SOCKETS_PER_ADDRESS = 16  # a TV, or an operator's laptop with a tab per seat
SOCKETS_PER_PLAYER = 6  # a player's phone: a page, a reload, a few more tabs
OPERATOR_SOCKETS = 8
VIEW_SOCKETS = 16  # every table-view page together: the operator can sign them all out
NEW_PER_S = 2.0  # connections an address may open a second that never send a whole request ...
NEW_BURST = 16  # ... after a burst of this many (a page load is about six, each given back)
SPARE_FILES = 64  # the journal, the launcher's port, the log, Python's own
EVENT_LOG_EVERY_S = 60.0
NO_FILES_LOG_EVERY_S = EVENT_LOG_EVERY_S

# A WebSocket handshake's vetting: the seat its token opens, or (status, code, message) to refuse it with.
Vet = Callable[[list[tuple[bytes, bytes]], str], "str | tuple[int, str, str]"]


def file_limit() -> int:
    """The process's open-file limit, raised to its hard limit first (as far as a process may)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (OSError, ValueError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


@dataclass(frozen=True)
class Limits:
    request_timeout_s: float = REQUEST_TIMEOUT_S
    body_grace_s: float = BODY_GRACE_S
    min_body_rate: float = MIN_BODY_RATE
    connections: int = MAX_CONNECTIONS
    per_address: int = PER_ADDRESS
    sockets: int = MAX_SOCKETS
    sockets_per_address: int = SOCKETS_PER_ADDRESS
    sockets_per_seat: dict[str, int] = field(
        default_factory=lambda: {"operator": OPERATOR_SOCKETS, "table": VIEW_SOCKETS})
    sockets_per_player: int = SOCKETS_PER_PLAYER
    new_per_s: float = NEW_PER_S
    new_burst: int = NEW_BURST

    @classmethod
    def for_files(cls, files: int) -> Limits:
        """The caps for a process that may hold `files` files: every connection fits with files to spare."""
        room = max(8, files - SPARE_FILES)
        return cls(connections=min(MAX_CONNECTIONS, room), per_address=min(PER_ADDRESS, room),
                   sockets=min(MAX_SOCKETS, room // 2),
                   sockets_per_address=min(SOCKETS_PER_ADDRESS, room // 2))

    def seat_sockets(self, seat: str) -> int:
        return self.sockets_per_seat.get(seat, self.sockets_per_player)


class Events:
    """One log line per kind of event, at most one a minute each, with how many more there were since."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, every_s: float = EVENT_LOG_EVERY_S,
                 logger: logging.Logger = log):
        self.clock, self.every_s, self.log = clock, every_s, logger
        self.last: dict[str, float] = {}
        self.missed: dict[str, int] = {}

    def note(self, kind: str, message: str, level: int = logging.WARNING) -> None:
        now = self.clock()
        last = self.last.get(kind)
        if last is not None and now - last < self.every_s:
            self.missed[kind] = self.missed.get(kind, 0) + 1
            return
        missed = self.missed.pop(kind, 0)
        more = f" ({missed} more since the last line)" if missed else ""
        self.log.log(level, "%s%s", message, more)
        self.last[kind] = now


class Book:
    """The live connections by transport: who they are from, which have not sent a whole request yet, the
    WebSockets and their seats, and each address's allowance of new connections."""

    def __init__(self, limits: Limits, *, vet: Vet | None = None, events: Events | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.limits, self.vet, self.clock = limits, vet, clock
        self.events = events or Events()
        self.address: dict[Any, str] = {}
        # insertion order: the oldest first. `fresh` never sent a whole request; `idle` did, and waits again
        self.fresh: dict[Any, None] = {}
        self.idle: dict[Any, None] = {}
        self.sockets: dict[Any, tuple[str, str]] = {}  # transport -> (address, seat)
        self.count: dict[str, int] = {}
        self.allowance: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def admit(self, transport: Any, address: str) -> bool:
        """Book a new connection, pushing out the oldest waiting one over a cap; False: refuse it.

        An address past its allowance of new connections is refused until the allowance refills: a flood
        costs the server an accept and an abort each, and pushes out nobody."""
        if not self._spend(address):
            self.events.note("rate", f"refused new connections from {address}: more than "
                             f"{self.limits.new_per_s:g} a second that send no request")
            return False
        if self.count.get(address, 0) >= self.limits.per_address and not self._push_out(address):
            self.events.note("full", f"refused a connection from {address}: {self.limits.per_address} from "
                             "that address are being served")
            return False
        if len(self.address) >= self.limits.connections and not self._push_out(None):
            self.events.note("full", f"refused a connection: all {self.limits.connections} are being served")
            return False
        self.address[transport] = address
        self.count[address] = self.count.get(address, 0) + 1
        self.fresh[transport] = None
        return True

    def over_allowance(self, address: str) -> bool:
        """True when `address` has no new connection left in its allowance (nothing is spent here): the
        listening socket refuses it before asyncio makes anything of it (`GatedSocket`)."""
        tokens, when = self.allowance.get(address, (float(self.limits.new_burst), 0.0))
        if tokens >= 1 or tokens + (self.clock() - when) * self.limits.new_per_s >= 1:
            return False
        self.events.note("rate", f"refused new connections from {address}: more than "
                         f"{self.limits.new_per_s:g} a second that send no request")
        return True

    def _spend(self, address: str) -> bool:
        """Take one new connection from `address`'s allowance (refilled at `new_per_s`); False: none left."""
        now, burst = self.clock(), self.limits.new_burst
        tokens, when = self.allowance.get(address, (float(burst), now))
        tokens = min(burst, tokens + (now - when) * self.limits.new_per_s)
        if tokens < 1:
            self.allowance[address] = (tokens, now)
            return False
        self.allowance[address] = (tokens - 1, now)
        if len(self.allowance) > 4096:  # forget the addresses whose allowance is whole again
            self.allowance = {a: (t, w) for a, (t, w) in self.allowance.items()
                              if min(burst, t + (now - w) * self.limits.new_per_s) < burst}
        return True

    def _refund(self, address: str) -> None:
        tokens, when = self.allowance.get(address, (0.0, self.clock()))
        self.allowance[address] = (min(self.limits.new_burst, tokens + 1), when)

    def _push_out(self, address: str | None) -> bool:
        def mine(t: Any) -> bool:
            return address is None or self.address.get(t) == address

        oldest = next((t for t in self.fresh if mine(t)), None)
        if oldest is None:
            oldest = next((t for t in self.idle if mine(t)), None)
        if oldest is None:
            return False
        self.drop(oldest)
        oldest.abort()
        return True

    def request_in(self, transport: Any) -> None:
        """The connection sent a whole request: it is being served, and its address's allowance comes back
        the first time."""
        if transport in self.fresh:
            del self.fresh[transport]
            self._refund(self.address.get(transport, ""))
        self.idle.pop(transport, None)

    def waiting(self, transport: Any) -> None:
        """A served connection waits for its next request (a keep-alive)."""
        if transport in self.address and transport not in self.fresh:
            self.idle[transport] = None

    def is_waiting(self, transport: Any) -> bool:
        return transport in self.fresh or transport in self.idle

    def may_upgrade(self, transport: Any, seat: str) -> str | None:
        """None when this connection may become `seat`'s WebSocket (then booked as one), else why not."""
        address = self.address.get(transport, "")
        if len(self.sockets) >= self.limits.sockets:
            return "the table has as many live pages as it serves; close a page and try again"
        if sum(1 for a, _ in self.sockets.values() if a == address) >= self.limits.sockets_per_address:
            return "this device has too many pages of the table open; close some and reload"
        if sum(1 for _, s in self.sockets.values() if s == seat) >= self.limits.seat_sockets(seat):
            whose = "the table view" if seat == "table" else f"{seat}'s seat" if seat != "operator" else \
                "the operator's seat"
            return (f"too many pages of {whose} are open; close some and reload"
                    + (" (the operator can sign the table views out)" if seat == "table" else ""))
        self.request_in(transport)
        self.sockets[transport] = (address, seat)
        return None

    def drop(self, transport: Any) -> None:
        address = self.address.pop(transport, None)
        self.fresh.pop(transport, None)
        self.idle.pop(transport, None)
        self.sockets.pop(transport, None)
        if address is not None:
            self.count[address] -= 1
            if not self.count[address]:
                del self.count[address]


RESET = struct.pack("ii", 1, 0)  # SO_LINGER on, 0 s: close() sends a reset and leaves no TIME_WAIT


class GatedSocket(socket.socket):
    """The listening socket: an address past its allowance (`refuse(address)`) is reset as it is accepted,
    before asyncio makes a transport, a task and a protocol of it; a flood then costs the server an accept
    and a close each. A refused connection is never made a `socket.socket` (whose `accept` converts the
    family and type to enums each time): under a 2,500-a-second flood that was a fifth of the server's
    Python time per connection (bench/web.py)."""

    refuse: Callable[[str], bool] | None = None
    raw: tuple[int, int, int] | None = None  # family, type, proto as plain ints, read once

    def accept(self) -> tuple[socket.socket, Any]:
        refuse = self.refuse
        if refuse is None:
            return super().accept()
        if self.raw is None:
            self.raw = (int(self.family), int(self.type), self.proto)
        family, kind, proto = self.raw
        while True:
            fd, address = self._accept()  # BlockingIOError when none is left: asyncio's to handle
            if not refuse(address[0]):
                conn = socket.socket(family, kind, proto, fileno=fd)  # what socket.accept makes of it
                if socket.getdefaulttimeout() is None and self.gettimeout():
                    conn.setblocking(True)
                return conn, address
            refused = _socket.socket(family, kind, proto, fd)
            refused.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
            refused.close()


def guarded_protocols(book: Book) -> tuple[type, type]:
    """uvicorn's h11 and wsproto protocols, booked in `book`: (http class, ws class) for uvicorn.Config."""

    class GuardedWS(WSProtocol):
        async def send(self, message: Any) -> None:
            if message.get("type") == "websocket.close":  # closed by the server: its slot is free now,
                book.sockets.pop(self.transport, None)  # whether or not the client answers the close
            await super().send(message)

        def connection_lost(self, exc: Exception | None) -> None:
            book.drop(self.transport)
            super().connection_lost(exc)

    class GuardedH11(H11Protocol):
        request_timer: asyncio.TimerHandle | None = None
        body_timer: asyncio.TimerHandle | None = None
        body_started = 0.0
        body_bytes = 0
        upgraded = False
        refused = False

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.made_with = (args, kwargs)  # uvicorn's own set-up waits until the connection is admitted

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            # booked first: a refused one (a flood's) costs an accept and an abort, nothing more
            if not book.admit(transport, str(peer[0]) if peer else "unknown"):
                self.refused = True
                transport.abort()
                return
            args, kwargs = self.made_with
            super().__init__(*args, **kwargs)
            super().connection_made(transport)
            self._wait_for_request()

        def _wait_for_request(self) -> None:
            if self.request_timer is None:
                self.request_timer = self.loop.call_later(book.limits.request_timeout_s, self._request_late)

        def _request_late(self) -> None:
            self.request_timer = None
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.upgraded:
                if self.conn.their_state is h11.SEND_BODY:
                    book.events.note("late", f"closed connections whose request was not in within "
                                     f"{book.limits.request_timeout_s:g} s")
                self.transport.abort()

        def _body_check(self) -> None:
            """The body must come at `min_body_rate` after the grace, or the connection is closed."""
            self.body_timer = None
            if self.conn.their_state is not h11.SEND_BODY or self.transport.is_closing():
                return
            elapsed = self.loop.time() - self.body_started
            if self.body_bytes < book.limits.min_body_rate * (elapsed - book.limits.body_grace_s):
                book.events.note("slow", "closed connections whose request body came slower than "
                                 f"{book.limits.min_body_rate:g} bytes a second")
                self.transport.abort()
                return
            self.body_timer = self.loop.call_later(1.0, self._body_check)

        def _request_in(self) -> None:
            for timer in (self.request_timer, self.body_timer):
                if timer is not None:
                    timer.cancel()
            self.request_timer = self.body_timer = None
            book.request_in(self.transport)

        def data_received(self, data: bytes) -> None:
            before = self.conn.their_state
            if before is h11.IDLE:
                self._wait_for_request()  # also the next request on a kept-alive connection
            elif before is h11.SEND_BODY:
                self.body_bytes += len(data)
            super().data_received(data)
            if self.upgraded or self.transport.is_closing():
                return
            now = self.conn.their_state
            if now is h11.SEND_BODY and before is not h11.SEND_BODY:  # the headers are in, the body comes
                self.body_started, self.body_bytes = self.loop.time(), 0
                self.body_timer = self.loop.call_later(book.limits.body_grace_s + 0.5, self._body_check)
            elif now not in (h11.IDLE, h11.SEND_BODY):
                self._request_in()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._request_in()
            if book.vet is not None:
                vetted = book.vet(self.headers, self.server[0] if self.server else "")
                if not isinstance(vetted, str):
                    self.refuse(*vetted)
                    return
                seat = vetted
            else:
                seat = "table"
            why = book.may_upgrade(self.transport, seat)
            if why is not None:
                self.refuse(503, "too_many_sockets", why)
                return
            self.upgraded = True
            super().handle_websocket_upgrade(event)

        def refuse(self, status: int, code: str, message: str) -> None:
            """The API's JSON refusal, before any upgrade, and the connection closed."""
            body = json.dumps({"ok": False, "error": {"code": code, "message": message}}).encode()
            headers = [(b"content-type", b"application/json"), (b"connection", b"close"),
                       (b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]
            self.transport.write(self.conn.send(h11.Response(status_code=status, headers=headers)))
            self.transport.write(self.conn.send(h11.Data(data=body)))
            self.transport.write(self.conn.send(h11.EndOfMessage()))
            self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                book.waiting(self.transport)
                self._wait_for_request()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.refused:  # never made: nothing of uvicorn's to take down
                return
            for timer in (self.request_timer, self.body_timer):
                if timer is not None:
                    timer.cancel()
            self.request_timer = self.body_timer = None
            if not self.upgraded:
                book.drop(self.transport)
            super().connection_lost(exc)

    return GuardedH11, GuardedWS


class OutOfFiles:
    """An asyncio exception handler: out of files is one log line a minute, not a traceback per accept."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, every_s: float = NO_FILES_LOG_EVERY_S):
        self.clock, self.every_s = clock, every_s
        self.last: float | None = None
        self.missed = 0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if not (isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE)):
            loop.default_exception_handler(context)
            return
        now = self.clock()
        if self.last is not None and now - self.last < self.every_s:
            self.missed += 1
            return
        more = f" ({self.missed} more since the last line)" if self.missed else ""
        log.error("out of open files: new connections wait%s; raise LimitNOFILE or find who holds them", more)
        self.last, self.missed = now, 0


class QuietRepeats(logging.Filter):
    """A logger's filter: the same message (by its format) at most once a minute, with the count missed;
    a client that cut its connection mid-request is one such line, never a traceback."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, every_s: float = EVENT_LOG_EVERY_S):
        super().__init__()
        self.clock, self.every_s = clock, every_s
        self.last: dict[str, float] = {}
        self.missed: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key, now = str(record.msg), self.clock()
        last = self.last.get(key)
        if last is not None and now - last < self.every_s:
            self.missed[key] = self.missed.get(key, 0) + 1
            return False
        missed = self.missed.pop(key, 0)
        if missed:
            record.msg = f"{record.msg} ({missed} more since the last line)"
        self.last[key] = now
        return True
