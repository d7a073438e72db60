"""Issue 24, failure 7: the broker enforces who writes what. The broker of these tests runs the ACL
`unox install broker` writes (tests/install checks the written file is this one): each table publishes only
its own table's topics, the coordinator the schedule, round, standings and receipts, Home Assistant only its
birth message; everyone reads. The forgeries the issue found are dropped by the broker."""

from __future__ import annotations

import threading

from unox.tournament import topics
from unox.tournament.address import parse
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.link import Link
from unox.tournament.schedule import Plan

from .kit import C_V2_PLAYERS, WAIT, scored_by_hand

NAME = "acl"


def _retained(broker, topic: str) -> object:
    """The retained message on `topic` now, read by a fresh reader."""
    got: list[object] = []
    arrived = threading.Event()
    on = {topic: lambda t, p: (got.append(p), arrived.set())}
    reader = Link(parse(broker.url("homeassistant", NAME)), "", on, persistent=False).start()
    try:
        assert reader.wait_connected(WAIT) and arrived.wait(WAIT)
    finally:
        reader.stop()
    return got[0]


def test_forged_results_standings_and_over_are_dropped_by_the_broker(broker, tmp_path):
    plan = Plan(tuple(C_V2_PLAYERS))
    forged = {"hand_id": "r1-t1-h1", "tournament": plan.tournament, "round": 1, "table": 1, "hand": 1,
              "went_out": "Bob", "points": {"Ann": 999, "Bob": 0, "Cy": 999, "Dee": 0}}  # +1998 for Bob, Dee
    real = {**forged, "went_out": "Ann", "points": {"Ann": 0, "Bob": 3, "Cy": 0, "Dee": 4}}
    acks: list[dict] = []
    acked = threading.Event()
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", NAME)), journal, plan, say=lambda t: None)
        coordinator.start()
        table1 = Link(parse(broker.url("table1", NAME)), "table1",
                      {topics.ack(NAME, 1): lambda t, p: (acks.append(p), acked.set())}, persistent=False)
        forgers = {user: Link(parse(broker.url(user, NAME)), f"forger-{user}", {}, persistent=False).start()
                   for user in ("homeassistant", "table2")}
        table1.start()
        counted = threading.Event()  # standings with the real result in: sent after its receipt
        watcher = Link(parse(broker.url("homeassistant", NAME)), "", {topics.standings(NAME): lambda t, p: (
            counted.set() if isinstance(p, dict) and p.get("results") == 1 else None)}, persistent=False)
        watcher.start()
        try:
            assert coordinator.link.wait_connected(WAIT) and table1.wait_connected(WAIT)
            assert all(link.wait_connected(WAIT) for link in forgers.values())
            for link in forgers.values():  # each publish is acknowledged by the broker, then dropped
                link.publish(topics.result(NAME, 1), forged).wait_for_publish(WAIT)
                link.publish(topics.standings(NAME), {"id": plan.tournament, "over": True, "winner": "Bob",
                                                      "players": []}, retain=True).wait_for_publish(WAIT)
            table1.publish(topics.current_round(NAME), {"id": plan.tournament, "round": None, "over": True},
                           retain=True).wait_for_publish(WAIT)  # a table may not end the tournament either
            table1.publish(topics.schedule(NAME), {**plan.to_json(), "ended": True},
                           retain=True).wait_for_publish(WAIT)
            # the real result comes after every forgery: had one got through, it would have been counted first
            table1.publish(topics.result(NAME, 1), real).wait_for_publish(WAIT)
            assert acked.wait(WAIT) and counted.wait(WAIT)
            standings = coordinator.standings()
            retained = {what: _retained(broker, topic) for what, topic in (
                ("standings", topics.standings(NAME)), ("round", topics.current_round(NAME)),
                ("schedule", topics.schedule(NAME)))}
        finally:
            for link in (table1, watcher, *forgers.values()):
                link.stop()
            coordinator.stop()
        copies = journal.copies()
    assert acks == [{"hand_id": "r1-t1-h1", "id": plan.tournament, "ok": True}]
    assert copies == {"r1-t1-h1": 1}  # the forged copy never arrived
    points = {row["player"]: row["points"] for row in standings["players"]}
    assert points == scored_by_hand(C_V2_PLAYERS, [real])
    assert retained["standings"]["winner"] is None and not retained["standings"]["over"]
    assert retained["standings"]["results"] == 1
    assert retained["round"] == {"id": plan.tournament, "round": 1, "over": False, "boot": coordinator.boot}
    assert "ended" not in retained["schedule"]


def test_each_user_still_publishes_its_own_topics(broker, tmp_path):
    """The ACL is no wider than needed and no narrower: a whole C-V2 table through it (tests/tournament's
    other tournaments run through it too)."""
    from unox.tournament.bot_table import play_table
    from unox.tournament.seat import TableSeat

    plan = Plan(tuple(C_V2_PLAYERS))
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", NAME)), journal, plan, say=lambda t: None)
        coordinator.start()
        seat = TableSeat(parse(broker.url("table1", NAME)), 1, ResultsJournal(tmp_path / "t1.db")).start()
        try:
            play_table(seat, bot="random", seed=1, say=lambda line: None, wait=WAIT)
            assert coordinator.over.wait(WAIT)
        finally:
            seat.stop()
            seat.journal.close()
            coordinator.stop()
        assert len(journal.copies()) == 12
    over = {"id": plan.tournament, "round": None, "over": True}
    assert _retained(broker, topics.current_round(NAME)) == over
