"""`--tournament mqtt://[USER:PASS@]HOST[:PORT]/NAME --table N`: a table joins a tournament.

The options are added to `unox table` here, in one place; the table learns its seats from the
coordinator, round by round, plays its hands and sends each hand's result.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.table_options import MAX_SEED, whole_number

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `--help` stays fast
if TYPE_CHECKING:
    from unox.tournament.address import BrokerAddress
    from unox.tournament.journal import ResultsJournal

MAX_TABLES = 10  # unox.tournament.schedule.MAX_PLAYERS // 4
CONNECT_WAIT_S = 10.0  # then the table says it is waiting, and paho goes on trying
BOTS = ("heuristic", "random")


def add_tournament_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("tournament (docs/tournament.md)")
    group.add_argument("--tournament", metavar="URL",
                       help="join a tournament: mqtt://[USER:PASS@]HOST[:PORT]/NAME")
    group.add_argument("--table", metavar="N",
                       help=f"this table's number in the tournament, 1 to {MAX_TABLES}")
    group.add_argument("--bots", choices=BOTS,
                       help="the seats are bots that play every hand (a demo or a test of the club's setup)")


def default_journal(name: str, table: int) -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "unox" / "tournaments" / f"{name}-table{table}.db"


def checked_options(args: argparse.Namespace) -> tuple[BrokerAddress, int]:
    """The tournament address and table number; the seats come from the schedule, so --players is refused."""
    from unox.tournament.address import AddressError, parse

    if args.table is None:
        raise CommandError("--tournament needs this table's number: add --table N (1 for the first table)")
    table = whole_number("--table", args.table, 1, MAX_TABLES)
    given = [f"--{name}" for name in ("players", "resume", "variant", "rules", "target", "scoring")
             if getattr(args, name, None) is not None]
    if given:
        raise CommandError("the tournament's schedule sets the seats and the rules; "
                           f"leave out {', '.join(given)}")
    try:
        address = parse(args.tournament)
    except AddressError as exc:
        raise CommandError(str(exc)) from exc
    return address, int(table or 0)


def run_table(args: argparse.Namespace) -> int:
    """`unox table --tournament URL --table N --bots NAME`: play every hand of this table's rounds."""
    from unox.tournament.bot_table import play_table
    from unox.tournament.journal import JournalError, ResultsJournal
    from unox.tournament.link import LinkError
    from unox.tournament.seat import TableSeat

    address, number = checked_options(args)
    if args.bots is None:
        raise CommandError("unox table --tournament plays its seats with bots: add --bots heuristic "
                           "(people play a tournament table with unox play; docs/tournament.md)")
    seed = whole_number("--seed", args.seed, 0, MAX_SEED) or 0
    path = args.journal or default_journal(address.name, number)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        journal = ResultsJournal(path)
    except JournalError as exc:
        raise CommandError(str(exc)) from exc
    try:
        _check_same_table(journal, address.name, number)
        seat = TableSeat(address, number, journal).start()
        try:
            _say(f"table {number} of {address.name}: results journal {path}")
            if not seat.link.wait_connected(CONNECT_WAIT_S):
                _say(f"waiting for the broker at {address.host}:{address.port} (the table keeps trying)")
            played = play_table(seat, bot=args.bots, seed=seed, say=_say)
            _say(f"table {number}: every result is in ({played} hands played now)")
        except LinkError as exc:
            raise CommandError(str(exc)) from exc
        finally:
            seat.stop()
    finally:
        journal.close()
    return 0


def _check_same_table(journal: ResultsJournal, name: str, number: int) -> None:
    """A journal keeps one table of one tournament: another's is refused, nothing changed."""
    here = {"tournament": name, "table": number}
    stored = journal.get("tournament/seat")
    if stored is None:
        journal.set("tournament/seat", here)
    elif stored != here:
        raise CommandError(f"{journal.path} is table {stored.get('table')} of {stored.get('tournament')!r}; "
                           "give this table its own --journal file")


def _say(text: str) -> None:
    print(text, flush=True)
    sys.stdout.flush()
