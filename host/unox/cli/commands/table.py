"""`unox table --protocol jsonl`: run one table over the JSON-lines table protocol v1 on stdin/stdout."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from unox.cli.errors import CommandError
from unox.table.journal import Journal, JournalError
from unox.table.jsonl import serve
from unox.table.runtime import Table
from unox.table.settings import SCORINGS, SettingsError, TableSettings, parse_players

EXAMPLE = """example:
  $ unox table --players Ann,Bob,Cy --journal game.db
  {"cmd":"deal","dealer":"Ann"}
  {"ok":true,"state":{"phase":"flip",...}}
  then, after a crash:  unox table --resume game.db
The requests and replies are described in docs/table-protocol.md."""

_NEW_TABLE_ONLY = ("players", "profile", "seed", "scoring", "target", "journal")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "table",
        help="run a table over the JSON-lines table protocol v1 (stdin/stdout)",
        description="Read one JSON request per line on stdin and answer each with one JSON line on stdout.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--protocol", choices=["jsonl"], default="jsonl", help="wire format (only jsonl)")
    parser.add_argument("--players", help="seats clockwise, e.g. Ann,Bob,Cy (2 to 10)")
    parser.add_argument(
        "--launcher",
        help="script (default: each press says how many cards came out), sim, serial:PORT or gpio",
    )
    parser.add_argument("--profile", help="eject profile for a real launcher (default measured)")
    parser.add_argument("--seed", type=int, help="repeatable eject counts (default: OS entropy)")
    parser.add_argument("--scoring", choices=SCORINGS, help="g1 (default), g2 or g3")
    parser.add_argument("--target", type=int, help="score that ends the game (default 500)")
    parser.add_argument(
        "--journal", type=Path, metavar="FILE", help="SQLite journal of every accepted request"
    )
    parser.add_argument("--resume", type=Path, metavar="FILE", help="continue the table a journal holds")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    table = _resume(args) if args.resume is not None else _create(args)
    try:
        serve(table, iter(sys.stdin.buffer.readline, b""), sys.stdout)
    finally:
        table.close()
    return 0


def _create(args: argparse.Namespace) -> Table:
    if not args.players:
        raise CommandError("give the seats with --players Ann,Bob,Cy, or continue a table with --resume FILE")
    try:
        settings = TableSettings(
            players=parse_players(args.players),
            scoring=args.scoring or "g1",
            target=500 if args.target is None else args.target,
            profile=_checked_profile(args.profile or "measured"),
            seed=args.seed,
            launcher=args.launcher or "script",
        )
    except SettingsError as exc:
        raise CommandError(str(exc)) from exc
    journal = _open_journal(args.journal) if args.journal is not None else None
    try:
        if journal is not None and len(journal):
            raise CommandError(
                f"{journal.path} already holds a table; continue it with --resume {journal.path}, "
                "or give a new --journal file"
            )
        return Table.create(settings, launcher=_open_launcher(settings.launcher), journal=journal)
    except CommandError:
        if journal is not None:
            journal.close()
        raise


def _resume(args: argparse.Namespace) -> Table:
    given = [f"--{name}" for name in _NEW_TABLE_ONLY if getattr(args, name) is not None]
    if given:
        raise CommandError(
            f"--resume takes the table's settings from the journal; leave out {', '.join(given)} "
            "(only --launcher may change, e.g. a new serial port)"
        )
    if not args.resume.is_file():
        raise CommandError(f"no journal at {args.resume}; give the file written by --journal")
    journal = _open_journal(args.resume)
    stored = (journal.settings or {}).get("launcher", "script")
    launcher = _open_launcher(args.launcher or stored)
    try:
        return Table.resume(journal, launcher=launcher)
    except (JournalError, SettingsError) as exc:
        raise CommandError(str(exc)) from exc


def _open_journal(path: Path) -> Journal:
    try:
        return Journal(path)
    except JournalError as exc:
        raise CommandError(str(exc)) from exc


def _checked_profile(name: str) -> str:
    from unox.profiles import ProfileError, get_spec

    try:
        get_spec(name)
    except ProfileError as exc:
        raise CommandError(str(exc)) from exc
    return name


def _open_launcher(spec: str) -> Any:
    """None for `script` (presses say what was fired); otherwise the driver that fires for real."""
    from unox.launcher import LauncherError, parse_spec
    from unox.launcher.options import open_checked

    try:
        kind = parse_spec(spec)[0]
        return None if kind == "script" else open_checked(spec)
    except (ValueError, LauncherError) as exc:
        raise CommandError(str(exc)) from exc
