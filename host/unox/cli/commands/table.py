"""`unox table --protocol jsonl`: run one table over the JSON-lines table protocol v1 on stdin/stdout."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.table_options import (
    add_table_options,
    check_resume_args,
    open_table_launcher,
    settings_from_args,
)
from unox.cli.tournament_option import add_tournament_options

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the table's modules load on use
if TYPE_CHECKING:
    from unox.table.journal import Journal
    from unox.table.runtime import Table

EXAMPLE = """example:
  $ unox table --players Ann,Bob,Cy --journal game.db
  {"cmd":"deal","dealer":"Ann"}
  {"ok":true,"state":{"phase":"flip",...}}
  then, after a crash:  unox table --resume game.db
The requests and replies are described in docs/table-protocol.md."""

def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "table",
        help="run a table over the JSON-lines table protocol v1 (stdin/stdout)",
        description="Read one JSON request per line on stdin and answer each with one JSON line\n"
        "on stdout.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--protocol", choices=["jsonl"], default="jsonl", help="wire format (only jsonl)")
    add_table_options(
        parser,
        launcher_help="script (default: each press says how many cards came out), sim, serial:PORT or gpio",
    )
    add_tournament_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A preset of the one assembly's checks (`unox.cli.assemble`): the table protocol on stdin/stdout."""
    from unox.cli.assemble import check
    from unox.table.jsonl import serve

    check("table", args)  # the option pairs refused before anything is written
    if args.tournament is not None:
        from unox.cli.tournament_option import run_table

        return run_table(args)

    from unox.table.night import Night

    table = _resume(args) if args.resume is not None else _create(args)
    try:
        # The protocol drives the table night, as every front end does: its bookkeeping, its undo limits.
        serve(Night(table), iter(sys.stdin.buffer.readline, b""), sys.stdout)
    finally:
        table.close()
    return 0


def _create(args: argparse.Namespace) -> Table:
    from unox.table.journal import JournalError
    from unox.table.opening import sim_spec
    from unox.table.runtime import Table

    settings = settings_from_args(args, default_launcher="script")
    journal = _open_journal(args.journal) if args.journal is not None else None
    try:
        if journal is not None:
            journal.lock()  # a table already running on this file is refused first, whatever it holds
        if journal is not None and len(journal):
            raise CommandError(
                f"{journal.path} already holds a table; continue it with --resume {journal.path}, "
                "or give a new --journal file"
            )
        # the simulated launcher seeded as `unox play` seeds it: the same board, whichever command resumes
        spec = sim_spec(settings.launcher, seed=settings.seed, cards=None)
        return Table.create(settings, launcher=open_table_launcher(spec, args), journal=journal)
    except JournalError as exc:
        if journal is not None:
            journal.abandon()  # a start that fails leaves the folder as it was
        raise CommandError(str(exc)) from exc
    except CommandError:
        if journal is not None:
            journal.abandon()
        raise


def _resume(args: argparse.Namespace) -> Table:
    from unox.table.journal import JournalError
    from unox.table.opening import sim_spec
    from unox.table.runtime import Table
    from unox.table.settings import SettingsError

    journal = _open_journal(check_resume_args(args))
    try:
        journal.hold()  # before the launcher opens: a table already running on this journal is refused
        if journal.settings is None:  # an empty file holds no table: refused before anything is written
            raise JournalError(f"{journal.path} holds no table; start one with `unox table --journal FILE`")
        journal.lock()  # before the launcher opens: a table already running on this journal is refused
        stored = journal.settings if isinstance(journal.settings, dict) else {}
        spec = args.launcher or str(stored.get("launcher", "script"))
        seed = stored.get("seed") if isinstance(stored.get("seed"), int) else None
        launcher = open_table_launcher(sim_spec(spec, seed=seed, cards=None), args)
        try:  # another board than the journal's is refused, unless --launcher named it
            table = Table.resume(journal, launcher=launcher, accept_launcher=args.launcher is not None)
        except BaseException:
            if launcher is not None:
                launcher.close()
            raise
        if table.rebound is not None:  # stderr: stdout is the protocol's
            print(f"unox: this table now fires launcher board {table.rebound[1]} (it was bound to board "
                  f"{table.rebound[0]}), as --launcher named it", file=sys.stderr)
        return table
    except (JournalError, SettingsError) as exc:
        journal.abandon()
        raise CommandError(str(exc)) from exc


def _open_journal(path: Path) -> Journal:
    from unox.table.journal import Journal, JournalError

    try:
        return Journal(path)
    except JournalError as exc:
        raise CommandError(str(exc)) from exc
