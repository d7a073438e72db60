"""Issue 24: every answer reaches the one who asked (failures 4, 5 and 6 of the issue): a refused result is
told to its table, a second process in one place is never a silent ping-pong, and a table or coordinator
that cannot play says so in one line, with nothing written and no password shown."""

from __future__ import annotations

import subprocess
import sys

import pytest
from unox.tournament.address import parse
from unox.tournament.broker import free_port
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import JournalError, ResultsJournal
from unox.tournament.link import LinkError
from unox.tournament.schedule import Plan
from unox.tournament.seat import SeatError, TableSeat, discover

from .kit import C_V2_PLAYERS, C_V3_PLAYERS, UNOX, WAIT, journal_rows, kill_left, read_until, table_process


def _coordinator(broker, tmp_path, name: str, players=C_V2_PLAYERS) -> tuple[Coordinator, ResultsJournal]:
    journal = ResultsJournal(tmp_path / f"{name}.db")
    coordinator = Coordinator(parse(broker.url("coordinator", name)), journal, Plan(tuple(players)),
                              say=lambda text: None).start()
    assert coordinator.link.wait_connected(WAIT)
    return coordinator, journal


def test_a_refused_result_is_told_to_its_table_shown_and_kept_out_of_sent(broker, tmp_path):
    coordinator, journal = _coordinator(broker, tmp_path, "refuse")
    said: list[str] = []
    seat = TableSeat(parse(broker.url("table1", "refuse")), 1, ResultsJournal(tmp_path / "table1.db"),
                     say=said.append).start()
    try:
        assert seat.link.wait_connected(WAIT)
        # C-V2 round 1 seats Ann, Bob, Cy, Dee: points for "Zed" do not fit the schedule
        seat.report({"hand_id": "r1-t1-h1", "round": 1, "table": 1, "hand": 1, "went_out": "Ann",
                     "points": {"Ann": 0, "Bob": 3, "Cy": 4, "Zed": 5}})
        seat.flush(WAIT)  # nothing waits for a receipt any more: the refusal was the answer
        refused = seat.refused()
        with pytest.raises(SeatError, match=r"round 2 cannot open, the coordinator refused hand r1-t1-h1"):
            seat.wait_round(2, WAIT)
    finally:
        seat.stop()
        seat.journal.close()
        coordinator.stop()
        journal.close()
    assert list(refused) == ["r1-t1-h1"] and "needs the points of Ann, Bob, Cy, Dee" in refused["r1-t1-h1"]
    assert [line for line in said if "refused hand r1-t1-h1" in line and "not counted" in line]
    (row,) = journal_rows(tmp_path / "table1.db")
    assert row["_acked"] == -1  # neither sent-and-counted (1) nor waiting to be sent again (0)
    assert coordinator.counted() == 0


def test_a_second_process_as_the_same_table_replaces_the_first_which_says_so(broker, tmp_path):
    """C-V3: table 1 plays round 1 and waits for round 2 (table 2 never comes). A second table 1 takes its
    place; the first stops with one line, and the round's hands are counted once."""
    coordinator, journal = _coordinator(broker, tmp_path, "twice", C_V3_PLAYERS)
    first = table_process(broker.url("table1", "twice"), 1, tmp_path / "first.db")
    second = None
    try:
        read_until(first, "hand 4:")
        second = table_process(broker.url("table1", "twice"), 1, tmp_path / "second.db")
        out = getattr(first, "_unread", "") + first.communicate(timeout=WAIT)[0]
        read_until(second, "hand 4:")
        assert second.poll() is None, (getattr(second, "_unread", ""), second.communicate())  # it goes on
    finally:
        kill_left(first, second)
        coordinator.stop()
        copies = journal.copies()
        journal.close()
    last = out.strip().splitlines()[-1]
    assert first.returncode == 1 and "table 1 of twice" in last and "was replaced by another process" in last
    assert f"pid {second.pid}" in last
    assert sorted(copies) == [f"r1-t1-h{h}" for h in range(1, 5)]  # each hand once, whoever sent it


