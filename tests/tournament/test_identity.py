"""Issue 24: a tournament has an identity. The club's name comes back every week; the id `start` makes never
does, and journals, client ids and messages carry it (failures 1, 2 and 3 of the issue).

Standings are checked against a recount from each tournament's own tables' journals, never against numbers
copied from the coordinator.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading

from unox.tournament.address import parse
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.link import Link
from unox.tournament.schedule import Plan

from .kit import C_V2_PLAYERS, C_V3_PLAYERS, UNOX, WAIT, journal_rows, kill_left, read_until, scored_by_hand

OTHERS = ["Ida", "Jo", "Kim", "Lou", "Max", "Ned", "Oz", "Pat"]


def _start(broker, tmp_path, name: str, players: list[str], journal: str) -> subprocess.Popen:
    return subprocess.Popen(
        [*UNOX, "tournament", "start", "--broker", broker.url("coordinator", name), "--players",
         ",".join(players), "--journal", str(tmp_path / journal), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _table(broker, name: str, number: int, env: dict, journal=None) -> subprocess.Popen:
    argv = [*UNOX, "table", "--tournament", broker.url(f"table{number}", name), "--table", str(number),
            "--bots", "heuristic", "--seed", "7"]
    if journal is not None:
        argv += ["--journal", str(journal)]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            stdin=subprocess.DEVNULL)


def _finish(*processes: subprocess.Popen) -> list[tuple[int, str]]:
    done = []
    try:
        for process in processes:
            out, _ = process.communicate(timeout=WAIT * 2)
            done.append((process.returncode, out))
    finally:
        kill_left(*processes)
    return done


def _points(standings: dict) -> dict[str, int]:
    return {row["player"]: row["points"] for row in standings["players"]}


def test_two_tournaments_of_one_name_in_a_row_each_counts_only_its_own_tables(broker, tmp_path):
    """Week 1, then week 2 with other players through the same broker (restarted, persistence on): the
    tables of week 2 start before its coordinator with their default journals, with week 1's schedule and
    `over` still retained. Each week ends with standings equal to a recount from its own tables' journals."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    folder = tmp_path / "state" / "unox" / "tournaments"
    weeks = []
    for week, players in ((1, C_V3_PLAYERS), (2, OTHERS)):
        if week == 1:
            coordinator = _start(broker, tmp_path, "club", players, f"week{week}.db")
            tables = [_table(broker, "club", n, env) for n in (1, 2)]
        else:
            broker.restart()  # persistence: week 1's retained schedule, round and standings come back
            tables = [_table(broker, "club", n, env) for n in (1, 2)]
            for table in tables:  # week 1's `over` is not this table's: it says so and waits
                read_until(table, "is over; waiting for its coordinator to start the next one")
            coordinator = _start(broker, tmp_path, "club", players, f"week{week}.db")
        (code, out), *table_runs = _finish(coordinator, *tables)
        assert code == 0, coordinator.stderr
        assert all(run[0] == 0 for run in table_runs), table_runs
        standings = json.loads(out.strip().splitlines()[-1])
        journals = [next(folder.glob(f"club-{standings['id']}-table{n}.db")) for n in (1, 2)]
        played = [row for path in journals for row in journal_rows(path)]
        assert len(played) == 56 and {row["tournament"] for row in played} == {standings["id"]}
        assert _points(standings) == scored_by_hand(players, played)
        assert {row["player"] for row in standings["players"]} == set(players)
        weeks.append(standings["id"])
    assert weeks[0] != weeks[1]
    assert len(list(folder.glob("club-*-table1.db"))) == 2  # last week's journal untouched beside this week's


