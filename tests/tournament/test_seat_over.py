"""A table whose receipt died with a killed coordinator: the coordinator counted the hand, then finished
the tournament before the table sent it again (its resend waits 2 s). "over" means every scheduled hand is
counted, so the table takes it as the receipt for whatever still waits (C-V3: the last flush must end)."""

from __future__ import annotations

import pytest
from unox.tournament import topics
from unox.tournament.address import parse
from unox.tournament.journal import ResultsJournal
from unox.tournament.link import Link
from unox.tournament.schedule import Plan
from unox.tournament.seat import TableSeat

WAIT = 20.0
ROUND = topics.current_round("over")
PLAN = Plan(("Ann", "Bob", "Cy", "Dee"))
RESULT = {"hand_id": "r1-t1-h1", "round": 1, "table": 1, "hand": 1, "went_out": "Bob",
          "points": {"Ann": 10, "Bob": 0, "Cy": 7, "Dee": 0}}


def _seat(broker, tmp_path) -> TableSeat:
    _coordinator_says(broker, PLAN.to_json(), topics.schedule("over"))  # the seat learns the id from it
    return TableSeat(parse(broker.url("table1", "over")), 1, ResultsJournal(tmp_path / "table1.db")).start()


def _coordinator_says(broker, message, topic=ROUND) -> None:
    link = Link(parse(broker.url("coordinator", "over")), "fake-coordinator", {}).start()
    try:
        assert link.wait_connected(WAIT)
        link.publish(topic, message, retain=True).wait_for_publish(WAIT)
    finally:
        link.stop()


def test_over_is_the_receipt_for_a_result_whose_ack_was_lost(broker, tmp_path):
    seat = _seat(broker, tmp_path)
    try:
        assert seat.link.wait_connected(WAIT)
        seat.report(RESULT)  # nobody answers: the coordinator is gone
        assert seat.unsent() == 1
        _coordinator_says(broker, {"round": None, "over": True, "id": PLAN.tournament})
        seat.flush(WAIT)
        assert seat.unsent() == 0 and seat.journal.has("r1-t1-h1")  # kept, only marked as counted
    finally:
        seat.stop()
        seat.journal.close()


def test_a_new_round_is_not_a_receipt(broker, tmp_path):
    seat = _seat(broker, tmp_path)
    try:
        assert seat.link.wait_connected(WAIT)
        seat.report(RESULT)
        _coordinator_says(broker, {"round": 2, "over": False, "id": PLAN.tournament})
        seat.wait_round(2, WAIT)
        assert seat.unsent() == 1
        with pytest.raises(TimeoutError, match=r"no receipt for every result.*1 still waiting \(r1-t1-h1\)"):
            seat.flush(0.3)
    finally:
        seat.stop()
        seat.journal.close()
