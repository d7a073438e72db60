"""A tournament table played by people over the table protocol (`unox table --tournament`, no bots).

Each round is a table of its own: the round's four seats, partners opposite (`partners`), scored hand by
hand; the round ends when its hands are scored, and the next one opens when the coordinator says so. Every
scored hand's result (who went out, the points left in each hand) is journalled and sent as it is scored.
The protocol's replies stay as they are: the seating goes to `say` (stderr), and a front end reads the seats
from the state's `players`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from unox.table.jsonl import answer, encode
from unox.table.night import Night
from unox.table.runtime import Table
from unox.tournament.schedule import Match, Plan, hand_id, seats
from unox.tournament.seat import TableSeat

OpenTable = Callable[[int, list[str]], Table]  # (round, seats) -> the round's table, new or resumed


def seating_line(round_no: int, table: int, match: Any) -> str:
    return (f"round {round_no}, table {table}: {' '.join(seats(match))} "
            f"(partners {' + '.join(match[0])} against {' + '.join(match[1])})")


def open_rounds(seat: TableSeat, plan: Plan) -> Iterator[tuple[int, Match, list[str]]]:
    """This table's rounds with a hand still to play, each once the coordinator opens it: the round, its
    match and its hand ids (the seating line already said)."""
    for round_no, matches in enumerate(plan.rounds, 1):
        if seat.number > len(matches):
            continue
        ids = [hand_id(round_no, seat.number, h) for h in range(1, plan.hands_per_round + 1)]
        if all(seat.journal.has(i) for i in ids):
            continue
        seat.wait_round(round_no)
        yield round_no, matches[seat.number - 1], ids


def serve_rounds(seat: TableSeat, lines: Iterable[str | bytes], out: IO[Any], open_table: OpenTable,
                 say: Callable[[str], None]) -> bool:
    """Play this table's rounds from the request lines; True when every round was played (False: input
    ended first, the table's journals keep where it was)."""
    source = iter(lines)
    for round_no, match, ids in open_rounds(seat, seat.wait_plan()):
        say(seating_line(round_no, seat.number, match))
        table = open_table(round_no, seats(match))
        forget = seat.on_replaced(table.stop)  # another process took our place: the table refuses all
        try:
            if not _play_round(seat, table, round_no, ids, source, out, say):
                return False
        finally:
            forget()
            table.close()
    seat.flush()
    return True


def _play_round(seat: TableSeat, table: Table, round_no: int, ids: list[str], source: Iterator[str | bytes],
                out: IO[Any], say: Callable[[str], None]) -> bool:
    hold_sent_hands(seat, table, ids)
    report_scored(seat, table, round_no, ids, say)
    night = Night(table)  # the protocol drives the table night, as `unox table` does
    while not all(seat.journal.has(i) for i in ids):
        seat.check()
        line = next(source, None)
        if line is None:
            return False
        if not line.strip():
            continue
        out.write(encode(answer(night, line)))  # refused ("stopped") once the seat was replaced
        out.flush()
        seat.check()  # replaced: the command stops with that line and a non-zero exit
        report_scored(seat, table, round_no, ids, say)
    return True


def hold_sent_hands(seat: TableSeat, table: Table, ids: list[str]) -> None:
    """A hand whose result went to the coordinator stays scored: an undo that would unscore it is refused
    (the coordinator counts a hand id once, so a rescored hand would never reach the standings)."""

    def guard(game: Any) -> str | None:
        scored = game.last_hand["hand"] if game.last_hand is not None else 0
        sent = [h for h in range(scored + 1, len(ids) + 1) if seat.journal.has(ids[h - 1])]
        if not sent:
            return None
        return (f"hand {sent[0]}'s result already went to the tournament's coordinator, so it stays as "
                "it was scored; to correct it, write it down for the organiser (docs/tournament.md)")

    table.undo_guards.append(guard)


def report_scored(seat: TableSeat, table: Table, round_no: int, ids: list[str],
                   say: Callable[[str], None]) -> None:
    """The hand just scored, if it is new: journalled and sent (its id says round, table and hand)."""
    last = table.game.last_hand
    if last is None or not 1 <= last["hand"] <= len(ids) or seat.journal.has(ids[last["hand"] - 1]):
        return
    result = {"hand_id": ids[last["hand"] - 1], "round": round_no, "table": seat.number, "hand": last["hand"],
              "went_out": last["went_out"], "points": dict(last["points"]), "gained": dict(last["gained"])}
    seat.report(result)
    say(f"  hand {last['hand']}: {last['went_out']} went out; "
        + ", ".join(f"{p} +{n}" for p, n in last["gained"].items()) + " (sent to the coordinator)")
