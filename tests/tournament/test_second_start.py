"""Issue t2: a second `unox tournament start` under a running tournament's name.

The coordinator's retained presence says it is alive (and which tournament it runs) until it stops cleanly
or the broker sends its will. A new tournament under the name of a live one is refused in one line with
nothing written; `--replace` takes the place on purpose; the same tournament's `--resume` goes ahead; a name
whose coordinator ended, or was killed and its will sent, starts again without `--replace`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time

from unox.tournament import topics
from unox.tournament.address import parse
from unox.tournament.link import Link
from unox.tournament.schedule import Plan

from .kit import C_V2_PLAYERS, UNOX, WAIT, bot_tables, kill_left, night_in_process, read_until


def _start(broker, name: str, *more: str) -> subprocess.Popen:
    """`unox tournament start` of a new C-V2 tournament (or whatever `more` says), stderr into stdout."""
    options = list(more) if "--resume" in more else ["--players", ",".join(C_V2_PLAYERS), *more]
    return subprocess.Popen([*UNOX, "tournament", "start", "--broker", broker.url("coordinator", name),
                             *options, "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL)


def _open(process: subprocess.Popen) -> str:
    """Wait until it opened round 1 (its presence is claimed by then); its tournament id."""
    lines = read_until(process, "round 1 of 3 is open")
    said = next(line for line in lines if ": id " in line)
    return said.split(": id ", 1)[1].split()[0]


class Presence:
    """The retained coordinator presence of one name, as a listener on the broker sees it."""

    def __init__(self, broker, name: str):
        self.seen: list[dict] = []
        self.arrived = threading.Condition()
        watched = {topics.presence(name, "coordinator"): self._on}
        self.link = Link(parse(broker.url("table1", name)), "", watched, persistent=False).start()
        assert self.link.wait_connected(WAIT)

    def _on(self, topic: str, payload: object) -> None:
        if isinstance(payload, dict):
            with self.arrived:
                self.seen.append(payload)
                self.arrived.notify_all()

    def wait(self, check, what: str) -> dict:
        with self.arrived:
            assert self.arrived.wait_for(lambda: self.seen and check(self.seen[-1]), WAIT), (what, self.seen)
            return self.seen[-1]

    def stop(self) -> None:
        self.link.stop()


def test_a_second_new_tournament_under_a_running_ones_name_is_refused_and_writes_nothing(broker, tmp_path):
    """The refusal names the running coordinator and what to do; no journal file; the first one goes on and
    its table plays the whole tournament."""
    first = _start(broker, "club", "--journal", str(tmp_path / "first.db"))
    try:
        running = _open(first)
        second = subprocess.run([*UNOX, "tournament", "start", "--broker", broker.url("coordinator", "club"),
                                 "--players", ",".join(C_V2_PLAYERS), "--journal", "second.db"],
                                capture_output=True, text=True, timeout=WAIT, cwd=tmp_path)
        assert second.returncode == 1 and len(second.stderr.splitlines()) == 1, second.stderr
        line = second.stderr
        assert f"runs tournament {running} (pid {first.pid} on " in line, line
        assert "nothing was written" in line and "--resume JOURNAL" in line and "--replace" in line, line
        assert not (tmp_path / "second.db").exists()
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith("second")] == []
        with bot_tables(broker, tmp_path, "club", (1,), seed=5):
            pass  # the running tournament's table played every round
        out, _ = first.communicate(timeout=WAIT)
    finally:
        kill_left(first)
    assert first.returncode == 0, out
    standings = json.loads(out.strip().splitlines()[-1])
    assert standings["over"] and standings["results"] == len(Plan(tuple(C_V2_PLAYERS)).hands())


def test_replace_takes_the_running_coordinators_place_and_the_old_one_says_so(broker, tmp_path):
    old = _start(broker, "club", "--journal", str(tmp_path / "old.db"))
    new = None
    try:
        _open(old)
        new = _start(broker, "club", "--journal", str(tmp_path / "new.db"), "--replace")
        replacing = _open(new)
        out, _ = old.communicate(timeout=WAIT)
        assert new.poll() is None
        presence = Presence(broker, "club")
        try:
            now = presence.wait(lambda p: True, "the retained presence")
        finally:
            presence.stop()
    finally:
        kill_left(old, new)
    last = out.strip().splitlines()[-1]
    assert old.returncode == 1 and "the coordinator of club" in last and "was replaced" in last, out
    assert now["alive"] is True and now["tournament"] == replacing and now["pid"] == new.pid


def test_a_name_whose_tournament_ended_or_was_stopped_starts_again_without_replace(broker, tmp_path):
    """Last week's night ended (every hand in) and its coordinator stopped: this week's starts, and its own
    schedule, not last week's ended one, is what the broker keeps. A coordinator stopped with Ctrl-C frees
    the name too."""
    last_week = Plan(tuple(C_V2_PLAYERS))
    (tmp_path / "week1").mkdir()
    night_in_process(broker, tmp_path / "week1", "club", last_week, (1,), seed=1)
    presence = Presence(broker, "club")
    stopped = this_week = None
    try:
        gone = presence.wait(lambda p: p.get("tournament") == last_week.tournament, "last week's presence")
        assert gone["alive"] is False
        stopped = _start(broker, "club", "--journal", str(tmp_path / "stopped.db"))
        first = _open(stopped)
        assert presence.wait(lambda p: p.get("tournament") == first, "its presence")["alive"] is True
        stopped.send_signal(signal.SIGINT)
        stopped.communicate(timeout=WAIT)
        assert presence.wait(lambda p: p.get("tournament") == first and not p["alive"], "gone")
        this_week = _start(broker, "club", "--journal", str(tmp_path / "club.db"))
        now = _open(this_week)
        assert now not in (last_week.tournament, first)
        assert presence.wait(lambda p: p.get("tournament") == now, "this week's presence")["alive"] is True
        with bot_tables(broker, tmp_path, "club", (1,), seed=2):
            pass  # this week's table joined by name and played this week's schedule
        out, _ = this_week.communicate(timeout=WAIT)
    finally:
        presence.stop()
        kill_left(stopped, this_week)
    assert this_week.returncode == 0, out
    assert json.loads(out.strip().splitlines()[-1])["results"] == len(last_week.hands())


def test_a_killed_coordinators_will_frees_its_name(broker, tmp_path):
    """kill -9: the broker sends the will (alive false) as soon as the connection drops, and a new
    tournament starts under the name without --replace."""
    presence = Presence(broker, "club")
    killed = new = None
    try:
        killed = _start(broker, "club", "--journal", str(tmp_path / "killed.db"))
        old = _open(killed)
        assert presence.wait(lambda p: p.get("tournament") == old, "its presence")["alive"] is True
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(WAIT)
        will = presence.wait(lambda p: p.get("tournament") == old and p["alive"] is False, "its will")
        assert will["pid"] == killed.pid
        new = _start(broker, "club", "--journal", str(tmp_path / "new.db"))
        assert _open(new) != old
    finally:
        presence.stop()
        kill_left(killed, new)


def test_resume_of_the_same_tournament_goes_on_while_its_killed_coordinator_looks_alive(broker, tmp_path):
    """A power cut: the broker has not yet noticed (its will is not out), so the presence still says the
    tournament runs. Its own `--resume` takes over as before; a new tournament is refused meanwhile."""
    killed = resumed = None
    try:
        killed = _start(broker, "club", "--journal", str(tmp_path / "club.db"))
        tournament = _open(killed)
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(WAIT)
        # what the broker would still hold from a machine that lost power: its presence, alive
        stale = {"token": "0" * 16, "pid": 4242, "host": "powercut", "started": time.time() - 60,
                 "tournament": tournament, "boot": "00000000", "alive": True}
        writer = Link(parse(broker.url("coordinator", "club")), "", {}, persistent=False).start()
        try:
            assert writer.wait_connected(WAIT)
            writer.publish(topics.presence("club", "coordinator"), stale, retain=True).wait_for_publish(WAIT)
        finally:
            writer.stop()
        refused = subprocess.run([*UNOX, "tournament", "start", "--broker", broker.url("coordinator", "club"),
                                  "--players", ",".join(C_V2_PLAYERS), "--journal", str(tmp_path / "b.db")],
                                 capture_output=True, text=True, timeout=WAIT)
        assert refused.returncode == 1 and "(pid 4242 on powercut, since " in refused.stderr, refused.stderr
        assert not (tmp_path / "b.db").exists()
        resumed = _start(broker, "club", "--resume", str(tmp_path / "club.db"))
        assert _open(resumed) == tournament
        with bot_tables(broker, tmp_path, "club", (1,), seed=3):
            pass
        out, _ = resumed.communicate(timeout=WAIT)
    finally:
        kill_left(killed, resumed)
    assert resumed.returncode == 0, out
    assert json.loads(out.strip().splitlines()[-1])["over"]


def test_resume_of_another_tournaments_journal_under_a_running_ones_name_is_refused(broker, tmp_path):
    """Last week's journal resumed by mistake while tonight's coordinator runs: the same refusal, and the
    journal is left as it was."""
    from unox.tournament.journal import ResultsJournal

    with ResultsJournal(tmp_path / "last-week.db") as journal:  # as `tournament start` keeps it
        journal.set("plan", Plan(tuple(C_V2_PLAYERS)).to_json())
        journal.set("name", "club")
    before = (tmp_path / "last-week.db").read_bytes()
    running = _start(broker, "club", "--journal", str(tmp_path / "tonight.db"))
    try:
        tonight = _open(running)
        refused = subprocess.run([*UNOX, "tournament", "start", "--broker", broker.url("coordinator", "club"),
                                  "--resume", str(tmp_path / "last-week.db")],
                                 capture_output=True, text=True, timeout=WAIT)
        assert running.poll() is None
    finally:
        kill_left(running)
    assert refused.returncode == 1 and len(refused.stderr.splitlines()) == 1, refused.stderr
    assert f"runs tournament {tonight} (pid {running.pid} on " in refused.stderr, refused.stderr
    assert (tmp_path / "last-week.db").read_bytes() == before  # read to learn its id, never written
    wal = tmp_path / "last-week.db-wal"  # SQLite's reader may make it (and its index), empty
    assert not wal.exists() or wal.stat().st_size == 0