def test_last_weeks_table_journal_is_refused_in_one_line_naming_what_it_holds(broker, tmp_path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    journals = [tmp_path / f"table{n}.db" for n in (1, 2)]
    coordinator = _start(broker, tmp_path, "club", C_V3_PLAYERS, "week1.db")
    tables = [_table(broker, "club", n, env, journals[n - 1]) for n in (1, 2)]
    (code, out), *_ = _finish(coordinator, *tables)
    assert code == 0
    first = json.loads(out.strip().splitlines()[-1])["id"]
    before = journals[0].read_bytes()
    coordinator = _start(broker, tmp_path, "club", OTHERS, "week2.db")
    try:
        said = coordinator.stderr.readline()  # "tournament club: id ..." once the broker accepted it
        assert "tournament club: id" in said
        again = _table(broker, "club", 1, env, journals[0])
        ((code, out),) = _finish(again)
    finally:
        coordinator.kill()
        coordinator.wait(WAIT)
    lines = out.strip().splitlines()
    assert code == 1 and len(lines) == 1, out
    # "which is over" when the table heard week 1's `over` before it stopped, else "not the one open now"
    assert f"holds table 1 of club's tournament {first}, " in lines[0]
    assert "which is over" in lines[0] or "not the one open now" in lines[0]
    assert "give this table a new --journal" in lines[0]
    assert journals[0].read_bytes() == before


def test_a_new_coordinator_never_gets_the_results_queued_for_an_abandoned_one(broker, tmp_path):
    """Failure 2: results sent to a killed coordinator wait in its broker session; the next tournament of
    the same name (same players, so the same hand ids) must not count them."""
    name, url = "queue", parse(broker.url("coordinator", "queue"))
    old = Plan(tuple(C_V2_PLAYERS))
    with ResultsJournal(tmp_path / "old.db") as journal:
        abandoned = Coordinator(url, journal, old, say=lambda t: None).start()
        assert abandoned.link.wait_connected(WAIT)
        abandoned.link.abandon()  # as after kill -9: its persistent session stays on the broker
    table = Link(parse(broker.url("table1", name)), "old-table1", {}, persistent=False).start()
    acks: list[dict] = []
    got = threading.Event()
    try:
        assert table.wait_connected(WAIT)
        for hand in range(1, 5):
            result = {"hand_id": f"r1-t1-h{hand}", "tournament": old.tournament, "round": 1, "table": 1,
                      "hand": hand, "went_out": "Bob", "points": {"Ann": 10, "Bob": 0, "Cy": 7, "Dee": 0}}
            table.publish(f"unox/tournament/{name}/result/1", result).wait_for_publish(WAIT)
        new = Plan(tuple(C_V2_PLAYERS))
        with ResultsJournal(tmp_path / "new.db") as journal:
            coordinator = Coordinator(url, journal, new, say=lambda t: None).start()
            listener = Link(parse(broker.url("table1", name)), "listener",
                            {f"unox/tournament/{name}/ack/1": lambda t, p: (acks.append(p), got.set())},
                            persistent=False).start()
            try:
                assert coordinator.link.wait_connected(WAIT) and listener.wait_connected(WAIT)
                mine = {"hand_id": "r1-t1-h1", "tournament": new.tournament, "round": 1, "table": 1,
                        "hand": 1, "went_out": "Ann", "points": {"Ann": 0, "Bob": 3, "Cy": 0, "Dee": 4}}
                table.publish(f"unox/tournament/{name}/result/1", mine).wait_for_publish(WAIT)
                assert got.wait(WAIT)
                counted, standings = coordinator.counted(), coordinator.standings()
            finally:
                listener.stop()
                coordinator.stop()
    finally:
        table.stop()
    assert acks == [{"hand_id": "r1-t1-h1", "id": new.tournament, "ok": True}]
    assert counted == 1 and standings["results"] == 1
    assert _points(standings) == scored_by_hand(C_V2_PLAYERS, [mine])


def test_the_tournament_id_is_in_every_message_and_the_retained_ones_say_ended(broker, tmp_path):
    """The schedule, the round, the standings and the receipts name the id; at the end the retained
    schedule is marked ended, so nobody joins a finished tournament by its name."""
    name = "marks"
    plan = Plan(tuple(C_V2_PLAYERS))
    seen: dict[str, dict] = {}
    every = threading.Event()

    def on(topic: str, payload: dict) -> None:
        seen[topic.rsplit("/", 1)[1]] = payload
        if (seen.get("schedule", {}).get("ended") and seen.get("round", {}).get("over")
                and seen.get("standings", {}).get("over")):
            every.set()

    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", name)), journal, plan, say=lambda t: None)
        coordinator.start()
        try:
            assert coordinator.link.wait_connected(WAIT)
            for hand_id, round_no, table, hand, match in plan.hands():
                (a, _), _ = match
                coordinator.receive({"hand_id": hand_id, "tournament": plan.tournament, "round": round_no,
                                     "table": table, "hand": hand, "went_out": a,
                                     "points": {p: 0 if p == a else 5 for p in (*match[0], *match[1])}})
            assert coordinator.over.is_set()
        finally:
            coordinator.stop()
    watcher = Link(parse(broker.url("homeassistant", name)), "watcher",
                   {f"unox/tournament/{name}/{what}": on for what in ("schedule", "round", "standings")},
                   persistent=False).start()
    try:
        assert every.wait(WAIT)
    finally:
        watcher.stop()
    assert {payload["id"] for payload in seen.values()} == {plan.tournament}
    assert seen["standings"]["over"] and seen["round"]["round"] is None
