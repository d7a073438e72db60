"""A tournament table played by people around a table night, round by round (`unox play` and `unox serve`
with `--tournament`, and `unox table --tournament` without bots over the table protocol).

Each round is a table of its own (the round's seats, `partners`, no target) with a journal beside the
results journal, so a table stopped in the middle of a hand continues with the same command. Each scored
hand's result goes to the coordinator as it is scored. The front end that attends a round (the terminal UI,
`--plain`, the phones) is handed in by whoever assembled the night: this module imports none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from unox.table.journal import Journal
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.tournament.bot_table import NO_TARGET
from unox.tournament.join import TournamentError, refused_line, round_journal
from unox.tournament.rounds import hold_sent_hands, open_rounds, report_scored, seating_line, serve_rounds
from unox.tournament.schedule import seats
from unox.tournament.seat import TableSeat

# (round, its journal, its seats, the edition) -> the round's night, new or resumed
OpenRound = Callable[[int, Path, list[str], str], Any]
# (the round's night, the round, whether its hands are all scored) -> None once the front end leaves it
Attend = Callable[[Any, int, Callable[[], bool]], None]


def attended_rounds(seat: TableSeat, results: Path, open_round: OpenRound, attend: Attend,
                    say: Callable[[str], None], tell: Callable[[Any], Callable[[str], None]] | None = None
                    ) -> bool:
    """This table's rounds, each attended by a front end; True when every result is in (False: a round
    was left before its hands were scored; the same command continues it).

    `tell(night)` is where a scored hand's line goes (the night's own log unless given)."""
    plan = seat.wait_plan()
    for round_no, match, ids in open_rounds(seat, plan):
        scored = lambda ids=ids: all(seat.journal.has(i) for i in ids)  # noqa: E731
        # the front end leaves the round once its hands are scored, or once the seat was replaced
        done = lambda scored=scored: scored() or seat.replaced() is not None  # noqa: E731
        say(seating_line(round_no, seat.number, match))
        night = open_round(round_no, round_journal(results, round_no), seats(match), plan.rules)
        table = night.table
        told = night.emit if tell is None else tell(night)
        forget = seat.on_replaced(table.stop)  # another process took our place: the table refuses all

        def heard(_line: str, table=table, round_no=round_no, ids=ids, told=told) -> None:
            report_scored(seat, table, round_no, ids, told)

        table.listeners.append(heard)
        hold_sent_hands(seat, table, ids)
        try:
            heard("")  # a hand scored before a restart and not yet sent
            attend(night, round_no, done)
        finally:
            forget()
            night.close()
        seat.check()  # replaced: the command stops with that line and a non-zero exit
        if not scored():
            say("the round is not over; continue it with the same command")
            return False
    seat.flush()
    refused = refused_line(seat)
    if refused is not None:
        raise TournamentError(refused)
    say(f"table {seat.number}: every result is in")
    return True


def protocol_rounds(seat: TableSeat, results: Path, lines: Iterable[str | bytes], out: IO[Any], *,
                    seed: int | None, profile: str | None, launcher: str | None,
                    open_launcher: Callable[[str], Any], say: Callable[[str], None],
                    accept_launcher: bool = False) -> bool:
    """The table protocol on `lines`/`out`, one table per round (each with its own journal beside
    `results`, so a crash resumes in the middle of a hand); True when every round was played.

    A resumed round fires the launcher of its journal, which must be the board it is bound to; with
    `accept_launcher` (the user said so) it fires `launcher` instead, whichever board that is."""
    plan = seat.wait_plan()

    def open_table(round_no: int, seated: list[str]) -> Table:
        journal = Journal(round_journal(results, round_no))
        try:
            if len(journal):
                accept = accept_launcher and launcher is not None
                spec = launcher if accept else str(journal.settings["launcher"])
                device = open_launcher(str(spec))
                try:
                    table = Table.resume(journal, launcher=device, accept_launcher=accept,
                                         launcher_spec=spec if accept else None)
                except BaseException:
                    device.close()
                    raise
                if table.rebound is not None:
                    say(f"round {round_no}: this table now fires launcher board {table.rebound[1]} (it was "
                        f"bound to board {table.rebound[0]}), as --accept-launcher said")
                return table
            settings = TableSettings(players=tuple(seated), rules=plan.rules, variant="partners",
                                     target=NO_TARGET, profile=profile or "measured", seed=seed,
                                     launcher=launcher or "script")
            return Table.create(settings, launcher=open_launcher(settings.launcher), journal=journal)
        except BaseException:
            journal.close()
            raise

    return serve_rounds(seat, lines, out, open_table, say)
