"""A seat replaced in the middle of a round stops that round at once: the other process plays the table now,
so the replaced one fires and books nothing more, says it was replaced, and exits non-zero (before, only a
seat waiting between rounds heard it: a `play` seat went on taking the round's cards and exited 0)."""

from __future__ import annotations

import subprocess

from unox.table.journal import Journal
from unox.tournament.join import round_journal
from unox.tournament.schedule import Plan

from .kit import C_V2_PLAYERS, UNOX, WAIT, coordinator_here, kill_left, read_until

LAUNCHER = "sim:?seed=5&cards=60&jam=0&double=0&stuck=0"


def _seat(command: list[str], broker, journal) -> subprocess.Popen:
    """Table 1 of tournament `mid` under `unox COMMAND...`, on its own simulated launcher."""
    return subprocess.Popen(
        [*UNOX, *command, "--tournament", broker.url("table1", "mid"), "--table", "1", "--launcher", LAUNCHER,
         "--journal", str(journal)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _play(broker, journal) -> subprocess.Popen:
    return _seat(["play", "--plain"], broker, journal)


def _say(process: subprocess.Popen, line: str) -> None:
    process.stdin.write(line + "\n")
    process.stdin.flush()


def test_a_play_seat_replaced_mid_round_fires_and_books_nothing_more_and_exits_non_zero(broker, tmp_path):
    with coordinator_here(broker, tmp_path, "mid", Plan(tuple(C_V2_PLAYERS))):
        first = _play(broker, tmp_path / "a" / "table1.db")
        second = None
        try:
            read_until(first, "round 1, table 1")
            _say(first, "deal Ann")
            read_until(first, "Ann deals")
            second = _play(broker, tmp_path / "b" / "table1.db")
            read_until(first, "another process took this table's place")
            for line in ("flip G7", "press"):  # taken and fired before: the round stops instead
                _say(first, line)
            out = getattr(first, "_unread", "") + first.communicate(timeout=WAIT)[0]
            read_until(second, "round 1, table 1")
            assert second.poll() is None  # the newcomer plays the table
        finally:
            kill_left(first, second)
    last = out.strip().splitlines()[-1]
    assert first.returncode == 1, out
    assert "table 1 of mid" in last and "was replaced by another process" in last, out
    assert f"pid {second.pid}" in last
    assert "continue it with the same command" not in out
    with Journal(round_journal(tmp_path / "a" / "table1.db", 1)) as kept:
        assert [entry["cmd"] for entry in kept.entries()] == ["deal"]  # nothing booked after the deal
        assert kept.fires() == []  # nothing fired


def _table(broker, journal) -> subprocess.Popen:
    return _seat(["table"], broker, journal)


def test_a_protocol_table_replaced_mid_round_refuses_the_next_request_and_exits_non_zero(broker, tmp_path):
    """`unox table --tournament` (people over the table protocol): the request after the replacement is
    refused ("stopped"), nothing booked, and the command stops with the "was replaced" line."""
    with coordinator_here(broker, tmp_path, "mid", Plan(tuple(C_V2_PLAYERS))):
        first = _table(broker, tmp_path / "a" / "table1.db")
        second = None
        try:
            read_until(first, "round 1, table 1")
            _say(first, '{"cmd": "deal", "dealer": "Ann"}')
            read_until(first, '"ok":true')
            second = _table(broker, tmp_path / "b" / "table1.db")
            read_until(first, "another process took this table's place")
            _say(first, '{"cmd": "flip", "card": "G7"}')
            out = getattr(first, "_unread", "") + first.communicate(timeout=WAIT)[0]
        finally:
            kill_left(first, second)
    assert first.returncode == 1, out
    assert '"code":"stopped"' in out and "was replaced by another process" in out.strip().splitlines()[-1]
    with Journal(round_journal(tmp_path / "a" / "table1.db", 1)) as kept:
        assert [entry["cmd"] for entry in kept.entries()] == ["deal"]
