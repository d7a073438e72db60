"""`unox play`: run a physical table with a real (or simulated) launcher, in the table UI or in plain text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from unox.cli.errors import CommandError
from unox.cli.table_options import add_table_options, check_resume_args, launcher_config, settings_from_args
from unox.table.settings import SettingsError

EXAMPLE = """examples:
  unox play --players Ann,Bob,Cy,Dee --launcher serial:/dev/unox-launcher --journal game.db
  unox play --resume game.db                   after a crash or a power cut: the same table, same state
  unox play --continue table.db --players Ann,Bob,Cy   the game in table.db if it goes on, else a new one
  unox play --players Ann,Bob --launcher sim --plain    type lines (R5, press, uno Bob, undo, help)"""

if TYPE_CHECKING:
    from unox.ui.session import Session

def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="run a physical table: turns, presses owed, UNO calls and scores, with the launcher",
        description="Keep a real table: the rules attribute each launcher press, the host fires the "
        "eject profile, and the screen says who must do what next.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_table_options(parser, launcher_help="sim (default), serial:PORT or gpio")
    parser.add_argument(
        "--continue",
        dest="continue_path",
        type=Path,
        metavar="FILE",
        help="resume the game FILE holds; if there is none or it is over (kept as FILE.N.done), start a "
        "new table on the other options, journalled to FILE",
    )
    parser.add_argument("--plain", action="store_true", help="plain text: read lines on stdin, print events")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.rules not in (None, "extreme"):
        # The typed commands and the screen know Extreme's cards only, so far (issue 10 brings the others).
        raise CommandError(f"unox play speaks UNO Extreme only so far; play --rules {args.rules} with "
                           f"`unox table --rules {args.rules}` (JSON lines) or watch `unox demo --rules "
                           f"{args.rules}`")
    if args.continue_path is not None:
        session = _continue(args)
    elif args.resume is not None:
        session = _resume(args)
    else:
        session = _create(args)
    try:
        if args.plain:
            from unox.ui.plain import polled_lines, run_plain

            lines = sys.stdin if session.ctx.sim else polled_lines(sys.stdin, session)
            for line in session.log:  # what happened while opening: resumed, a finished game kept aside
                print(line)
            return run_plain(session, lines, sys.stdout)
        from unox.ui.app import run_app

        # The sim's virtual time flows with the wall clock here: 50 ms per 50 ms poll.
        return run_app(session, poll_interval=0.05, poll_wait=0.05 if session.ctx.sim else 0.0)
    finally:
        session.table.close()


def _create(args: argparse.Namespace) -> Session:
    from unox.launcher import LauncherError
    from unox.table.journal import JournalError
    from unox.ui.tables import open_play_session

    settings = settings_from_args(args, default_launcher="sim")
    try:
        return open_play_session(settings, journal=args.journal, config=launcher_config(args))
    except (SettingsError, LauncherError, JournalError) as exc:
        raise CommandError(str(exc)) from exc


def _resume(args: argparse.Namespace) -> Session:
    from unox.launcher import LauncherError
    from unox.table.journal import JournalError
    from unox.ui.tables import resume_play_session

    path = check_resume_args(args)
    try:
        return resume_play_session(path, launcher=args.launcher, config=launcher_config(args))
    except (SettingsError, LauncherError, JournalError) as exc:
        raise CommandError(str(exc)) from exc


def _continue(args: argparse.Namespace) -> Session:
    from unox.launcher import LauncherError
    from unox.table.journal import JournalError
    from unox.ui.tables import continue_play_session

    clash = [f"--{name}" for name in ("journal", "resume") if getattr(args, name) is not None]
    if clash:
        raise CommandError(f"give one of --journal, --resume or --continue, not {' and '.join(clash)} too")
    # The new-table options only matter when a new table starts; a game in progress keeps its own.
    settings = settings_from_args(args, default_launcher="sim") if args.players else None
    try:
        return continue_play_session(
            args.continue_path, settings, launcher=args.launcher, config=launcher_config(args)
        )
    except (SettingsError, LauncherError, JournalError) as exc:
        raise CommandError(str(exc)) from exc
