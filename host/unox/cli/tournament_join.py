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
    group.add_argument("--table", metavar="N",
                       help=f"this table's number in the tournament, 1 to {MAX_TABLES}")
    if not bots:
        return
    group.add_argument("--bots", choices=BOTS,
                       help="bots play every hand (a demo, or a test of the club's setup); without it people "
                       "play each round over the table protocol")


def default_journal(name: str, table: int, tournament: str) -> Path:
    """One file per tournament: next week's table under the same name starts a new one by itself."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "unox" / "tournaments" / f"{name}-{tournament}-table{table}.db"


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
    table`, `play` and `serve`; closed after. The broker is asked first (which tournament is open under
    the name, and whether it has this table): nothing is written before it accepted us, and a refused
    login, a silent broker, a wrong name or table number is one clear error."""
    from unox.tournament.journal import JournalError
    from unox.tournament.link import LinkError
    from unox.tournament.seat import TableSeat, bind, bound_id, check_journal, discover

    address, number = checked_options(args)
    journal = None
    try:
        if args.journal is not None and args.journal.exists():
            journal = _open_journal(args.journal)  # an existing one: checked before any broker is asked
            check_journal(journal, address.name, number)
        else:
            _check_folder(args.journal)
        plan = discover(address, number, known=None if journal is None else bound_id(journal), say=_tell)
        path = args.journal or default_journal(address.name, number, plan.tournament)
        if journal is None:
            journal = _open_journal(path)
        bind(journal, address.name, number, plan.tournament)
        seat = TableSeat(address, number, journal, say=_tell).start()
        try:
            yield seat, path
        finally:
            seat.stop()
    except (LinkError, JournalError) as exc:
        raise CommandError(str(exc)) from exc
    finally:
        if journal is not None:
            journal.close()


def _open_journal(path: Path) -> ResultsJournal:
    from unox.tournament.journal import ResultsJournal

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return ResultsJournal(path)
    except OSError as exc:
        raise CommandError(f"cannot make {path.parent}: {exc.strerror or exc}; give --journal a file in a "
                           "folder you can write") from exc


def _check_folder(path: Path | None) -> None:
    """A --journal whose folder cannot be made is said before the broker is asked (nothing made yet)."""
    if path is None:
        return
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise CommandError(f"cannot make {path.parent}: {folder} is not a folder; give --journal a file in a "
                           "folder you can write")


def run_table(args: argparse.Namespace) -> int:
    """`unox table --tournament URL --table N --bots NAME`: play every hand of this table's rounds."""
    from unox.tournament.bot_table import play_table

    seed = whole_number("--seed", args.seed, 0, MAX_SEED)
    with joined_seat(args) as (seat, path):
        address, number = seat.address, seat.number
        say = _say if args.bots else _tell  # people use stdout for the table protocol
        say(f"table {number} of {address.name} (tournament {seat.tournament}): results journal {path}")
        if not seat.link.wait_connected(CONNECT_WAIT_S):
            say(f"waiting for the broker at {address.host}:{address.port} (the table keeps trying)")
        if args.bots is None:
            _serve_people(seat, args, path, seed)
            return 0
        played = play_table(seat, bot=args.bots, seed=seed or 0, say=_say)
        refused_results(seat)
        _say(f"table {number}: every result is in ({played} hands played now)")
    return 0


def refused_results(seat: TableSeat) -> None:
    """The table's last word is not "every result is in" when the coordinator refused some."""
    refused = seat.refused()
    if refused:
        ids = ", ".join(list(refused)[:8])
        raise CommandError(f"table {seat.number}: the coordinator refused {len(refused)} result"
                           f"{'s' if len(refused) > 1 else ''} ({ids}), not counted; write them down for the "
                           "organiser")


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
    if done:
        refused_results(seat)
    _tell(f"table {seat.number}: " + ("every result is in" if done else
                                      "the input ended; continue with the same command and --journal"))


def _say(text: str) -> None:
    print(text, flush=True)


def _tell(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
