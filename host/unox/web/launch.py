"""Starting the web server over a table: its socket, its address for people (URL, PIN, QR), uvicorn.

`serve()` runs in the foreground (`unox serve`); `start_in_thread()` runs beside another front end
(`unox play --web`, `unox demo --web`) on the same table.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from unox.web.seats import Seats, check_pin, random_pin

DEFAULT_HOST, DEFAULT_PORT = "0.0.0.0", 8765
MAX_MESSAGE = 16_384  # one WebSocket message, as one request body: a request is a few hundred bytes
LISTEN_BACKLOG = 256
AVAHI_SOCKETS = ("/run/avahi-daemon/socket", "/var/run/avahi-daemon/socket")


class WebError(Exception):
    """The server cannot start as asked; the message says what to change."""


@dataclass
class WebOptions:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    pin: str | None = None
    read_only: bool = False
    operator_pin: str | None = None
    allow_hosts: tuple[str, ...] = ()


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def choose_pin(options: WebOptions, option: str = "--pin") -> str | None:
    """A PIN: the one given, else 6 random digits. An empty PIN is allowed only on a loopback address."""
    given = options.pin if option == "--pin" else options.operator_pin
    if given == "":
        what = "a PIN" if option == "--pin" else "an operator PIN"
        if not is_loopback(options.host):
            raise WebError(
                f"refusing to serve {options.host} without {what} ({option}): anyone on the network could "
                f"join; leave out {option} for a random one, or use --host 127.0.0.1"
            )
        return None
    if given is None:
        return random_pin()
    try:
        return check_pin(given, option)
    except ValueError as exc:
        raise WebError(str(exc)) from exc


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so a taken port is one clear line, not a traceback."""
    from unox.web.guard import GatedSocket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = GatedSocket(family, socket.SOCK_STREAM)  # the guard's allowance checked at each accept
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # accepted sockets inherit it: no Nagle stall
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        why = exc.strerror or exc
        raise WebError(f"cannot listen on {host}:{port} ({why}); give another --port or --host") from exc
    sock.listen(LISTEN_BACKLOG)
    sock.set_inheritable(True)
    return sock


def public_url(host: str, port: int) -> str:
    """The address to type on a phone: the `.local` name when Avahi advertises it, else the LAN address."""
    if is_loopback(host):
        return f"http://{host}:{port}/"
    if host not in ("0.0.0.0", "::"):
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    if any(os.path.exists(path) for path in AVAHI_SOCKETS):
        return f"http://{socket.gethostname()}.local:{port}/"
    return f"http://{lan_address()}:{port}/"


def lan_address() -> str:
    """This machine's address on its default route (a UDP connect sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


def announce(url: str, pin: str | None, out: IO[str], operator_pin: str | None = None) -> None:
    """The URL, the PINs and a QR code of the URL, for the people around the table (the console only)."""
    import segno

    print(f"unox serve: open {url} on each phone", file=out)
    print(f"Operator PIN: {operator_pin}" if operator_pin else "Operator PIN: none (loopback only)", file=out)
    print(f"PIN: {pin}" if pin else "PIN: none (loopback only)", file=out)
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    out.flush()


@dataclass
class Gate:
    """Everything a web server checks before a table opens: the seats' names, both PINs, the socket bound.

    `open_gate` runs before the journal is made, so a refused `unox serve` (no PIN on the LAN, the port
    taken, a player named `operator`) writes nothing; the server then takes the gate as it is."""

    options: WebOptions
    pin: str | None
    operator_pin: str | None
    sock: socket.socket
    url: str
    players_unchecked: bool = False  # the seats were not known yet (a resume): `check_names` them on opening

    def close(self) -> None:
        self.sock.close()


def check_names(players: Any) -> None:
    """A seat the phones could not tell from a role (`operator`, `table`) is a `WebError`."""
    from unox.web.seats import check_player_names

    try:
        check_player_names(tuple(players))
    except ValueError as exc:
        raise WebError(str(exc)) from exc


def open_gate(options: WebOptions, players: Any) -> Gate:
    """Check the seats' names (`None`: not known yet) and the PINs, then bind the socket: a `WebError`
    names what to change."""
    if players is not None:
        check_names(players)
    pin = choose_pin(options)
    operator_pin = choose_pin(options, "--operator-pin")
    if operator_pin is not None and operator_pin == pin:
        raise WebError("--operator-pin must differ from --pin: the player PIN may not open the "
                       "operator's seat")
    sock = bind(options.host, options.port)
    return Gate(options, pin, operator_pin, sock, public_url(options.host, sock.getsockname()[1]),
                players_unchecked=players is None)


class WebServer:
    """A uvicorn server over one table, with the button loop when it owns the launcher."""

    def __init__(self, table: Any, options: WebOptions, *, launcher: Any = None, button_loop: bool = False,
                 fire_lock: Any = None, gate: Gate | None = None, night: Any = None):
        from unox.web.device import ButtonLoop, sim_hopper_sync
        from unox.web.editions import own_request_cmds
        from unox.web.hub import Hub
        from unox.web.server import build_app

        gate = open_gate(options, table.players) if gate is None else gate
        self.pin, self.operator_pin = gate.pin, gate.operator_pin
        self.options = options
        self.sock = gate.sock
        self.url = gate.url
        # a night keeps the simulated hopper itself (`Night.sync_hopper`)
        sync = sim_hopper_sync(launcher) if launcher is not None and night is None else None
        self.hub = Hub(table, after_change=sync, fire_lock=fire_lock, night=night)
        self.seats = Seats(tuple(table.players), self.pin, self.operator_pin, read_only=options.read_only,
                           own_cmds=own_request_cmds(table))
        self.button = ButtonLoop(self.hub, launcher) if launcher is not None and button_loop else None
        hooks = [quiet_out_of_files, *([self.button.start] if self.button is not None else [])]
        # the table's own launcher decides: another front end may own it (`unox demo --web`)
        attached = launcher is not None or getattr(table, "launcher", None) is not None
        # a phone presses for its player wherever a launcher is attached to this server: the host fires
        presses = "host" if launcher is not None else "button" if attached else "count"
        app = build_app(self.hub, self.seats, presses=presses, on_startup=hooks, join_url=self.url)
        self.server = _uvicorn_server(app, options.allow_hosts, self.seats, self.sock)
        self.thread: threading.Thread | None = None

    def run(self) -> None:
        """Serve until Ctrl-C (or `stop()`)."""
        try:
            self.server.run(sockets=[self.sock])
        finally:
            if self.button is not None:
                self.button.stop()
                self.button.join(timeout=5)
            self.sock.close()

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=5)


def quiet_out_of_files() -> None:
    """On the server's loop: running out of files is one log line a minute, not a traceback per accept."""
    import asyncio

    from unox.web.guard import OutOfFiles

    asyncio.get_running_loop().set_exception_handler(OutOfFiles())


