"""The HTTP and WebSocket API (docs/web.md) and the page, as one Starlette app over a `Hub`.

Every endpoint but the page's files and `/api/join` needs a token: the HttpOnly cookie the join sets, or
`Authorization: Bearer TOKEN`. The page uses nothing but this API.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, HTTPConnection, Request, cookie_parser
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from unox.web.editions import edition_of
from unox.web.hub import Client, Hub
from unox.web.seats import OPERATOR, TABLE, JoinRefused, Seats

log = logging.getLogger(__name__)  # launch.py quiets its repeats: one line a minute per message

COOKIE = "unox_token"
MAX_BODY = 16_384  # a request body, and one WebSocket message (launch.MAX_MESSAGE)
PAGES = ("/", "/play", "/table", "/operator")
# How a press reaches the table: `host` (the phone's request fires the launcher), `count` (no launcher: the
# phone says how many cards came out), `button` (another front end owns the launcher: press its button).
PRESSES = ("host", "count", "button")
BUTTON_ONLY = "press the launcher's own button: at this table the terminal UI takes the presses"
STATIC = {"app.js": "text/javascript", "app.css": "text/css", "index.html": "text/html"}
# The page may load and connect to nothing but this server (and inline nothing).
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def static_bytes(name: str) -> bytes:
    return resources.files("unox.web").joinpath("static", name).read_bytes()


# Every API reply may carry a token or a hand's state: no cache keeps it, no sniffer reads it as a page.
API_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def error(status: int, code: str, message: str) -> JSONResponse:
    return AsciiJSON({"ok": False, "error": {"code": code, "message": message}}, status_code=status)


NO_TOKEN_WS = "join first: POST /api/join, then connect with the token"


def token_of(conn: HTTPConnection) -> str | None:
    scheme, _, value = conn.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return conn.cookies.get(COOKIE)


def token_in(headers: list[tuple[bytes, bytes]]) -> str | None:
    """`token_of` for a handshake's raw headers, before any ASGI scope exists (the guard's check)."""
    named = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in headers}
    scheme, _, value = named.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return cookie_parser(named.get("cookie", "")).get(COOKIE)


def socket_vet(gate: Any, seats: Seats) -> Any:
    """The guard's check of a WebSocket handshake before it takes a slot: the Host and Origin (`gate`, the
    `HostAndOrigin` in front of the app), then the token; the seat it opens, or the refusal."""

    def vet(headers: list[tuple[bytes, bytes]], server: str) -> str | tuple[int, str, str]:
        refused = gate.refusal("websocket", "GET", headers, server)
        if refused is not None:
            return refused
        seat = seats.seat_of(token_in(headers))
        return seat if seat is not None else (401, "no_token", NO_TOKEN_WS)

    return vet


def client_id(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else "unknown"


class Api:
    """The endpoints. `presses`: how a phone presses (PRESSES); the pages show the matching control."""

    def __init__(self, hub: Hub, seats: Seats, *, presses: str, join_url: str | None = None):
        self.hub, self.seats, self.presses = hub, seats, presses
        self.how_to_join = join_info(join_url) if join_url else None
        self.files = {name: static_bytes(name) for name in STATIC}
        self.edition = edition_of(hub.table)  # the edition's cards for the page; fixed for the table's life

    def routes(self) -> list:
        pages = [Route(path, self.page) for path in PAGES]
        return [
            *pages,
            Route("/static/{name}", self.static),
            Route("/api/join", self.join, methods=["POST"]),
            Route("/api/requests", self.requests, methods=["POST"]),
            Route("/api/state", self.state),
            Route("/api/pin", self.pin, methods=["POST"]),
            Route("/api/seats/free", self.free_seat, methods=["POST"]),
            Route("/api/seats/views", self.views, methods=["POST"]),
            Route("/api/launcher/accept", self.accept_launcher, methods=["POST"]),
            WebSocketRoute("/api/ws", self.websocket),
        ]

    async def page(self, request: Request) -> Response:
        return Response(self.files["index.html"], media_type="text/html", headers=SECURITY_HEADERS)

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC or name == "index.html":
            return Response("not found", status_code=404)
        return Response(self.files[name], media_type=STATIC[name], headers=SECURITY_HEADERS)

    async def join(self, request: Request) -> Response:
        raw = await read_body(request)
        body = parse_json(raw) if raw is not None else None
        if not isinstance(body, dict):
            return error(400, "bad_request", 'send {"pin":"1234","seat":"Ann"}')
        try:
            token = self.seats.join(client_id(request), body.get("pin"), body.get("seat"))
        except JoinRefused as exc:
            return error(exc.status, exc.code, exc.message)
        operator = self.seats.opens(body.get("pin")) == OPERATOR
        response = AsciiJSON({"ok": True, "token": token, "seat": body["seat"], "operator": operator})
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        self.hub.publish_seats(self.seats.taken(), self.seats.views_open)
        return response

    async def pin(self, request: Request) -> Response:
        """`POST /api/pin {"pin":"…"}`: what a PIN opens and the free seats, with no token made. The join
        page asks this before it offers the seats, so a phone passing through takes no table view."""
        raw = await read_body(request)
        body = parse_json(raw) if raw is not None else None
        if not isinstance(body, dict):
            return error(400, "bad_request", 'send {"pin":"1234"}')
        try:
            opens = self.seats.check(client_id(request), body.get("pin"))
        except JoinRefused as exc:
            return error(exc.status, exc.code, exc.message)
        taken = self.seats.taken()
        return AsciiJSON({"ok": True, "operator": opens == OPERATOR, "views_open": self.seats.views_open,
                          "free": [p for p in self.seats.players if p not in taken]})

    def undo_refused(self, request: Any) -> tuple[str, str] | None:
        """An undo of cards a launcher fired: the table night's one refusal (`not_undoable`, its words), asked
        here too so that it holds at a table the phones drive without a night (`unox play --web`)."""
        from unox.table.night import edition, undo_refusal

        if not (isinstance(request, dict) and request.get("cmd") == "undo"):
            return None
        table = self.hub.table
        why = undo_refusal(list(table.entries), edition(getattr(getattr(table, "game", None), "rules", None)))
        return why if why is not None and why[0] == "not_undoable" else None

    def seat_or_401(self, conn: HTTPConnection) -> str | JSONResponse:
        seat = self.seats.seat_of(token_of(conn))
        if seat is None:
            return error(401, "no_token", "join first: POST /api/join with the PIN and a seat")
        return seat

    async def state(self, request: Request) -> Response:
        seat = self.seat_or_401(request)
        if isinstance(seat, Response):
            return seat
        return AsciiJSON(await self.welcome(seat))

    async def welcome(self, seat: str) -> dict[str, Any]:
        """`GET /api/state`: the protocol's state reply, and what this seat's page needs to know."""
        state = await asyncio.to_thread(self.hub.state)
        taken = self.seats.taken()
        return {
            "ok": True, "state": state, "seat": seat, "presses": self.presses,
            "read_only": self.seats.read_only, "launcher": self.hub.device, "cards": self.edition,
            "free": [p for p in self.seats.players if p not in taken], "taken": taken,
            "join": self.how_to_join, "views_open": self.seats.views_open,
        }

    async def free_seat(self, request: Request) -> Response:
        """`POST /api/seats/free {"seat":"Ann"}`: the operator lets another phone take a player's seat."""
        seat = self.seat_or_401(request)
        if isinstance(seat, Response):
            return seat
        if seat != OPERATOR:
            return error(403, "forbidden", "only the operator frees a seat: ask the operator")
        raw = await read_body(request)
        body = parse_json(raw) if raw is not None else None
        name = body.get("seat") if isinstance(body, dict) else None
        if name not in (*self.seats.players, TABLE):
            players = ", ".join((*self.seats.players, TABLE))
            return error(400, "unknown_seat", f"send {{\"seat\": NAME}} with one of: {players}")
        freed = self.seats.free(name)
        self.hub.close_seat(name)
        self.hub.publish_seats(self.seats.taken(), self.seats.views_open)
        return AsciiJSON({"ok": True, "seat": name, "freed": freed, "taken": self.seats.taken(),
                          "views_open": self.seats.views_open})

    async def views(self, request: Request) -> Response:
        """`POST /api/seats/views {"open":true}`: the operator lets table views join with the player PIN
        again after signing them out (`false` closes them without signing anyone out)."""
        seat = self.seat_or_401(request)
        if isinstance(seat, Response):
            return seat
        if seat != OPERATOR:
            return error(403, "forbidden", "only the operator opens or closes the table views")
        raw = await read_body(request)
        body = parse_json(raw) if raw is not None else None
        wanted = body.get("open") if isinstance(body, dict) else None
        if not isinstance(wanted, bool):
            return error(400, "bad_request", 'send {"open": true} or {"open": false}')
        self.seats.open_views(wanted)
        self.hub.publish_seats(self.seats.taken(), self.seats.views_open)
        return AsciiJSON({"ok": True, "views_open": self.seats.views_open})

    async def accept_launcher(self, request: Request) -> Response:
        """`POST /api/launcher/accept`: the operator takes the launcher now answering at the port (another
        board, refused until then) as the table's; 409 with the night's words when there is none."""
        from unox.table.night_context import Refused

        seat = self.seat_or_401(request)
        if isinstance(seat, Response):
            return seat
        if seat != OPERATOR:
            return error(403, "forbidden", "only the operator accepts another launcher: ask the operator")
        if self.seats.read_only:  # `unox demo --web`: its bots drive a simulated launcher nobody swaps
            return error(409, "nothing_to_accept", "this table is a demo shown read-only: its launcher is "
                         "simulated and no other launcher can answer there, so there is nothing to accept")
        try:
            board = await asyncio.to_thread(self.hub.accept_launcher)
        except Refused as exc:
            return error(409, "nothing_to_accept", str(exc))
        return AsciiJSON({"ok": True, "board": board})

    async def requests(self, request: Request) -> Response:
        seat = self.seat_or_401(request)
        if isinstance(seat, Response):
            return seat
        status, reply = await self.answer(seat, await read_body(request))
        return AsciiJSON(reply, status_code=status)

    async def answer(self, seat: str, line: str | bytes | None) -> tuple[int, dict[str, Any]]:
        """The reply to one request line from `seat`: the table's own, or 403 when the seat may not."""
        if line is None:
            why = f"the request is longer than {MAX_BODY} bytes; send one table request at a time"
            return 200, await asyncio.to_thread(self.hub.table.refuse, "bad_json", why)
        request = parse_json(line)
        refusal = self.seats.refusal(seat, request)
        if refusal is None and self.presses == "button" and host_fired(request):
            refusal = BUTTON_ONLY
        fired = self.undo_refused(request) if refusal is None else None
        if fired is not None:
            return 409, await self.refused(*fired)
        if refusal is not None:
            return 403, await self.refused("forbidden", refusal)
        try:
            return 200, await self.hub.request(line)
        except Exception as exc:  # the journal's disk, a driver bug: say so in words, keep serving
            log.exception("the table failed on %r", line)
            message = f"unox failed on this request ({exc}); look at the server's log, then try again or undo"
            return 500, await self.refused("internal_error", message)

    async def refused(self, code: str, message: str) -> dict[str, Any]:
        """A reply the server gives in the table's place, shaped like the table's own, with its state."""
        return {"ok": False, "error": {"code": code, "message": message},
                "state": await asyncio.to_thread(self.hub.state)}

    async def websocket(self, ws: WebSocket) -> None:
        seat = self.seats.seat_of(token_of(ws))
        if seat is None:
            await ws.send_denial_response(error(401, "no_token", NO_TOKEN_WS))
            return
        await ws.accept()
        client = Client(seat, token_of(ws))
        self.hub.add(client)  # first: no change can fall between the hello's state and the pushes
        client.put(json.dumps({"type": "hello", **await self.welcome(seat)}))
        client.put(json.dumps({"type": "history", "lines": list(self.hub.history)}))
        sender = asyncio.create_task(drain(ws, client))
        try:
            while True:
                text = await ws.receive_text()
                if self.seats.seat_of(client.token) != seat:  # the operator freed this seat meanwhile
                    break
                status, reply = await self.answer(seat, text)
                client.put(json.dumps({"type": "reply", "status": status, "reply": reply}))
        except WebSocketDisconnect:
            pass
        finally:
            self.hub.remove(client)
            sender.cancel()


