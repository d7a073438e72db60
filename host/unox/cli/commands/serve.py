"""`unox serve`: the table on every player's phone: a web page and its API over one table runtime."""

from __future__ import annotations

import argparse
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.mqtt_option import add_mqtt_option
from unox.cli.tournament_option import add_tournament_options
from unox.cli.web_option import add_web_options, detach_script

EXAMPLE = """examples:
  unox serve --players Ann,Bob,Cy --launcher serial:/dev/unox-launcher --journal game.db
  unox serve --resume game.db --pin 246813     after a restart: every phone comes back to the table
  unox serve --players Ann,Bob --host 127.0.0.1 --pin ""   this machine only, no PIN
Each phone opens the printed URL (or scans the QR code), types the PIN and takes a seat: a player, the
operator or the table view. The API is documented in docs/web.md."""


def register(subparsers: argparse._SubParsersAction) -> None:
    from unox.cli.table_options import add_table_options

    parser = subparsers.add_parser(
        "serve",
        help="serve the table to phones: each player sees it and enters their own plays",
        description="Run a physical table with a web page for every phone, a table view for a tablet or "
        "TV and an operator page, over an HTTP + WebSocket API.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_table_options(parser, launcher_help="sim (default), script (phones say what came out), "
                      "serial:PORT or gpio")
    parser.add_argument(
        "--continue", dest="continue_path", type=Path, metavar="FILE",
        help="resume the game FILE holds; if there is none or it is over, start a new table journalled "
        "to FILE",
    )
    parser.add_argument("--no-journal", action="store_true",
                        help="keep no journal (by default the table is journalled where `unox play --list` "
                        "finds it: $XDG_STATE_HOME/unox/tables, else ~/.local/state/unox/tables)")
    add_web_options(parser)
    add_mqtt_option(parser)
    add_tournament_options(parser, bots=False)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A preset of the one assembly (`unox.cli.assemble`): the phones, the web server in the foreground."""
    from unox.cli.assemble import attach, check, open_night
    from unox.web.launch import WebError, serve

    setup = check("serve", args)  # the PINs, the names, the port bound: nothing is written before
    try:
        if setup.tournament is not None:  # docs/tournament.md: one table per round on the phones
            from unox.cli.tournament_option import run_serve

            return run_serve(setup)
        session = open_night(setup)
        try:
            attach(setup, session)  # --mqtt: Home Assistant (docs/install.md)
            table, launcher = session.table, detach_script(session)
            gate, setup.gate = setup.gate, None  # the server takes the bound socket
            return serve(table, setup.web, launcher=launcher, lines=session.log, gate=gate, night=session)
        except WebError as exc:
            raise CommandError(str(exc)) from exc
        except KeyboardInterrupt:
            return 0
        finally:
            setup.close()
            session.table.close()
    finally:
        setup.close()
