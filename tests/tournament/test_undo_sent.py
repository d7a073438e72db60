"""A hand whose result went to the coordinator stays scored at the table (C-V2/C-V3: the coordinator counts
a hand id once, so a hand undone and scored again would never reach the standings): the undo is refused
with `result_sent`, the table unchanged, also after the table is stopped and continued."""

from __future__ import annotations

import json

from unox.tournament.address import parse
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.schedule import Plan

from .kit import C_V2_PLAYERS, WAIT
from .test_people_table import _table, play_hand


def _raw(front, **request) -> dict:
    front.process.stdin.write(json.dumps(request) + "\n")
    front.process.stdin.flush()
    return json.loads(front.process.stdout.readline())


def _refused_unchanged(front) -> None:
    before = front.send(cmd="state")
    reply = _raw(front, cmd="undo")
    assert not reply["ok"] and reply["error"]["code"] == "result_sent", reply
    assert "hand 1's result already went to the tournament's coordinator" in reply["error"]["message"]
    assert reply["state"] == before == front.send(cmd="state")


def test_an_undo_that_would_unscore_a_sent_hand_is_refused_and_a_later_one_is_not(broker, tmp_path):
    plan = Plan(tuple(C_V2_PLAYERS))
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", "undo")), journal, plan, say=lambda t: None)
        coordinator.start()
        front = _table(broker.url("table1", "undo"), tmp_path / "table1.db")
        try:
            players, _ = play_hand(front, 1)
            assert coordinator.link.wait_connected(WAIT)
            _refused_unchanged(front)
            front.send(cmd="deal", dealer=players[1])  # hand 2 begins
            assert _raw(front, cmd="undo")["ok"]  # not scored yet: undone as at any table
            _refused_unchanged(front)
            front.process.stdin.close()
            assert front.process.wait(WAIT) == 0
            front = _table(broker.url("table1", "undo"), tmp_path / "table1.db")  # continued from its journal
            _refused_unchanged(front)
            while coordinator.counted() < 1 and coordinator.changed.wait(WAIT):
                coordinator.changed.clear()
        finally:
            front.process.stdin.close()
            front.process.wait(WAIT)
            coordinator.stop()
        assert [r["hand_id"] for r in journal.results()] == ["r1-t1-h1"]
