"""`unox play`: run a physical table with a real (or simulated) launcher, in the table UI or in plain text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from unox.cli.errors import CommandError
from unox.table.settings import SCORINGS, SettingsError, TableSettings, parse_players

EXAMPLE = """examples:
  unox play --players Ann,Bob,Cy,Dee --launcher serial:/dev/unox-launcher --journal game.db
  unox play --resume game.db                   after a crash or a power cut: the same table, same state
  unox play --players Ann,Bob --launcher sim --plain    type lines (R5, press, uno Bob, undo, help)"""

if TYPE_CHECKING:
    from unox.session import Session

_NEW_TABLE_ONLY = ("players", "profile", "seed", "scoring", "target", "journal")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="run a physical table: turns, presses owed, UNO calls and scores, with the launcher",
        description="Keep a real table: the rules attribute each launcher press, the host fires the "
        "eject profile, and the screen says who must do what next.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", help="seats clockwise, e.g. Ann,Bob,Cy,Dee (2 to 10)")
    parser.add_argument("--launcher", metavar="SPEC", help="sim (default), serial:PORT or gpio")
    parser.add_argument("--scoring", choices=SCORINGS, help="g1 (default), g2 or g3")
    parser.add_argument("--target", type=int, help="score that ends the game (default 500)")
    parser.add_argument("--profile", help="eject profile (default measured)")
    parser.add_argument("--seed", type=int, help="repeatable eject counts and simulator (default: random)")
    parser.add_argument("--journal", type=Path, metavar="FILE", help="SQLite journal of every accepted event")
    parser.add_argument("--resume", type=Path, metavar="FILE", help="continue the table a journal holds")
    parser.add_argument("--plain", action="store_true", help="plain text: read lines on stdin, print events")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    session = _resume(args) if args.resume is not None else _create(args)
    try:
        if args.plain:
            from unox.ui.plain import polled_lines, run_plain

            lines = sys.stdin if session.ctx.sim else polled_lines(sys.stdin, session)
            return run_plain(session, lines, sys.stdout)
        from unox.ui.app import run_app

        # The sim's virtual time flows with the wall clock here: 50 ms per 50 ms poll.
        return run_app(session, poll_interval=0.05, poll_wait=0.05 if session.ctx.sim else 0.0)
    finally:
        session.table.close()


def _create(args: argparse.Namespace) -> Session:
    from unox.launcher import LauncherError
    from unox.play import open_play_session
    from unox.table.journal import JournalError

    if not args.players:
        raise CommandError("give the seats with --players Ann,Bob,Cy, or continue a table with --resume FILE")
    try:
        settings = TableSettings(
            players=parse_players(args.players),
            scoring=args.scoring or "g1",
            target=500 if args.target is None else args.target,
            profile=_checked_profile(args.profile or "measured"),
            seed=args.seed,
            launcher=args.launcher or "sim",
        )
        return open_play_session(settings, journal=args.journal)
    except (SettingsError, LauncherError, JournalError) as exc:
        raise CommandError(str(exc)) from exc


def _resume(args: argparse.Namespace) -> Session:
    from unox.launcher import LauncherError
    from unox.play import resume_play_session
    from unox.table.journal import JournalError

    given = [f"--{name}" for name in _NEW_TABLE_ONLY if getattr(args, name) is not None]
    if given:
        raise CommandError(
            f"--resume takes the table's settings from the journal; leave out {', '.join(given)} "
            "(only --launcher may change, e.g. a new serial port)"
        )
    if not args.resume.is_file():
        raise CommandError(f"no journal at {args.resume}; give the file written by --journal")
    try:
        return resume_play_session(args.resume, launcher=args.launcher)
    except (SettingsError, LauncherError, JournalError) as exc:
        raise CommandError(str(exc)) from exc


def _checked_profile(name: str) -> str:
    from unox.profiles import ProfileError, get_spec

    try:
        get_spec(name)
    except ProfileError as exc:
        raise CommandError(str(exc)) from exc
    return name
