"""A small Python client of the web API (docs/web.md): join, requests, and the WebSocket's pushes.

For scripts, the tests and bench/web.py; stdlib HTTP and wsproto (already uvicorn's WebSocket layer here).
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    Message,
    Ping,
    RejectConnection,
    RejectData,
    Request,
)


class ApiError(Exception):
    """An HTTP status other than 200, with the server's JSON reply."""

    def __init__(self, status: int, reply: Any):
        super().__init__(f"HTTP {status}: {reply}")
        self.status, self.reply = status, reply


class WebClient:
    """One seat's HTTP client: `join()` once, then `request()` and `state()` with its bearer token."""

    def __init__(self, base_url: str, token: str | None = None):
        self.base = base_url.rstrip("/")
        self.token = token

    def call(self, path: str, body: Any = None, *, raw: bytes | None = None) -> tuple[int, Any]:
        """(status, parsed JSON reply) for GET (no body) or POST."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method="GET" if data is None else "POST")
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def join(self, pin: str | None, seat: str) -> str:
        status, reply = self.call("/api/join", {"pin": pin, "seat": seat})
        if status != 200:
            raise ApiError(status, reply)
        self.token = reply["token"]
        return self.token

    def request(self, request: Any) -> tuple[int, dict]:
        return self.call("/api/requests", request)

    def state(self) -> dict:
        status, reply = self.call("/api/state")
        if status != 200:
            raise ApiError(status, reply)
        return reply

    def socket(self, timeout: float = 30.0, source: str | None = None) -> Socket:
        return Socket(self.base, self.token, timeout=timeout, source=source)


class Socket:
    """`WS /api/ws`: `receive()` the next message, `send()` a request; ApiError when the handshake fails.
    `source`: the local address to connect from (the tests' many loopback addresses)."""

    def __init__(self, base_url: str, token: str | None, *, timeout: float = 30.0, source: str | None = None):
        parts = urlsplit(base_url)
        self.sock = socket.create_connection((parts.hostname, parts.port or 80), timeout=timeout,
                                             source_address=(source, 0) if source else None)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.pending: list[Any] = []
        self._parts: list[str] = []
        headers = [("Authorization", f"Bearer {token}")] if token else []
        self.sock.sendall(self.ws.send(Request(host=parts.netloc, target="/api/ws", extra_headers=headers)))
        self._handshake()

    def _handshake(self) -> None:
        status, body = 0, b""
        while True:
            events = self._events()
            for index, event in enumerate(events):
                if isinstance(event, AcceptConnection):
                    self.pending.extend(events[index + 1 :])  # a first message may come in the same read
                    return
                if isinstance(event, RejectConnection):
                    status = event.status_code
                    if not event.has_body:
                        raise ApiError(status, None)
                elif isinstance(event, RejectData):
                    body += event.data
                    if event.body_finished:
                        raise ApiError(status, json.loads(body or b"null"))
                else:
                    self.pending.append(event)

    def _events(self) -> list[Any]:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        self.ws.receive_data(data)
        return list(self.ws.events())

    def receive(self) -> dict:
        """The next whole message, parsed."""
        while True:
            while self.pending:
                event = self.pending.pop(0)
                if isinstance(event, Ping):
                    self.sock.sendall(self.ws.send(event.response()))
                elif isinstance(event, CloseConnection):
                    raise ConnectionError(f"the server closed the socket ({event.code})")
                elif isinstance(event, Message):
                    self._parts.append(event.data)
                    if event.message_finished:
                        text, self._parts = "".join(self._parts), []
                        return json.loads(text)
            self.pending.extend(self._events())

    def receive_until(self, kind: str) -> dict:
        """Skip messages until one of type `kind`."""
        while True:
            message = self.receive()
            if message.get("type") == kind:
                return message

    def send(self, request: Any) -> None:
        from wsproto.events import TextMessage

        self.sock.sendall(self.ws.send(TextMessage(data=json.dumps(request))))

    def close(self) -> None:
        try:
            from wsproto.events import CloseConnection as Close

            self.sock.sendall(self.ws.send(Close(code=1000)))
        except Exception:  # already gone: closing is best effort
            pass
        self.sock.close()