def test_a_second_coordinator_of_the_same_name_replaces_the_first_which_says_so(broker, tmp_path):
    def start(journal: str, *more: str) -> subprocess.Popen:
        process = subprocess.Popen(
            [*UNOX, "tournament", "start", "--broker", broker.url("coordinator", "club"), "--players",
             ",".join(C_V3_PLAYERS), "--journal", str(tmp_path / journal), *more],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert "tournament club: id" in process.stderr.readline()  # the broker took it
        return process

    old = start("old.db")
    new = start("new.db", "--replace")  # on purpose: without it the start is refused (test_second_start)
    try:
        _, err = old.communicate(timeout=WAIT)
        assert new.poll() is None
    finally:
        kill_left(old, new)
    last = err.strip().splitlines()[-1]
    assert old.returncode == 1 and "the coordinator of club" in last and "was replaced" in last, err
    assert f"pid {new.pid}" in last


def test_a_replaced_coordinator_with_a_standings_page_stops_serving_it_and_says_so(broker, tmp_path):
    old = subprocess.Popen(
        [*UNOX, "tournament", "serve", "--port", "0", "--host", "127.0.0.1", "--broker",
         broker.url("coordinator", "tv"), "--players", ",".join(C_V2_PLAYERS), "--journal",
         str(tmp_path / "a.db")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    new = None
    try:
        read_until(old, "the standings are at")
        new = subprocess.Popen(
            [*UNOX, "tournament", "start", "--broker", broker.url("coordinator", "tv"), "--players",
             ",".join(C_V2_PLAYERS), "--journal", str(tmp_path / "b.db"), "--replace"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        _, err = old.communicate(timeout=WAIT)
    finally:
        kill_left(old, new)
    last = err.strip().splitlines()[-1]
    assert old.returncode == 1 and "the coordinator of tv" in last and "was replaced" in last, err


def test_a_table_number_the_schedule_does_not_have_is_one_line_and_writes_nothing(broker, tmp_path):
    coordinator, journal = _coordinator(broker, tmp_path, "two", C_V3_PLAYERS)  # 8 players: 2 tables
    try:
        done = subprocess.run(
            [*UNOX, "table", "--tournament", broker.url("table3", "two"), "--table", "3", "--bots", "random",
             "--journal", str(tmp_path / "table3.db")],
            capture_output=True, text=True, timeout=WAIT, stdin=subprocess.DEVNULL)
    finally:
        coordinator.stop()
        journal.close()
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "--table 3: two's tournament" in done.stderr and "has 2 tables; give 1 to 2" in done.stderr
    assert "every result is in" not in done.stdout
    assert not (tmp_path / "table3.db").exists()


def test_a_name_no_tournament_has_is_said_after_a_few_seconds(broker):
    with pytest.raises(SeatError, match=r"no tournament named 'nobody' on the broker .*check the name"):
        discover(parse(broker.url("table1", "nobody")), 1, name_wait=0.3)


def test_a_broker_that_does_not_answer_is_said(tmp_path):
    port = free_port()  # nothing listens there
    with pytest.raises(LinkError, match=rf"no broker answered at 127.0.0.1:{port} within 0.3 s"):
        discover(parse(f"mqtt://table1:x@127.0.0.1:{port}/club"), 1, connect=0.3)


def test_a_coordinator_the_broker_refuses_writes_no_journal(broker, tmp_path):
    url = broker.url("coordinator", "club").replace(broker.users["coordinator"], "wrong")
    done = subprocess.run(
        [*UNOX, "tournament", "start", "--broker", url, "--players", ",".join(C_V3_PLAYERS), "--journal",
         str(tmp_path / "club.db")],
        capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "refused coordinator" in done.stderr and "Nothing was written" in done.stderr
    assert not (tmp_path / "club.db").exists()  # so the same command runs again once the password is right


def test_a_journal_in_use_never_shows_the_other_process_password(tmp_path):
    path = tmp_path / "table1.db"
    ResultsJournal(path).close()
    (tmp_path / "hold.py").write_text(
        "import fcntl, os, sys\nfd = os.open(sys.argv[2], os.O_RDONLY)\nfcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('locked', flush=True)\nsys.stdin.read()\n")
    holder = subprocess.Popen(  # as `unox table --tournament URL ...` holds its journal
        [sys.executable, "hold.py", "mqtt://table1:hunter2secret@127.0.0.1/club", "table1.db"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(JournalError) as refused:
            ResultsJournal(path)
    finally:
        holder.stdin.close()
        holder.wait(WAIT)
    message = str(refused.value)
    assert f"PID {holder.pid}" in message and "mqtt://table1:***@127.0.0.1/club" in message
    assert "hunter2secret" not in message


def test_a_receipt_faster_than_the_tables_own_commit_is_kept_and_applied_after_it(tmp_path):
    """The table sends a result while it journals it (one disk flush on the way, not two): a receipt that
    comes back before the commit is applied once the row is there, so the result is not sent again."""
    plan = Plan(tuple(C_V2_PLAYERS))
    sent: list[dict] = []

    class EchoLink:  # the coordinator answers at once, before the table's record() has committed
        refused = None  # never replaced

        def publish(self, topic: str, result: dict) -> None:
            sent.append({**result, "_journalled": journal.has(result["hand_id"])})
            seat._on_ack("ack/1", {"hand_id": result["hand_id"], "id": plan.tournament, "ok": True})

    with ResultsJournal(tmp_path / "table1.db") as journal:
        seat = TableSeat(parse("mqtt://table1:x@127.0.0.1/fast"), 1, journal)
        seat.tournament, seat.link = plan.tournament, EchoLink()
        seat.report({"hand_id": "r1-t1-h1", "round": 1, "table": 1, "hand": 1, "went_out": "Ann",
                     "points": {"Ann": 0, "Bob": 3, "Cy": 0, "Dee": 4}})
        assert seat.unsent() == 0 and journal.has("r1-t1-h1")
    assert [(result["tournament"], result["_journalled"]) for result in sent] == [(plan.tournament, False)]
    assert journal_rows(tmp_path / "table1.db")[0]["_acked"] == 1


def test_a_coordinators_journal_in_use_is_called_the_tournament_journal(broker, tmp_path):
    """A second `tournament start` on a journal another coordinator holds: one line that names it as the
    tournament journal (it said "the table in club.db"), nothing written to it."""
    with ResultsJournal(tmp_path / "club.db") as held:
        held.set("plan", Plan(tuple(C_V2_PLAYERS)).to_json())
        before = (tmp_path / "club.db").read_bytes()
        done = subprocess.run(
            [*UNOX, "tournament", "start", "--broker", broker.url("coordinator", "busy"), "--resume",
             str(tmp_path / "club.db")],
            capture_output=True, text=True, timeout=WAIT, stdin=subprocess.DEVNULL)
        assert (tmp_path / "club.db").read_bytes() == before
    (line,) = done.stderr.splitlines()
    assert done.returncode == 1, done.stderr
    assert f"the tournament journal {tmp_path / 'club.db'} is already open in another unox" in line
    assert "the table in" not in line and line.endswith("use that one, or stop it first")
