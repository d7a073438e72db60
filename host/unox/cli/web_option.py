"""--host, --port and --pin, and the web attachments: `unox serve`, `unox play --web`, `unox demo --web`.

The web front end is attached to a night here, so no command module imports another command's module.
"""

from __future__ import annotations

import argparse
from typing import Any

from unox.cli.errors import CommandError
from unox.cli.numbers import int_in


def add_web_options(parser: argparse.ArgumentParser) -> None:
    """--host, --port and --pin: `unox serve`, `unox play --web` and `unox demo --web` take them."""
    parser.add_argument("--host", help="address to listen on (default 0.0.0.0: the LAN)")
    parser.add_argument("--port", type=int_in(0, 65535),
                        help="port to listen on, 0 to 65535 (default 8765; 0: any free port)")
    parser.add_argument("--pin", help='the PIN players type to join (default: 6 random digits; "" for none, '
                        "loopback only)")
    parser.add_argument("--operator-pin", help="the PIN that opens the operator's seat; the player PIN never "
                        'does (default: 6 random digits, printed here only; "" for none, loopback only)')
    parser.add_argument("--allow-host", action="append", metavar="NAME",
                        help="a name phones may reach this server under besides its addresses and its .local "
                        "name (repeat for more); any other Host is refused")


HOST, PORT = "0.0.0.0", 8765  # the defaults; the options default to None, so a given one can be told apart
WEB_OPTIONS = ("host", "port", "pin", "operator_pin", "allow_host")  # what `--web` needs in play and demo


def given_web_options(args: argparse.Namespace) -> list[str]:
    """The web options typed on the command line (`--port 8765` too): without `--web` they are refused."""
    return [f"--{name.replace('_', '-')}" for name in WEB_OPTIONS if getattr(args, name, None) is not None]


def web_options(args: argparse.Namespace, *, read_only: bool = False) -> Any:
    from unox.web.launch import WebOptions

    host = HOST if args.host is None else args.host
    port = PORT if args.port is None else args.port
    return WebOptions(host=host, port=port, pin=args.pin, read_only=read_only,
                      operator_pin=args.operator_pin, allow_hosts=tuple(args.allow_host or ()))


def start_beside(session: Any, args: argparse.Namespace, gate: Any = None) -> Any:
    """`unox play --web`: the web server beside the terminal UI on the same table; returns `stop()`.

    Two peers over one table runtime: the terminal UI keeps the launcher's button and takes in what the
    phones do with its own bookkeeping (dealer rotation, reload advice); a phone plays, calls UNO, catches
    and presses for its player (the host fires, in the UI's launcher lock). The address and PINs also go
    to the UI's log, since the UI covers the terminal they were printed on."""
    from unox.web.launch import WebError, start_in_thread

    try:
        server = start_in_thread(session.table, web_options(args), launcher=session.launcher,
                                 fire_lock=session.launcher_lock, gate=gate)
    except WebError as exc:
        raise CommandError(str(exc)) from exc
    session.emit(f"Phones: open {server.url} and type the PIN {server.pin or '(none)'}; "
                 f"the operator's PIN is {server.operator_pin or '(none)'}.")
    session.watch_others()
    return server.stop


WATCH_PACE_S = 0.8  # `unox demo --web`: at least this long between bot moves, so eyes can follow


def serve_demo(session: Any, step: Any, args: argparse.Namespace, gate: Any = None) -> int:
    """`unox demo --web`: the bot game on the page, read-only, until Ctrl-C; on `gate`, the socket the
    assembly bound before the night opened."""
    from unox.web.launch import WebError, serve_watching

    try:
        return serve_watching(session.table, web_options(args, read_only=True), step,
                              pace=max(args.pace or 0.0, WATCH_PACE_S), gate=gate)
    except WebError as exc:
        raise CommandError(str(exc)) from exc
    except KeyboardInterrupt:
        return 0


def detach_script(session: Any) -> Any:
    """The launcher the server fires, or None for `--launcher script`: phones then say what came out."""
    from unox.launcher.script import ScriptLauncher

    if isinstance(session.launcher, ScriptLauncher):
        session.launcher.close()
        session.table.launcher = None
        session.launcher, session.ctx.launcher = None, False  # the night fires nothing either
        return None
    return session.launcher
