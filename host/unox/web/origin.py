"""Who may talk to the server at all: the `Host` it answers for and the `Origin` of a change.

A page on this machine at another port (any other web app on the Pi) is same-site, so the browser sends it
our SameSite cookie; only its `Origin` tells it apart. A DNS-rebinding page reaches us under its own name;
only the `Host` tells that apart. Both are checked before any endpoint (and before a WebSocket upgrade).
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Iterable
from typing import Any

SAFE_METHODS = ("GET", "HEAD")


def host_names(allowed: Iterable[str] = ()) -> frozenset[str]:
    """The names (besides the address a request arrived at) this server answers for, lower case."""
    name = socket.gethostname().lower()
    return frozenset({"localhost", name, f"{name}.local", *(a.lower().rstrip(".") for a in allowed)})


def split_host(value: str) -> str:
    """`Host: name:port` or `[v6]:port` -> the name or address alone, lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    return value.rpartition(":")[0] if value.count(":") == 1 else value


def same_address(name: str, server: str) -> bool:
    try:
        return ipaddress.ip_address(name) == ipaddress.ip_address(server)
    except ValueError:
        return False


class HostAndOrigin:
    """ASGI middleware: 400 for a Host this server is not, 403 for a change from another Origin."""

    def __init__(self, app: Any, names: frozenset[str], cookie: str):
        self.app, self.names, self.cookie = app, names, cookie

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        server = (scope.get("server") or ("", 0))[0]
        refused = self.refusal(scope["type"], scope.get("method"), scope["headers"], server)
        if refused is not None:
            return await deny(scope, send, *refused)
        return await self.app(scope, receive, send)

    def refusal(self, kind: str, method: str | None, raw: list[tuple[bytes, bytes]],
                server: str) -> tuple[int, str, str] | None:
        """(status, code, message) for a request this server must not take, else None. `kind` is the
        ASGI scope's type; the guard also asks this of a WebSocket handshake before it takes a slot."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in raw}
        host = headers.get("host", "")
        name = split_host(host)
        if not (name in self.names or same_address(name, server)):
            return (400, "unknown_host", f"this server does not answer for {name!r}: open the address unox "
                    "serve printed (or start it with --allow-host NAME)")
        if kind == "websocket" or method not in SAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None and origin.lower() not in (f"http://{host.lower()}", f"https://{host.lower()}"):
                return (403, "bad_origin", f"a request from the page {origin!r} is refused: only this "
                        "server's own pages may act at the table")
            bearer = headers.get("authorization", "").lower().startswith("bearer ")
            if origin is None and not bearer and f"{self.cookie}=" in headers.get("cookie", ""):
                return (403, "bad_origin", "a request carrying the table's cookie must come from its own "
                        "page (with an Origin); a script sends Authorization: Bearer TOKEN instead")
        return None


async def deny(scope: dict[str, Any], send: Any, status: int, code: str, message: str) -> None:
    """The refusal as JSON; for a WebSocket as its handshake's answer, so no upgrade ever happens."""
    body = json.dumps({"ok": False, "error": {"code": code, "message": message}}, ensure_ascii=True).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]
    prefix = "websocket.http." if scope["type"] == "websocket" else "http."
    await send({"type": prefix + "response.start", "status": status, "headers": headers})
    await send({"type": prefix + "response.body", "body": body})
