"""A table joins a tournament: its results journal (one table of one tournament) and its seat, started.

`unox table`, `unox play` and `unox serve` with `--tournament URL --table N` all join here; the CLI only
checks the options. A refusal is a `TournamentError` (or the journal's or the link's own error), one line.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the CLI reads MAX_TABLES cheaply
if TYPE_CHECKING:
    from unox.tournament.address import BrokerAddress
    from unox.tournament.journal import ResultsJournal
    from unox.tournament.seat import TableSeat

MAX_TABLES = 20  # unox.tournament.schedule.MAX_PLAYERS // 4 (tests/tournament checks they agree)
CONNECT_WAIT_S = 10.0  # then the table says it is waiting, and paho goes on trying
BOTS = ("heuristic", "random")


class TournamentError(Exception):
    """A tournament start or round that cannot go on; the message says what to do."""


def default_journal(name: str, table: int, tournament: str) -> Path:
    """`$XDG_STATE_HOME/unox/tournaments/NAME-ID-tableN.db`: one file per tournament id, so next week's table
    under the same name starts a new one by itself."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "unox" / "tournaments" / f"{name}-{tournament}-table{table}.db"


@contextmanager
def joined_seat(address: BrokerAddress, number: int, given: Path | None, *,
                say: Callable[[str], None] | None = None,
                accepted: Callable[[], None] | None = None,
                pick_up: dict | None = None) -> Iterator[tuple[TableSeat, Path]]:
    """The table's seat in the tournament open now under the address's name, and its results journal (the
    `given` one, checked to be this table's of this tournament, or the default); stopped and closed after.

    The broker is asked first (which tournament is open under the name, and whether it has this table), so
    nothing is written before it accepted us; an existing journal is checked before that. `accepted` runs
    once every check has passed and before anything is written (the CLI checks Home Assistant's login
    there, which may still refuse the start; its bridge starts once the first round's table opened).
    `pick_up` (the command that rejoins, `unox.tournament.kept.pick_up`) is kept in the journal for
    `unox play --list`."""
    from unox.tournament.seat import PICK_UP_KEY, TableSeat, bind, bound_id, check_journal, discover

    journal = None
    try:
        if given is not None and given.exists():
            journal = _open(given)  # an existing one: checked before any broker is asked
            check_journal(journal, address.name, number)
        else:
            _check_folder(given)
        plan = discover(address, number, known=None if journal is None else bound_id(journal), say=say)
        if accepted is not None:
            accepted()
        path = given or default_journal(address.name, number, plan.tournament)
        if journal is None:
            journal = _open(path)
        bind(journal, address.name, number, plan.tournament)
        if pick_up is not None:
            journal.set(PICK_UP_KEY, pick_up)
        seat = TableSeat(address, number, journal, say=say).start()
        try:
            yield seat, path
        finally:
            seat.stop()
    finally:
        if journal is not None:
            journal.close()


def _open(path: Path) -> ResultsJournal:
    from unox.tournament.journal import ResultsJournal

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TournamentError(f"cannot make {path.parent}: {exc.strerror or exc}; give --journal a file in a "
                              "folder you can write") from exc
    return ResultsJournal(path)


def _check_folder(path: Path | None) -> None:
    """A --journal whose folder cannot be made is said before the broker is asked (nothing made yet)."""
    if path is None:
        return
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise TournamentError(f"cannot make {path.parent}: {folder} is not a folder; give --journal a file "
                              "in a folder you can write")


def refused_line(seat: TableSeat) -> str | None:
    """The table's last word when the coordinator refused some of its results (not "every result is in")."""
    refused = seat.refused()
    if not refused:
        return None
    ids = ", ".join(list(refused)[:8])
    return (f"table {seat.number}: the coordinator refused {len(refused)} result"
            f"{'s' if len(refused) > 1 else ''} ({ids}), not counted; write them down for the organiser")


def round_journal(results: Path, round_no: int) -> Path:
    """Each round's table journal, beside the results journal: a table stopped mid-hand continues."""
    return results.with_name(f"{results.stem}.round{round_no}.db")