async def drain(ws: WebSocket, client: Client) -> None:
    """Send this client's queue in order until it is closed (None) or the socket goes away."""
    with contextlib.suppress(Exception):
        while True:
            text = await client.queue.get()
            if text is None:
                await ws.close()
                return
            await ws.send_text(text)


async def read_body(request: Request) -> bytes | None:
    """The body, or None when it is longer than one request can be (read no further than that)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return bytes(body)


async def cut_off(request: Request, exc: Exception) -> Response:
    """A client gone before its body was in (or the guard closed it, too slow): one quiet line, no
    traceback; nobody reads the answer."""
    log.warning("a client closed its connection (or was closed) before its request was in")
    return Response(status_code=400)


def parse_json(body: str | bytes) -> Any:
    """The request for the seat check; None when it is not JSON (the table answers that itself)."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):  # also UnicodeDecodeError, and Python's 4,300-digit int limit
        return None


def host_fired(request: Any) -> bool:
    """A press or draw the host would fire (no `fired` count given)."""
    fires = isinstance(request, dict) and request.get("cmd") in ("press", "draw")
    return fires and request.get("fired") is None


class AsciiJSON(JSONResponse):
    """JSON with every non-ASCII character escaped: a lone surrogate in a request cannot break the reply."""

    def __init__(self, content: Any, status_code: int = 200, **kwargs: Any):
        super().__init__(content, status_code=status_code, headers=API_HEADERS, **kwargs)

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def join_info(url: str) -> dict[str, str]:
    """The address phones open, and its QR code as an SVG data URI (the CSP allows `data:` images)."""
    import segno

    qr = segno.make(url, error="m").svg_data_uri(scale=1, border=2, dark="#000", light="#fff")
    return {"url": url, "qr": qr}


def build_app(hub: Hub, seats: Seats, *, presses: str, on_startup: list | None = None,
              join_url: str | None = None) -> Starlette:
    api = Api(hub, seats, presses=presses, join_url=join_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await hub.start()
        for hook in on_startup or []:
            hook()
        try:
            yield
        finally:
            await hub.stop()

    return Starlette(routes=api.routes(), lifespan=lifespan, exception_handlers={ClientDisconnect: cut_off})
