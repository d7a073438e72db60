"""A table joins a tournament: its results journal (one table of one tournament) and its seat, started.

`unox table`, `unox play` and `unox serve` with `--tournament URL --table N` all join here; the CLI only
checks the options. A refusal is a `TournamentError` (or the journal's or the link's own error), one line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
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


def default_journal(name: str, table: int) -> Path:
    """`$XDG_STATE_HOME/unox/tournaments/NAME-tableN.db`: where a table keeps its results by default."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "unox" / "tournaments" / f"{name}-table{table}.db"


@contextmanager
def joined_seat(address: BrokerAddress, number: int, path: Path) -> Iterator[TableSeat]:
    """The table's seat in the tournament, its results journal at `path` checked to be this table's;
    stopped and closed after."""
    from unox.tournament.journal import ResultsJournal
    from unox.tournament.seat import TableSeat

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TournamentError(f"cannot make {path.parent}: {exc.strerror or exc}; give --journal a file in a "
                              "folder you can write") from exc
    journal = ResultsJournal(path)
    try:
        check_same_table(journal, address.name, number)
        seat = TableSeat(address, number, journal).start()
        try:
            yield seat
        finally:
            seat.stop()
    finally:
        journal.close()


def check_same_table(journal: ResultsJournal, name: str, number: int) -> None:
    """A journal keeps one table of one tournament: another's is refused, nothing changed."""
    here = {"tournament": name, "table": number}
    stored = journal.get("tournament/seat")
    if stored is None:
        journal.set("tournament/seat", here)
    elif stored != here:
        whose = f"table {stored.get('table')} of {stored.get('tournament')!r}"
        raise TournamentError(f"{journal.path} is {whose}; give this table its own --journal file")


def round_journal(results: Path, round_no: int) -> Path:
    """Each round's table journal, beside the results journal: a table stopped mid-hand continues."""
    return results.with_name(f"{results.stem}.round{round_no}.db")
