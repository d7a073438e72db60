"""Issue 16: a tournament table played by people over the table protocol (`unox table --tournament`, no
bots): each round's seats come from the coordinator, every scored hand goes to it, and a table stopped in
the middle of a round continues from its journals."""

from __future__ import annotations

import json
import subprocess

from unox.tournament.address import parse
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.schedule import Plan

from .kit import C_V2_PLAYERS, UNOX, WAIT, journal_rows, scored_by_hand


class Front:
    """A front end on the table protocol: one request, one reply line."""

    def __init__(self, process: subprocess.Popen):
        self.process = process

    def send(self, **request) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        reply = json.loads(self.process.stdout.readline())
        assert reply["ok"], reply
        return reply["state"]


def play_hand(front: Front, points_seed: int) -> tuple[list[str], dict]:
    """One physical hand: deal, flip a green 7, everyone plays greens until someone goes out, then score."""
    state = front.send(cmd="state")
    players = state["players"]
    front.send(cmd="deal", dealer=players[0])
    state = front.send(cmd="flip", card="G7", fired=1)
    number = 0
    while state["phase"] == "turn":
        player = state["turn"]
        if state["hands"][player] == 2:
            front.send(cmd="uno", player=player)
        state = front.send(cmd="play", player=player, card=f"G{number % 9 + 1}")
        number += 1
    went_out = next(p for p, held in state["hands"].items() if held == 0)
    points = {p: 0 if p == went_out else (points_seed * 7 + i * 5) % 40 + 1 for i, p in enumerate(players)}
    front.send(cmd="score", points=points)
    return players, {"went_out": went_out, "points": points}


def _table(url: str, journal) -> Front:
    process = subprocess.Popen(
        [*UNOX, "table", "--tournament", url, "--table", "1", "--journal", str(journal)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return Front(process)


def test_C_V2_people_play_each_rounds_seats_and_every_scored_hand_reaches_the_coordinator(broker, tmp_path):
    plan = Plan(tuple(C_V2_PLAYERS))
    url = broker.url("table1", "people")
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(
            parse(broker.url("coordinator", "people")), journal, plan, say=lambda t: None
        )
        coordinator.start()
        front = _table(url, tmp_path / "table1.db")
        seatings, told = [], []
        try:
            for hand in range(12):
                if hand == 6:  # the table stops in the middle of round 2; the same command continues it
                    front.process.stdin.close()
                    assert front.process.wait(WAIT) == 0
                    assert "continue with the same command" in front.process.stderr.read()
                    front = _table(url, tmp_path / "table1.db")
                    assert front.send(cmd="state")["hand"] == 2  # round 2's table, resumed from its journal
                players, result = play_hand(front, hand)
                seatings.append(players)
                told.append(result)
            front.process.stdin.close()
            assert front.process.wait(WAIT) == 0
            assert "every result is in" in front.process.stderr.read()
            assert coordinator.over.wait(WAIT)
            standings = coordinator.standings()
        finally:
            if front.process.poll() is None:
                front.process.kill()
            coordinator.stop()
    # D7: A+C, A+B, A+D; partners sit opposite (seats 1 and 3)
    assert [s for s in seatings[::4]] == [
        ["Ann", "Bob", "Cy", "Dee"],
        ["Ann", "Cy", "Bob", "Dee"],
        ["Ann", "Bob", "Dee", "Cy"],
    ]
    played = journal_rows(tmp_path / "table1.db")
    assert [{"went_out": r["went_out"], "points": r["points"]} for r in played] == told
    assert {r["player"]: r["points"] for r in standings["players"]} == scored_by_hand(C_V2_PLAYERS, played)
