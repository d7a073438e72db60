"""Issue 24, "faster where it waits": the coordinator's journal is durable against a crash of its process, not
a power cut (no disk flush per commit, docs/tournament.md "What durable means"). A power cut may take the
last results it acknowledged; a coordinator that starts again gets every result from the tables once more,
so the hands it lost are counted after all, and none twice."""

from __future__ import annotations

import sqlite3

import pytest
from unox.tournament.address import parse
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.schedule import Plan
from unox.tournament.seat import TableSeat

from .kit import C_V2_PLAYERS, WAIT

PLAN = Plan(tuple(C_V2_PLAYERS))


def _result(hand: int, went_out: str = "Ann") -> dict:
    points = {"Ann": 0, "Bob": 10 * hand, "Cy": 3, "Dee": 4}
    points[went_out] = 0
    return {"hand_id": f"r1-t1-h{hand}", "round": 1, "table": 1, "hand": hand, "went_out": went_out,
            "points": points}


def test_the_journals_say_how_durable_a_commit_is(tmp_path):
    synchronous = {}
    for durable in ("power", "process"):
        with ResultsJournal(tmp_path / f"{durable}.db", durable=durable) as journal:
            synchronous[durable] = journal._db.execute("PRAGMA synchronous").fetchone()[0]
            mode = journal._db.execute("PRAGMA journal_mode").fetchone()[0]
            assert mode == "wal"  # NORMAL outlives a kill -9 only in WAL mode
    assert synchronous == {"power": 2, "process": 1}  # FULL, NORMAL
    with pytest.raises(ValueError, match="durable is one of power, process"):
        ResultsJournal(tmp_path / "other.db", durable="never")
    assert not (tmp_path / "other.db").exists()


def test_results_a_power_cut_took_from_the_coordinators_journal_come_again_from_the_table(broker, tmp_path):
    name = "powercut"
    path = tmp_path / "club.db"
    journal = ResultsJournal(path, durable="process")
    first = Coordinator(parse(broker.url("coordinator", name)), journal, PLAN, say=lambda text: None).start()
    seat = TableSeat(parse(broker.url("table1", name)), 1, ResultsJournal(tmp_path / "table1.db")).start()
    try:
        assert seat.link.wait_connected(WAIT)
        for hand in (1, 2, 3):
            seat.report(_result(hand))
        seat.flush(WAIT)  # all three acknowledged: the table will not send them again by itself
        assert first.counted() == 3
        first.stop()
        journal.close()
        # the power cut: the last two commits never reached the disk
        db = sqlite3.connect(path)
        db.execute("DELETE FROM results WHERE hand_id IN ('r1-t1-h2', 'r1-t1-h3')")
        db.commit()
        db.close()
        journal = ResultsJournal(path, durable="process")
        second = Coordinator(parse(broker.url("coordinator", name)), journal, PLAN,
                             say=lambda text: None).start()
        try:
            deadline_hit = not _wait_for(second, 3)
            seat.report(_result(4))
            seat.flush(WAIT)
            assert _wait_for(second, 4)
            copies = journal.copies()
        finally:
            second.stop()
    finally:
        seat.stop()
        seat.journal.close()
        journal.close()
    assert not deadline_hit  # the lost two came again, from the table
    assert copies == {"r1-t1-h1": 2, "r1-t1-h2": 1, "r1-t1-h3": 1, "r1-t1-h4": 1}
    assert second.standings()["results"] == 4


def _wait_for(coordinator: Coordinator, count: int) -> bool:
    """Until `count` hands are in (on the coordinator's own event), at most WAIT seconds."""
    import time

    deadline = time.monotonic() + WAIT
    while coordinator.counted() < count:
        if time.monotonic() > deadline:
            return False
        coordinator.changed.wait(0.2)
        coordinator.changed.clear()
    return True
