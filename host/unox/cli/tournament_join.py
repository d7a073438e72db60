"""`--tournament mqtt://[USER:PASS@]HOST[:PORT]/NAME --table N`: a table joins a tournament.

The options are added to `unox table` here, in one place; the table learns its seats from the
coordinator, round by round, plays its hands and sends each hand's result.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.numbers import int_in
from unox.cli.table_options import MAX_SEED, whole_number

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `--help` stays fast
if TYPE_CHECKING:
    from unox.tournament.address import BrokerAddress
    from unox.tournament.journal import ResultsJournal
    from unox.tournament.seat import TableSeat

MAX_TABLES = 20  # unox.tournament.schedule.MAX_PLAYERS // 4 (tests/tournament checks they agree)
CONNECT_WAIT_S = 10.0  # then the table says it is waiting, and paho goes on trying
BOTS = ("heuristic", "random")


def add_tournament_options(parser: argparse.ArgumentParser, *, bots: bool = True) -> None:
    group = parser.add_argument_group("tournament (docs/tournament.md)")
    group.add_argument("--tournament", metavar="URL",
                       help="join a tournament: mqtt://[USER:PASS@]HOST[:PORT]/NAME")
    group.add_argument("--table", metavar="N", type=int_in(1, MAX_TABLES),
                       help=f"this table's number in the tournament, 1 to {MAX_TABLES}")
    if not bots:
        return
    group.add_argument("--bots", choices=BOTS,
                       help="bots play every hand (a demo, or a test of the club's setup); without it people "
                       "play each round over the table protocol")


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


@contextmanager
def joined_seat(args: argparse.Namespace) -> Iterator[tuple[TableSeat, Path]]:
    """The table's seat in the tournament and its results journal (checked to be this table's), for `unox
    table`, `play` and `serve`; closed after, and a refused login is one clear error."""
    from unox.tournament.journal import JournalError, ResultsJournal
    from unox.tournament.link import LinkError
    from unox.tournament.seat import TableSeat

    address, number = checked_options(args)
    path = args.journal or default_journal(address.name, number)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        journal = ResultsJournal(path)
    except JournalError as exc:
        raise CommandError(str(exc)) from exc
    except OSError as exc:
        raise CommandError(f"cannot make {path.parent}: {exc.strerror or exc}; give --journal a file in a "
                           "folder you can write") from exc
    try:
        _check_same_table(journal, address.name, number)
        seat = TableSeat(address, number, journal).start()
        try:
            yield seat, path
        except LinkError as exc:
            raise CommandError(str(exc)) from exc
        finally:
            seat.stop()
    finally:
        journal.close()


def run_table(args: argparse.Namespace) -> int:
    """`unox table --tournament URL --table N --bots NAME`: play every hand of this table's rounds."""
    from unox.tournament.bot_table import play_table

    seed = whole_number("--seed", args.seed, 0, MAX_SEED)
    with joined_seat(args) as (seat, path):
        address, number = seat.address, seat.number
        say = _say if args.bots else _tell  # people use stdout for the table protocol
        say(f"table {number} of {address.name}: results journal {path}")
        if not seat.link.wait_connected(CONNECT_WAIT_S):
            say(f"waiting for the broker at {address.host}:{address.port} (the table keeps trying)")
        if args.bots is None:
            _serve_people(seat, args, path, seed)
            return 0
        played = play_table(seat, bot=args.bots, seed=seed or 0, say=_say)
        _say(f"table {number}: every result is in ({played} hands played now)")
    return 0


def _serve_people(seat: TableSeat, args: argparse.Namespace, results: Path, seed: int | None) -> None:
    """The table protocol on stdin/stdout, one table per round (each with its own journal beside
    `results`, so a crash resumes in the middle of a hand)."""
    from unox.cli.commands.table import _open_launcher
    from unox.table.journal import Journal, JournalError
    from unox.table.runtime import Table
    from unox.table.settings import SettingsError, TableSettings
    from unox.tournament.bot_table import NO_TARGET
    from unox.tournament.rounds import serve_rounds

    plan = seat.wait_plan()

    def open_table(round_no: int, seated: list[str]) -> Table:
        journal = Journal(results.with_name(f"{results.stem}.round{round_no}.db"))
        try:
            if len(journal):
                return Table.resume(journal, launcher=_open_launcher(str(journal.settings["launcher"]), args))
            settings = TableSettings(players=tuple(seated), rules=plan.rules, variant="partners",
                                     target=NO_TARGET, profile=args.profile or "measured", seed=seed,
                                     launcher=args.launcher or "script")
            return Table.create(settings, launcher=_open_launcher(settings.launcher, args), journal=journal)
        except (JournalError, SettingsError) as exc:
            journal.close()
            raise CommandError(str(exc)) from exc
        except BaseException:
            journal.close()
            raise

    done = serve_rounds(seat, iter(sys.stdin.buffer.readline, b""), sys.stdout, open_table, _tell)
    _tell(f"table {seat.number}: " + ("every result is in" if done else
                                      "the input ended; continue with the same command and --journal"))


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


def _tell(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
