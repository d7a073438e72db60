"""Issue 16: the classic multi-table tournament (C-V3, C-V2, D7) through a real mosquitto with authentication.

Standings are checked against the same hands scored in the test from the tables' own journals, with the
pairs the rules give, never against numbers copied from the coordinator.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading

import pytest
from unox.tournament.address import parse
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.link import Link
from unox.tournament.schedule import Plan

from .kit import (
    C_V2_PLAYERS,
    C_V3_PLAYERS,
    UNOX,
    WAIT,
    bot_tables,
    journal_rows,
    kill_left,
    night_in_process,
    read_until,
    scored_by_hand,
    table_process,
)


def _final(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


def _points(standings: dict) -> dict[str, int]:
    return {row["player"]: row["points"] for row in standings["players"]}


def _table_results(tmp_path, tables: int) -> list[dict]:
    return [row for n in range(1, tables + 1) for row in journal_rows(tmp_path / f"table{n}.db")]


def test_C_V3_the_whole_tournament_by_two_table_processes_and_a_coordinator(broker, tmp_path):
    """28 hands per player, 56 results; standings equal the hands scored by hand from the tables' journals."""
    coordinator = subprocess.Popen(
        [
            *UNOX,
            "tournament",
            "start",
            "--broker",
            broker.url("coordinator", "club"),
            "--players",
            ",".join(C_V3_PLAYERS),
            "--journal",
            str(tmp_path / "club.db"),
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    tables = [table_process(broker.url(f"table{n}", "club"), n, tmp_path / f"table{n}.db") for n in (1, 2)]
    try:
        out, err = coordinator.communicate(timeout=WAIT)
        assert coordinator.returncode == 0, err
        for table in tables:
            table_out, _ = table.communicate(timeout=WAIT)
            assert table.returncode == 0, table_out
            assert "round 1, table" in table_out and "round 7, table" in table_out
    finally:
        kill_left(coordinator, *tables)
    standings = _final(out)
    played = _table_results(tmp_path, 2)
    assert len(played) == 56 and all(row["_acked"] for row in played)  # every result arrived
    assert {row["player"]: row["hands"] for row in standings["players"]} == dict.fromkeys(C_V3_PLAYERS, 28)
    assert _points(standings) == scored_by_hand(C_V3_PLAYERS, played)
    assert len(journal_rows(tmp_path / "club.db")) == 56
    for row in played:  # each table's engine scored its hand as the test does (C-V1)
        assert scored_by_hand(C_V3_PLAYERS, [row]) == {p: row["gained"].get(p, 0) for p in C_V3_PLAYERS}


def test_C_V2_one_table_of_four_plays_the_partner_rotation(broker, tmp_path):
    """C-V2 / D7: A+C, then A+B, then A+D, four hands each: 12 hands at one table."""
    plan = Plan(tuple(C_V2_PLAYERS))
    seen = []
    standings, _ = night_in_process(broker, tmp_path, "c2", plan, (1,), seed=5,
                                    on_line=lambda seat, line: seen.append(line))
    partners = [line.split("(partners ")[1].split(" against")[0] for line in seen if "(partners" in line]
    assert partners == ["Ann + Cy", "Ann + Bob", "Ann + Dee"]
    played = journal_rows(tmp_path / "table1.db")
    assert len(played) == 12 and standings["hands_per_player"] == 12
    assert _points(standings) == scored_by_hand(C_V2_PLAYERS, played)


def test_the_broker_restarted_mid_round_tables_keep_playing_and_every_result_arrives_once(broker, tmp_path):
    offline = {}

    def on_line(seat, line):
        if seat.number == 1 and line.startswith("  hand 2") and "down" not in offline:
            if (seat.journal.get("tournament/round") or {}).get("round") == 3:
                broker.stop()  # in round 3, between two hands
                offline["down"] = True
        elif seat.number == 1 and line.startswith("  hand 4") and offline.get("down") and "up" not in offline:
            offline["unsent"] = seat.unsent()  # hands 3 and 4 were played with the broker away
            broker.start()
            offline["up"] = True

    standings, copies = night_in_process(broker, tmp_path, "restart", Plan(tuple(C_V3_PLAYERS)), seed=11,
                                         on_line=on_line)
    assert offline.get("up") and offline["unsent"] >= 2
    played = _table_results(tmp_path, 2)
    assert (
        len(played) == 56 and len(copies) == 56
    )  # none lost; each hand id once in the coordinator's journal
    assert _points(standings) == scored_by_hand(C_V3_PLAYERS, played)


def test_the_coordinator_killed_and_resumed_keeps_its_standings(broker, tmp_path):
    """kill -9 in round 3 (the tables keep playing); `--resume` counts nothing twice and loses nothing."""
    url = broker.url("coordinator", "crash")
    journal = tmp_path / "club.db"
    first = subprocess.Popen(
        [
            *UNOX,
            "tournament",
            "start",
            "--broker",
            url,
            "--players",
            ",".join(C_V3_PLAYERS),
            "--journal",
            str(journal),
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    state: dict = {}
    try:

        def on_line(seat, line):
            if seat.number == 2 and line.startswith("round 3") and "killed" not in state:
                os.kill(first.pid, signal.SIGKILL)
                first.wait(WAIT)
                state["killed"] = [row["hand_id"] for row in journal_rows(journal)]
            elif (
                seat.number == 2
                and line.startswith("  hand 3")
                and "killed" in state
                and "resumed" not in state
            ):
                state["resumed"] = subprocess.Popen(
                    [*UNOX, "tournament", "start", "--broker", url, "--resume", str(journal), "--json"],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )

        with bot_tables(broker, tmp_path, "crash", bot="random", seed=2, on_line=on_line):
            pass  # every table played its schedule (each sent all its results and had them acknowledged)
        out, err = state["resumed"].communicate(timeout=WAIT)
        assert state["resumed"].returncode == 0, err
    finally:
        kill_left(first, state.get("resumed"))
    assert len(state["killed"]) >= 16  # rounds 1 and 2 were in its journal when it died
    rows = journal_rows(journal)
    assert [r["hand_id"] for r in rows][: len(state["killed"])] == state["killed"]
    played = _table_results(tmp_path, 2)
    assert len(rows) == len(played) == 56
    assert _points(_final(out)) == scored_by_hand(C_V3_PLAYERS, played)


def test_a_table_killed_with_kill_9_and_resumed_sends_its_unsent_results_once(broker, tmp_path):
    """The results it played with nobody listening exist only in its journal; resumed, it sends them."""
    plan = Plan(tuple(C_V2_PLAYERS))
    name = "killed"
    announcer = Link(parse(broker.url("coordinator", name)), "announcer", {}, persistent=False).start()
    assert announcer.wait_connected(WAIT)
    announcer.publish(f"unox/tournament/{name}/schedule", plan.to_json(), retain=True).wait_for_publish(WAIT)
    announcer.publish(
        f"unox/tournament/{name}/round", {"round": 1, "over": False, "id": plan.tournament}, retain=True
    ).wait_for_publish(WAIT)
    announcer.stop()
    url, table_journal = broker.url("table1", name), tmp_path / "table1.db"
    table = table_process(url, 1, table_journal)
    try:
        read_until(table, "hand 4:")  # round 1 played; no coordinator: it waits for round 2
        os.kill(table.pid, signal.SIGKILL)
        table.wait(WAIT)
        unsent = [row["hand_id"] for row in journal_rows(table_journal) if not row["_acked"]]
        assert unsent == ["r1-t1-h1", "r1-t1-h2", "r1-t1-h3", "r1-t1-h4"]
        with ResultsJournal(tmp_path / "club.db") as journal:
            coordinator = Coordinator(
                parse(broker.url("coordinator", name)), journal, plan, say=lambda t: None
            ).start()
            try:
                table = table_process(url, 1, table_journal)
                out, _ = table.communicate(timeout=WAIT)
                assert table.returncode == 0, out
                assert coordinator.over.wait(WAIT)
                copies, standings = journal.copies(), coordinator.standings()
            finally:
                coordinator.stop()
    finally:
        if table.poll() is None:
            table.kill()
            table.wait(WAIT)
    assert [copies[hand_id] for hand_id in unsent] == [1, 1, 1, 1]  # arrived once each, from the journal
    played = journal_rows(table_journal)
    assert len(played) == len(copies) == 12
    assert _points(standings) == scored_by_hand(C_V2_PLAYERS, played)


def test_a_result_sent_twice_is_counted_once(broker, tmp_path):
    plan = Plan(tuple(C_V2_PLAYERS))
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(
            parse(broker.url("coordinator", "twice")), journal, plan, say=lambda t: None
        ).start()
        assert coordinator.link.wait_connected(WAIT)
        acks = []
        got = threading.Event()

        def on_ack(topic, payload):
            acks.append(payload)
            got.set() if len(acks) == 2 else None

        table = Link(
            parse(broker.url("table1", "twice")), "unox-twice-table1", {"unox/tournament/twice/ack/1": on_ack}
        ).start()
        try:
            assert table.wait_connected(WAIT)
            result = {
                "hand_id": "r1-t1-h1",
                "tournament": plan.tournament,
                "round": 1,
                "table": 1,
                "hand": 1,
                "went_out": "Bob",
                "points": {"Ann": 10, "Bob": 0, "Cy": 7, "Dee": 0},
            }
            for _ in range(2):
                table.publish("unox/tournament/twice/result/1", result).wait_for_publish(WAIT)
            assert got.wait(WAIT)
            standings, counted = coordinator.standings(), coordinator.counted()
        finally:
            table.stop()
            coordinator.stop()
        assert counted == 1
        assert (
            acks == [{"hand_id": "r1-t1-h1", "id": plan.tournament, "ok": True}] * 2
        )  # both acknowledged, so neither is sent again
        assert journal.copies() == {"r1-t1-h1": 2}
    # C-V2 hand 1 pairs Ann+Cy against Bob+Dee (D7): Bob went out, his pair scores Ann's 10 and Cy's 7, once
    assert _points(standings) == {"Ann": 0, "Bob": 17, "Cy": 0, "Dee": 17}
    assert standings["results"] == 1


def test_a_result_that_is_not_in_the_schedule_is_refused_and_not_counted(broker, tmp_path):
    plan = Plan(tuple(C_V2_PLAYERS))
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", "bad")), journal, plan, say=lambda t: None)
        bad = {
            "hand_id": "r1-t1-h1",
            "tournament": plan.tournament,
            "round": 1,
            "table": 1,
            "hand": 1,
            "went_out": "Ann",
            "points": {"Ann": 0, "Bob": 3, "Cy": 4, "Zed": 5},
        }
        assert coordinator.receive(bad) is False
        assert coordinator.receive({**bad, "hand_id": "r9-t1-h1"}) is False
        assert journal.results() == []


@pytest.mark.parametrize(
    "argv, message",
    [
        (["table", "--tournament", "mqtt://h/club", "--bots", "random"], "add --table N"),
        (
            ["table", "--tournament", "mqtt://h/", "--table", "1", "--bots", "random"],
            "needs the tournament's name",
        ),
        (
            ["table", "--tournament", "mqtt://h/club", "--table", "1", "--players", "A,B"],
            "leave out --players",
        ),
        (
            ["tournament", "start", "--broker", "mqtt://h/c", "--players", "A,B,C", "--journal", "x.db"],
            "seats 4, 8, 12",
        ),
        (["tournament", "start", "--broker", "mqtt://h/c", "--players", "A,B,C,D"], "give --journal FILE"),
    ],
)
def test_bad_tournament_options_are_one_clear_line(argv, message, tmp_path):
    """(`--table 0` is a usage error, exit 2: tests/cli/test_option_convention.py)"""
    done = subprocess.run([*UNOX, *argv], capture_output=True, text=True, cwd=tmp_path, timeout=WAIT)
    assert done.returncode == 1 and message in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert not (tmp_path / "x.db").exists()


def test_a_table_with_a_wrong_password_is_refused_in_one_line(broker, tmp_path):
    url = broker.url("table1", "club").replace(broker.users["table1"], "wrong")
    done = subprocess.run(
        [
            *UNOX,
            "table",
            "--tournament",
            url,
            "--table",
            "1",
            "--bots",
            "random",
            "--journal",
            str(tmp_path / "t.db"),
        ],
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert done.returncode == 1 and "refused table1" in done.stderr and "password" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_the_demo_plays_c_v3_through_a_private_broker_and_stops_it():
    done = subprocess.run(
        [*UNOX, "tournament", "demo", "--seed", "4"], capture_output=True, text=True, timeout=WAIT * 2
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("started a private mosquitto on 127.0.0.1:")
    assert lines[-1] == "stopped the private mosquitto"
    assert "28 hands per player: 56 hands in all at 2 tables" in done.stdout
    port = lines[0].split(":")[1].split()[0]
    assert subprocess.run(["pgrep", "-f", f"listener {port}"], capture_output=True).returncode != 0


def test_lines_from_several_threads_never_merge():
    """Issue 26 item 7: `tournament demo` once merged two tables' lines: print writes a line and its newline
    apart, and the two tables' relays printed at once. Each line now comes out whole."""
    import io
    import threading

    from unox.tournament.demo import one_at_a_time

    out = io.StringIO()
    switch = threading.Barrier(2, timeout=10)

    def print_like(line: str) -> None:
        """print's two writes, the other thread let in between: without the lock both meet at the barrier
        and their lines interleave; with it the barrier's short wait runs out (a few times in all)."""
        out.write(line)
        try:
            switch.wait(timeout=0.05)
        except threading.BrokenBarrierError:
            switch.reset()
        out.write("\n")

    say = one_at_a_time(print_like)
    threads = [threading.Thread(target=lambda n=n: [say(f"table {n} | line {i}") for i in range(5)])
               for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    lines = out.getvalue().splitlines()
    assert sorted(lines) == sorted(f"table {n} | line {i}" for n in (1, 2) for i in range(5))


def test_the_demo_runs_on_a_broker_set_up_by_install_broker_one_user_per_client(broker):
    """Issue 24: under the ACL `unox install broker` writes (the fixture's), each client publishes only as its
    own user. The demo once gave one user to every client, so the tables' results (or the coordinator's
    schedule) were dropped and it timed out; now it takes the address of each client."""
    urls = [broker.url(user, "demo-acl") for user in ("coordinator", "table1", "table2")]
    done = subprocess.run(
        [*UNOX, "tournament", "demo", "--seed", "4", "--json",
         *[word for url in urls for word in ("--broker", url)]],
        capture_output=True, text=True, timeout=WAIT * 2,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    standings = json.loads(done.stdout.strip().splitlines()[-1])
    assert standings["results"] == 56 and standings["hands_per_player"] == 28
    assert all(broker.users[user] not in done.stdout + done.stderr for user in ("table1", "table2"))


def test_the_demo_with_one_club_user_for_every_client_says_what_it_needs(broker):
    done = subprocess.run(
        [*UNOX, "tournament", "demo", "--broker", broker.url("coordinator", "demo-acl")],
        capture_output=True, text=True, timeout=WAIT,
    )
    assert done.returncode != 0 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert "one --broker per client" in line and "missing: table1, table2" in line
    assert broker.users["coordinator"] not in line
