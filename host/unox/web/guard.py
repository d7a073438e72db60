"""What keeps one Wi-Fi guest from stalling the server: a header deadline and caps on sockets.

uvicorn's h11 protocol waits for a request's headers for ever and accepts sockets until the process runs
out of files. Here every connection is booked on arrival: headers must be complete within
`HEADER_TIMEOUT_S`, connections and WebSockets are capped overall and per address below the file limit,
and a newcomer over a cap pushes out the oldest connection that is still waiting for headers (a half-open
socket, an idle keep-alive), so a player's page is served while an attacker's sockets are held.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.wsproto_impl import WSProtocol

log = logging.getLogger(__name__)

HEADER_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 256  # a table is a dozen phones and a TV; the file limit lowers this further
PER_ADDRESS = 32  # a browser opens about six connections and a socket per page
MAX_SOCKETS = 64  # WebSockets overall
SOCKETS_PER_ADDRESS = 16  # a TV, or an operator's laptop with a tab per seat
SPARE_FILES = 64  # the journal, the launcher's port, the log, Python's own
NO_FILES_LOG_EVERY_S = 60.0


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
    header_timeout_s: float = HEADER_TIMEOUT_S
    connections: int = MAX_CONNECTIONS
    per_address: int = PER_ADDRESS
    sockets: int = MAX_SOCKETS
    sockets_per_address: int = SOCKETS_PER_ADDRESS

    @classmethod
    def for_files(cls, files: int) -> Limits:
        """The caps for a process that may hold `files` files: every connection fits with files to spare."""
        room = max(8, files - SPARE_FILES)
        return cls(connections=min(MAX_CONNECTIONS, room), per_address=min(PER_ADDRESS, room),
                   sockets=min(MAX_SOCKETS, room // 2),
                   sockets_per_address=min(SOCKETS_PER_ADDRESS, room // 2))


class Book:
    """The live connections by transport: who they are from, and which still wait for their headers."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.address: dict[Any, str] = {}
        self.waiting: dict[Any, None] = {}  # insertion order: the oldest waiting first
        self.sockets: dict[Any, str] = {}
        self.count: dict[str, int] = {}

    def admit(self, transport: Any, address: str) -> bool:
        """Book a new connection, pushing out the oldest waiting one over a cap; False: refuse it."""
        if self.count.get(address, 0) >= self.limits.per_address and not self._push_out(address):
            return False
        if len(self.address) >= self.limits.connections and not self._push_out(None):
            return False
        self.address[transport] = address
        self.count[address] = self.count.get(address, 0) + 1
        self.waiting[transport] = None
        return True

    def _push_out(self, address: str | None) -> bool:
        oldest = next((t for t in self.waiting if address is None or self.address.get(t) == address), None)
        if oldest is None:
            return False
        self.drop(oldest)
        oldest.abort()
        return True

    def set_waiting(self, transport: Any, waiting: bool) -> None:
        if transport not in self.address:
            return
        if waiting:
            self.waiting[transport] = None
        else:
            self.waiting.pop(transport, None)

    def may_upgrade(self, transport: Any) -> str | None:
        """None when this connection may become a WebSocket (then it is booked as one), else why not."""
        address = self.address.get(transport, "")
        if len(self.sockets) >= self.limits.sockets:
            return "the table has as many live pages as it serves; close a page and try again"
        if sum(1 for a in self.sockets.values() if a == address) >= self.limits.sockets_per_address:
            return "this device has too many pages of the table open; close some and reload"
        self.sockets[transport] = address
        self.waiting.pop(transport, None)
        return None

    def drop(self, transport: Any) -> None:
        address = self.address.pop(transport, None)
        self.waiting.pop(transport, None)
        self.sockets.pop(transport, None)
        if address is not None:
            self.count[address] -= 1
            if not self.count[address]:
                del self.count[address]


def guarded_protocols(book: Book) -> tuple[type, type]:
    """uvicorn's h11 and wsproto protocols, booked in `book`: (http class, ws class) for uvicorn.Config."""

    class GuardedWS(WSProtocol):
        def connection_lost(self, exc: Exception | None) -> None:
            book.drop(self.transport)
            super().connection_lost(exc)

    class GuardedH11(H11Protocol):
        header_timer: asyncio.TimerHandle | None = None
        upgraded = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not book.admit(transport, self.client[0] if self.client else "unknown"):
                transport.abort()
                return
            self._wait_for_headers()

        def _wait_for_headers(self) -> None:
            if self.header_timer is None:
                self.header_timer = self.loop.call_later(book.limits.header_timeout_s, self._headers_late)
            book.set_waiting(self.transport, True)

        def _headers_late(self) -> None:
            self.header_timer = None
            if self.conn.their_state is h11.IDLE and not self.upgraded:
                self.transport.abort()

        def _headers_in(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None
            book.set_waiting(self.transport, False)

        def data_received(self, data: bytes) -> None:
            if self.conn.their_state is h11.IDLE:
                self._wait_for_headers()  # also the next request on a kept-alive connection
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE and not self.upgraded:
                self._headers_in()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._headers_in()
            why = book.may_upgrade(self.transport)
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
                self._wait_for_headers()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None
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
