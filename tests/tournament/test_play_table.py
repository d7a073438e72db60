"""Issue 16: `unox play --tournament`: people play a tournament table at the terminal (plain mode here),
each round's seats from the coordinator, every scored hand sent to it."""

from __future__ import annotations

import subprocess

from unox.tournament.address import parse
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.schedule import Plan, seats

from .kit import C_V2_PLAYERS, UNOX, WAIT, journal_rows, scored_by_hand


def hand_lines(seated: list[str], number: int) -> tuple[list[str], dict[str, int]]:
    """A physical hand typed at `unox play --plain`: greens until the player left of the dealer goes out."""
    lines = [f"deal {seated[0]}", "flip", "flip G7"]
    lines += [f"G{k % 9 + 1}" for k in range(25)]  # seat 2 plays the 1st, 5th, ... 25th: its 7th card
    points = {p: 0 if i == 1 else 5 * i + number for i, p in enumerate(seated)}
    lines.append("score " + " ".join(f"{p}={n}" for p, n in points.items()))
    return lines, points


def test_C_V2_unox_play_plays_each_rounds_seats_and_sends_every_scored_hand(broker, tmp_path):
    plan = Plan(tuple(C_V2_PLAYERS))
    typed, told = [], []
    for round_no, matches in enumerate(plan.rounds, 1):
        for hand in range(4):
            lines, points = hand_lines(seats(matches[0]), round_no * 4 + hand)
            typed += lines
            told.append(points)
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", "term")), journal, plan, say=lambda t: None)
        coordinator.start()
        try:
            done = subprocess.run(
                [
                    *UNOX,
                    "play",
                    "--plain",
                    "--tournament",
                    broker.url("table1", "term"),
                    "--table",
                    "1",
                    "--launcher",
                    "script",
                    "--journal",
                    str(tmp_path / "table1.db"),
                ],
                input="\n".join(typed) + "\n",
                capture_output=True,
                text=True,
                timeout=WAIT * 2,
            )
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr
            assert coordinator.over.wait(WAIT)
            standings = coordinator.standings()
        finally:
            coordinator.stop()
    assert "round 1, table 1: Ann Bob Cy Dee (partners Ann + Cy against Bob + Dee)" in done.stdout
    assert "round 3, table 1: Ann Bob Dee Cy (partners Ann + Dee against Bob + Cy)" in done.stdout
    assert "every result is in" in done.stdout
    played = journal_rows(tmp_path / "table1.db")
    assert [r["points"] for r in played] == told
    assert {r["player"]: r["points"] for r in standings["players"]} == scored_by_hand(C_V2_PLAYERS, played)
