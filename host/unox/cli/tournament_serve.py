"""`unox serve --tournament URL --table N`: a tournament table on the players' phones, round by round.

Each round is a table of its own (opened as `unox play --tournament` opens it, journal beside the results
journal) served on the same address; the phones join it again, since the seats change every round (a fixed
`--pin` keeps the same PIN all night). The round ends when its hands are scored, and the next one is served
when the coordinator opens it.
"""

from __future__ import annotations

import argparse
import sys
import threading

from unox.cli.errors import CommandError
from unox.cli.tournament_join import joined_seat, refused_results
from unox.cli.tournament_play import _open_round

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `--help` stays fast
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from unox.tournament.seat import TableSeat


def run_serve(args: argparse.Namespace) -> int:
    from unox.cli.commands.serve import web_options

    if args.continue_path is not None or args.no_journal:
        raise CommandError("--tournament keeps a journal per round; leave out --continue and --no-journal")
    options = _pins_for_the_night(web_options(args))
    try:
        with joined_seat(args) as (seat, path):
            return _rounds(args, options, seat, path)
    except KeyboardInterrupt:
        return 0


def _pins_for_the_night(options: Any) -> Any:
    """Both PINs chosen once (a random one too), so every round's server asks the phones for the same."""
    from dataclasses import replace

    from unox.web.launch import WebError, choose_pin

    try:
        pin, operator_pin = choose_pin(options), choose_pin(options, "--operator-pin")
    except WebError as exc:
        raise CommandError(str(exc)) from exc
    none = ""  # a PIN chosen as none stays none in every round's server
    return replace(options, pin=pin or none, operator_pin=operator_pin or none)


def _rounds(args: argparse.Namespace, options: object, seat: TableSeat, results: Path) -> int:
    from unox.cli.commands.serve import detach_script
    from unox.tournament.rounds import hold_sent_hands, open_rounds, report_scored, seating_line
    from unox.tournament.schedule import seats
    from unox.web.launch import WebError, WebServer, announce

    plan = seat.wait_plan()
    for round_no, match, ids in open_rounds(seat, plan):
        print(seating_line(round_no, seat.number, match), flush=True)
        session = _open_round(args, results, round_no, seats(match), plan.rules)
        table, launcher = session.table, detach_script(session)
        over = threading.Event()

        def heard(line: str, table=table, round_no=round_no, ids=ids, over=over) -> None:
            print(line, flush=True)  # a transcript, as unox serve prints
            report_scored(seat, table, round_no, ids, lambda text: print(text, flush=True))
            if all(seat.journal.has(i) for i in ids):
                over.set()

        table.listeners.append(heard)
        hold_sent_hands(seat, table, ids)
        try:
            heard("")
            server = WebServer(table, options, launcher=launcher, button_loop=True)
        except WebError as exc:
            session.close()
            raise CommandError(str(exc)) from exc
        announce(server.url, server.pin, sys.stdout, server.operator_pin)
        server.thread = threading.Thread(target=server.run, name="unox-web", daemon=True)
        server.thread.start()
        try:
            while not over.wait(0.5):
                pass
        finally:
            server.stop()
            table.close()
        print(f"round {round_no} is over; its results went to the coordinator", flush=True)
    seat.flush()
    refused_results(seat)
    print(f"table {seat.number}: every result is in", flush=True)
    return 0
