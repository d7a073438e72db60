"""`unox journal check|repair FILE`: what a table's journal holds; set aside rows that do not replay."""

from __future__ import annotations

import argparse
from pathlib import Path

from unox.cli.errors import CommandError
from unox.words import counted

EXAMPLE = """examples:
  unox journal check game.db     every row replays? (read only; works beside a running table)
  unox journal repair game.db    rows that do not replay are set aside; a backup game.db.bak is kept;
                                 a damaged file: what SQLite can still read goes into game.repaired.db"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "journal",
        help="check a table's journal, or repair one whose rows do not replay",
        description="Look at the SQLite journal of `unox table --journal` / `unox play --journal`.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="journal_command", metavar="WHAT", required=True)
    check = sub.add_parser("check", help="replay the journal and list every row that does not replay")
    check.add_argument("file", type=Path, metavar="FILE")
    check.set_defaults(func=run_check)
    repair = sub.add_parser(
        "repair",
        help="set aside the rows that do not replay (into the journal's dropped table), after a backup",
    )
    repair.add_argument("file", type=Path, metavar="FILE")
    repair.set_defaults(func=run_repair)


def run_check(args: argparse.Namespace) -> int:
    from unox.table.journal import JournalError
    from unox.table.journal_tools import check

    try:
        report = check(args.file)
    except JournalError as exc:
        raise CommandError(str(exc)) from exc
    print("\n".join(report.lines()))
    return 1 if report.bad else 0


def run_repair(args: argparse.Namespace) -> int:
    from unox.table.journal import JournalError
    from unox.table.journal_salvage import Salvage
    from unox.table.journal_tools import repair

    try:
        report = repair(args.file)
    except JournalError as exc:
        raise CommandError(str(exc)) from exc
    if isinstance(report, Salvage):
        return _salvaged(report)
    if report.backup is None:
        print(f"{args.file}: every row replays; nothing to repair")
        return 0
    print(
        f"{args.file}: set aside {counted(len(report.bad), 'row')} that did not replay into the journal's "
        "dropped table; "
        f"the file as it was is backed up at {report.backup}"
    )
    for row in report.bad:
        print(f"  set aside: {row.describe()}")
    replay = counted(report.replayed, "request replays", "requests replay")
    print(f"now: {replay}, phase {report.phase}; resume with --resume {args.file}")
    return 0


def _salvaged(salvage) -> int:
    """A damaged file: what was saved where, then what the new file holds (it replays, or what does not)."""
    from unox.table.journal import JournalError
    from unox.table.journal_tools import check

    counts = ", ".join(f"{name} {count}" for name, count in salvage.saved.items())
    print(
        f"{salvage.source} is damaged: saved the {counted(salvage.rows, 'row')} SQLite could still read "
        f"({counts}) into {salvage.target}; {salvage.source} is kept as it was"
    )
    try:
        report = check(salvage.target)
    except JournalError as exc:
        print(f"  the new file cannot be resumed: {exc}")
        return 1
    print("\n".join(report.lines()))
    if report.bad:
        print(f"set the rows that do not replay aside with: unox journal repair {salvage.target}")
        return 1
    print(f"resume with --resume {salvage.target}")
    return 0