def _uvicorn_server(app: Any, allow_hosts: tuple[str, ...] = (), seats: Seats | None = None,
                    sock: Any = None) -> Any:
    """uvicorn behind the guard; `seats` where WebSockets are served (the standings page has none), `sock`
    the bound socket whose accepts the guard may refuse."""
    import logging

    import uvicorn

    from unox.web.guard import Book, Limits, QuietRepeats, file_limit, guarded_protocols
    from unox.web.origin import HostAndOrigin, host_names
    from unox.web.server import COOKIE, socket_vet

    gate = HostAndOrigin(app, host_names(allow_hosts), COOKIE)
    # a handshake's Host, Origin and token are checked before it takes one of the WebSockets' slots
    book = Book(Limits.for_files(file_limit()), vet=socket_vet(gate, seats) if seats is not None else None)
    if sock is not None:
        sock.refuse = book.over_allowance  # a flood's connections are reset as they are accepted
    http, ws = guarded_protocols(book)
    for name in ("uvicorn.error", "unox.web.server"):  # a flood of one event is one line a minute
        logging.getLogger(name).addFilter(QuietRepeats())
    # wsproto: pure Python over h11, which uvicorn needs anyway; lighter than `websockets` on a Pi Zero.
    # No proxy sits in front: X-Forwarded-For is never trusted, the peer's own address is the address.
    config = uvicorn.Config(gate, http=http, ws=ws,
                            ws_max_size=MAX_MESSAGE, lifespan="on", log_level="warning", access_log=False,
                            timeout_graceful_shutdown=2, proxy_headers=False, server_header=False)
    return uvicorn.Server(config)


def serve(table: Any, options: WebOptions, *, launcher: Any = None, out: IO[str] | None = None,
          lines: list[str] | None = None, gate: Gate | None = None, night: Any = None) -> int:
    """`unox serve`: the web server in the foreground, the button loop behind it; 0 after Ctrl-C.

    `lines` (what opening the table said: the journal's path, a resume) go to this console only; the phones'
    log starts from the journal's own history."""
    out = sys.stdout if out is None else out  # read at the call: a test may have swapped it
    server = WebServer(table, options, launcher=launcher, button_loop=True, gate=gate, night=night)
    announce(server.url, server.pin, out, server.operator_pin)
    for line in lines or []:
        print(line, file=out, flush=True)
    table.listeners.append(lambda line: print(line, file=out, flush=True))  # a transcript of the game
    server.run()
    return 0


def start_in_thread(table: Any, options: WebOptions, *, out: IO[str] | None = None,
                    launcher: Any = None, fire_lock: Any = None, gate: Gate | None = None) -> WebServer:
    """The web server beside another front end that owns the launcher's button (and takes `fire_lock`
    for each talk with it); `.stop()` ends it."""
    out = sys.stdout if out is None else out  # read at the call: a test may have swapped it
    server = WebServer(table, options, launcher=launcher, button_loop=False, fire_lock=fire_lock,
                       gate=gate)
    announce(server.url, server.pin, out, server.operator_pin)
    server.thread = threading.Thread(target=server.run, name="unox-web", daemon=True)
    server.thread.start()
    return server


def serve_watching(table: Any, options: WebOptions, step: Callable[[], bool], *, pace: float,
                   out: IO[str] | None = None, gate: Gate | None = None) -> int:
    """`unox demo --web`: bots move every `pace` seconds in a thread; the page shows it read-only."""
    out = sys.stdout if out is None else out  # read at the call: a test may have swapped it
    import logging

    server = WebServer(table, options, gate=gate)
    announce(server.url, server.pin, out, server.operator_pin)
    stopping = threading.Event()

    def play() -> None:
        try:
            while not stopping.wait(pace) and step():
                pass
        except Exception:  # a refused bot move is a bug: say so where the server runs, keep showing
            logging.getLogger(__name__).exception("the demo stopped")

    threading.Thread(target=play, name="unox-demo-bots", daemon=True).start()
    try:
        server.run()
    finally:
        stopping.set()
    return 0
