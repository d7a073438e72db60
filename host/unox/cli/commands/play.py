"""`unox play`: run a physical table with a real (or simulated) launcher, in the table UI or in plain text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from unox.cli.mqtt_option import add_mqtt_option
from unox.cli.night import NEWEST
from unox.cli.table_options import add_table_options
from unox.cli.tournament_option import add_tournament_options
from unox.cli.web_option import add_web_options

EXAMPLE = """examples:
  unox play --players Ann,Bob,Cy,Dee --launcher serial:/dev/unox-launcher
                                               journalled to ~/.local/state/unox/tables/ by default
  unox play --list                             the tables kept there: players, last change, finished?
  unox play --continue                         pick up the newest game dealt and not over
  unox play --resume game.db                   after a crash or a power cut: the same table, same state
  unox play --continue table.db --players Ann,Bob,Cy   the game in table.db if it goes on, else a new one
  unox play --players Ann,Bob --launcher sim --plain    type lines (R5, press, uno Bob, undo, help)
  unox play --players Ann,Bob,Cy --rules classic        another edition: its cards; draw Bob, pass Bob"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="run a physical table: turns, presses owed, UNO calls and scores, with the launcher",
        description="Keep a real table: the rules attribute each launcher press, the host fires the "
        "eject profile, and the screen says who must do what next.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_table_options(
        parser,
        launcher_help="sim (default), serial:PORT or gpio",
        journal_help="SQLite journal of every accepted event (default: a new file under "
        "$XDG_STATE_HOME/unox/tables, else ~/.local/state/unox/tables; see --list and --no-journal)",
    )
    parser.add_argument(
        "--continue",
        dest="continue_path",
        type=Path,
        nargs="?",
        const=NEWEST,
        metavar="FILE",
        help="resume the game FILE holds (no FILE: the newest game kept that was dealt and is not over, see "
        "--list); if there is none or it is over (kept as FILE.N.done), start a new table on the other "
        "options, journalled to FILE",
    )
    parser.add_argument("--no-journal", action="store_true",
                        help="keep no journal (by default every table is journalled under "
                        "$XDG_STATE_HOME/unox/tables, else ~/.local/state/unox/tables)")
    parser.add_argument("--list", action="store_true",
                        help="list the tables kept there (players, last change, finished or not) and exit")
    parser.add_argument("--plain", action="store_true",
                        help="plain text: read lines on stdin, print events (the default off a terminal)")
    parser.add_argument("--web", action="store_true", help="also serve the table to phones (see unox serve)")
    add_web_options(parser)
    add_mqtt_option(parser)
    add_tournament_options(parser, bots=False)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A preset of the one assembly (`unox.cli.assemble`): the TUI or `--plain`, phones with `--web`."""
    if args.list:
        _refuse_beside_list(args)
        return _list()
    from unox.cli.assemble import attach, check, open_night

    setup = check("play", args)  # every refusal: nothing is written before it passes
    try:
        if setup.tournament is not None:  # docs/tournament.md: one table per round, each hand sent as scored
            from unox.cli.tournament_option import run_play

            return run_play(setup)
        from unox.ui.session import Session

        session = open_night(setup, Session)
        try:
            attach(setup, session)  # --mqtt: Home Assistant (docs/install.md)
            if setup.web is not None:
                from unox.cli.web_option import start_beside

                gate, setup.gate = setup.gate, None  # the server takes the bound socket
                setup.stops.append(start_beside(session, args, gate=gate))
            if setup.front == "plain":
                from unox.ui.plain import polled_lines, run_plain, typed_lines

                lines = typed_lines(sys.stdin) if session.ctx.sim else polled_lines(sys.stdin, session)
                for line in session.log:  # what happened while opening: resumed, a finished game kept aside
                    print(line)
                return run_plain(session, lines, sys.stdout)
            from unox.ui.app import run_app

            # The sim's virtual time flows with the wall clock here: 50 ms per 50 ms poll.
            return run_app(session, poll_interval=0.05, poll_wait=0.05 if session.ctx.sim else 0.0)
        finally:
            setup.close()  # the phones, then Home Assistant
            session.close()  # after any launcher call still running on a worker thread
    finally:
        setup.close()


def _refuse_beside_list(args: argparse.Namespace) -> None:
    """`--list` lists and exits: another option beside it would be silently ignored, so it is refused."""
    from unox.cli.errors import UsageError

    given = [f"--{name.replace('_', '-')}" for name, value in vars(args).items()
             if name not in ("list", "command", "func", "_parser") and value not in (None, False)]
    given = ["--continue" if name == "--continue-path" else name for name in given]
    if given:
        raise UsageError(f"--list lists the tables kept and exits; leave out {' and '.join(given)}")


def _list() -> int:
    """The tables folder, then the tournament tables kept on this machine (each with the command that
    rejoins its tournament: `--continue` does not take them)."""
    from unox.table.saved import saved_tables, tables_dir
    from unox.tournament.kept import folder, kept_tables

    tables = saved_tables()
    if not tables:
        print(f"No tables kept in {tables_dir()} yet; `unox play --players Ann,Bob,Cy` starts one.")
    else:
        print("Tables kept here, newest first (`unox play --continue FILE` picks one up):")
        print(f"  {tables_dir()}")
        for saved in tables:
            print(saved.line())
    rounds = kept_tables()
    if rounds:
        print("Tournament tables, newest first (each rejoins with the command shown):")
        print(f"  {folder()}")
        for kept in rounds:
            print("\n".join(kept.lines()))
    return 0
