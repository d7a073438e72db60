"""The journal: SQLite in WAL mode, each request committed by the time append() returns."""

from __future__ import annotations

import sqlite3

import pytest
from unox.table.journal import SCHEMA_VERSION, Journal, JournalError

REQUESTS = [
    {"cmd": "deal", "dealer": "Ann"},
    {"cmd": "flip", "card": "G7"},
    {"cmd": "press", "player": "Bob", "fired": 3},
]


def test_entries_come_back_in_order_after_reopening(tmp_path):
    path = tmp_path / "t.db"
    with Journal(path) as journal:
        for request in REQUESTS:
            journal.append(request)
    with Journal(path) as journal:
        assert journal.entries() == REQUESTS
        assert len(journal) == len(REQUESTS)


def test_journal_uses_wal_mode(tmp_path):
    path = tmp_path / "t.db"
    with Journal(path) as journal:
        journal.append(REQUESTS[0])
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_append_is_committed_before_it_returns(tmp_path):
    """Another connection (a process after a crash) already sees the row: no open transaction holds it."""
    path = tmp_path / "t.db"
    journal = Journal(path)
    journal.append(REQUESTS[0])
    other = sqlite3.connect(path)
    rows = other.execute("SELECT request FROM requests").fetchall()
    other.close()
    assert len(rows) == 1
    assert not journal._db.in_transaction
    journal.close()


def test_discard_removes_only_that_row(tmp_path):
    with Journal(tmp_path / "t.db") as journal:
        seqs = [journal.append(request) for request in REQUESTS]
        journal.discard(seqs[1])
        assert journal.entries() == [REQUESTS[0], REQUESTS[2]]
        assert [seq for seq, _ in journal.rows()] == [seqs[0], seqs[2]]


def test_truncate_last_drops_the_newest_and_returns_it(tmp_path):
    with Journal(tmp_path / "t.db") as journal:
        for request in REQUESTS:
            journal.append(request)
        assert journal.truncate_last() == REQUESTS[-1]
        assert journal.entries() == REQUESTS[:-1]


def test_truncate_last_on_an_empty_journal_returns_none(tmp_path):
    with Journal(tmp_path / "t.db") as journal:
        assert journal.truncate_last() is None
        assert journal.entries() == []


def test_sequence_numbers_are_not_reused_after_a_discard(tmp_path):
    """A row id is never handed out twice, so a stale discard can never hit a newer request."""
    with Journal(tmp_path / "t.db") as journal:
        first = journal.append(REQUESTS[0])
        journal.discard(first)
        assert journal.append(REQUESTS[1]) > first


def test_settings_survive_reopening(tmp_path):
    path = tmp_path / "t.db"
    settings = {"players": ["Ann", "Bob"], "scoring": "g2", "target": 300, "seed": 4}
    with Journal(path) as journal:
        assert journal.settings is None
        journal.settings = settings
    with Journal(path) as journal:
        assert journal.settings == settings
        assert journal.get_meta("version") == SCHEMA_VERSION


def test_a_file_that_is_not_sqlite_is_refused_with_advice(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping list: milk, eggs, bread, and a great deal more text " * 20)
    with pytest.raises(JournalError, match="not a unox journal") as caught:
        Journal(path)
    assert "new file name" in str(caught.value)


def test_a_journal_of_another_version_is_refused(tmp_path):
    path = tmp_path / "t.db"
    with Journal(path) as journal:
        journal.append(REQUESTS[0])
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(JournalError, match=f"version {SCHEMA_VERSION + 1}"):
        Journal(path)
