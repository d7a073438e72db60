"""`unox play --tournament URL --table N`: people play a tournament table at the terminal, round by round.

Each round is a `unox play` table of its own (the round's seats, `partners`, no target), opened by play's
own `open_session` with a journal beside the results journal, so a table stopped in the middle of a hand
continues with the same command. Each scored hand's result goes to the coordinator as it is scored. In the
terminal UI the round ends when its hands are scored and the players leave it (q); in `--plain` it ends by
itself after the last hand's score.
"""

from __future__ import annotations

import argparse
import copy
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.tournament_join import joined_seat, refused_results

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `--help` stays fast
if TYPE_CHECKING:
    from collections.abc import Callable

    from unox.tournament.seat import TableSeat


def run_play(args: argparse.Namespace) -> int:
    if args.web or args.continue_path is not None or args.no_journal:
        raise CommandError("--tournament keeps a journal per round and no phones yet; leave out --web, "
                           "--continue and --no-journal")
    with joined_seat(args) as (seat, path):
        return _rounds(args, seat, path)


def _rounds(args: argparse.Namespace, seat: TableSeat, results: Path) -> int:
    from unox.tournament.rounds import hold_sent_hands, open_rounds, report_scored, seating_line
    from unox.tournament.schedule import seats

    plan = seat.wait_plan()
    plain = args.plain or not (sys.stdin.isatty() and sys.stdout.isatty())
    lines: Iterator[str] = iter(sys.stdin)
    for round_no, match, ids in open_rounds(seat, plan):
        done = lambda ids=ids: all(seat.journal.has(i) for i in ids)  # noqa: E731
        print(seating_line(round_no, seat.number, match), flush=True)
        session = _open_round(args, results, round_no, seats(match), plan.rules)
        table = session.table

        def heard(_line: str, table=table, round_no=round_no, ids=ids, session=session) -> None:
            report_scored(seat, table, round_no, ids, session.emit)

        table.listeners.append(heard)
        hold_sent_hands(seat, table, ids)
        try:
            heard("")  # a hand scored before a restart and not yet sent
            if plain:
                from unox.ui.plain import run_plain

                run_plain(session, _until(done, lines), sys.stdout)
            else:
                from unox.ui.app import run_app

                run_app(session, poll_interval=0.05, poll_wait=0.0)
        finally:
            session.close()
        if not done():
            print("the round is not over; continue it with the same command", flush=True)
            return 0
    seat.flush()
    refused_results(seat)
    print(f"table {seat.number}: every result is in", flush=True)
    return 0


def _open_round(args: argparse.Namespace, results: Path, round_no: int, seated: list[str], rules: str):
    from unox.cli.commands.play import open_session
    from unox.tournament.bot_table import NO_TARGET

    journal = results.with_name(f"{results.stem}.round{round_no}.db")
    round_args = copy.copy(args)
    for name in ("players", "rules", "variant", "target", "scoring", "journal", "resume", "profile", "seed"):
        setattr(round_args, name, None)
    if journal.exists() and journal.stat().st_size:
        round_args.resume = journal
    else:
        round_args.players, round_args.rules, round_args.variant = ",".join(seated), rules, "partners"
        round_args.target, round_args.journal = str(NO_TARGET), journal
        round_args.profile, round_args.seed = args.profile, args.seed
    return open_session(round_args)


def _until(done: Callable[[], bool], lines: Iterable[str]) -> Iterator[str]:
    """The typed lines, until the round's hands are all scored."""
    for line in lines:
        yield line
        if done():
            return
