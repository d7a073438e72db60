"""Only unox journals are written, and one table at a time (issue 7, items 4 and 5)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from unox.cli.main import main
from unox.table.journal import Journal, JournalBusy
from unox.table.journal_file import APPLICATION_ID, SCHEMA_VERSION

from .tablekit import accept, ask, fingerprint, new_table, table_process


def foreign_database(path, *, wal=False):
    """Another application's SQLite file (a photo catalogue), in WAL mode or not."""
    db = sqlite3.connect(path, isolation_level=None)
    if wal:
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO photos (name) VALUES ('beach.jpg')")
    db.close()


@pytest.mark.parametrize("wal", [False, True], ids=["rollback", "wal"])
@pytest.mark.parametrize("option", ["--journal", "--resume"])
def test_another_applications_sqlite_file_is_refused_before_anything_is_written(
    tmp_path, option, wal, one_line_error
):
    path = tmp_path / "photos.db"
    foreign_database(path, wal=wal)
    before = fingerprint(tmp_path)
    args = ["--players", "Ann,Bob"] if option == "--journal" else []
    assert main(["table", *args, option, str(path)]) == 1
    err = one_line_error()
    assert "not a unox journal" in err and "photos" in err and "changed nothing" in err
    assert fingerprint(tmp_path) == before


def test_a_file_with_another_application_id_is_refused(tmp_path, one_line_error):
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id=1234")
    db.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE requests (seq INTEGER PRIMARY KEY AUTOINCREMENT, request TEXT NOT NULL);"
    )
    db.close()
    before = fingerprint(tmp_path)
    assert main(["table", "--resume", str(path)]) == 1
    assert "application_id" in one_line_error()
    assert fingerprint(tmp_path) == before


def test_a_text_file_is_refused_unchanged(tmp_path, one_line_error):
    path = tmp_path / "notes.txt"
    path.write_text("shopping list: milk, eggs\n" * 50)
    assert main(["table", "--players", "Ann,Bob", "--journal", str(path)]) == 1
    assert "not an SQLite file" in one_line_error()
    assert path.read_text() == "shopping list: milk, eggs\n" * 50


def test_a_new_journal_is_marked_with_unox_application_id_and_schema_version(tmp_path):
    path = tmp_path / "t.db"
    table = new_table(journal=Journal(path))
    accept(table, cmd="deal", dealer="Ann")
    table.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_opening_a_missing_journal_to_read_creates_nothing(tmp_path):
    with Journal(tmp_path / "t.db") as journal:
        assert journal.entries() == [] and journal.settings is None
    assert list(tmp_path.iterdir()) == []


class ReadOnly:
    """Makes a path read-only for this process, even for root (who ignores mode bits): `chattr +i`."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self) -> Path:
        if os.geteuid() != 0:
            self.path.chmod(0o555 if self.path.is_dir() else 0o444)
        elif subprocess.run(["chattr", "+i", str(self.path)], capture_output=True).returncode != 0:
            pytest.skip("root, and chattr +i is not available here: the file system cannot refuse a write")
        return self.path

    def __exit__(self, *exc) -> None:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(self.path)], capture_output=True)
        else:
            self.path.chmod(0o755 if self.path.is_dir() else 0o644)


def test_a_read_only_folder_is_reported_as_a_permissions_problem(tmp_path, one_line_error):
    folder = tmp_path / "locked"
    folder.mkdir()
    with ReadOnly(folder):
        assert main(["table", "--players", "Ann,Bob", "--journal", str(folder / "t.db")]) == 1
        err = one_line_error()
    assert "permission denied" in err and "not a unox journal" not in err
    assert list(folder.iterdir()) == []


def test_a_read_only_journal_is_reported_as_a_permissions_problem_and_still_checks(
    tmp_path, one_line_error, capsys
):
    path = tmp_path / "t.db"
    table = new_table(journal=Journal(path))
    accept(table, cmd="deal", dealer="Ann")
    table.close()
    with ReadOnly(path):
        assert main(["table", "--resume", str(path)]) == 1
        err = one_line_error()
        assert main(["journal", "check", str(path)]) == 0  # reading needs no write
        assert "every row replays" in capsys.readouterr().out
    assert "permission denied" in err and "not a unox journal" not in err


def unox(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "unox", *args], input="", capture_output=True, text=True, timeout=60
    )


def test_a_second_process_on_a_running_journal_is_refused_naming_the_pid(tmp_path):
    path = tmp_path / "t.db"
    first = table_process("--players", "Ann,Bob,Cy", "--journal", str(path))
    try:
        assert ask(first, {"cmd": "deal", "dealer": "Ann"})["ok"]
        for args in (
            ["table", "--resume", str(path)],
            ["table", "--players", "Ann,Bob", "--journal", str(path)],
            ["play", "--plain", "--resume", str(path)],
            ["play", "--plain", "--continue", str(path), "--players", "Ann,Bob"],
        ):
            second = unox(*args)
            assert second.returncode == 1, (args, second.stderr)
            assert second.stderr.count("\n") == 1, second.stderr
            assert "already running" in second.stderr and f"PID {first.pid}" in second.stderr
        assert ask(first, {"cmd": "flip", "card": "G7"})["ok"]  # the first table goes on, alone
    finally:
        first.stdin.close()
        assert first.wait(timeout=60) == 0
        first.stdout.close()
        first.stderr.close()
    with Journal(path) as journal:
        assert journal.entries() == [{"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip", "card": "G7"}]
    assert not Path(f"{path}.lock").exists()  # a clean end gives the lock back
    assert unox("table", "--resume", str(path)).returncode == 0


def test_a_killed_tables_lock_is_free_for_the_resume(tmp_path):
    path = tmp_path / "t.db"
    first = table_process("--players", "Ann,Bob,Cy", "--journal", str(path))
    assert ask(first, {"cmd": "deal", "dealer": "Ann"})["ok"]
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=60)
    for stream in (first.stdin, first.stdout, first.stderr):
        stream.close()
    resumed = unox("table", "--resume", str(path))
    assert resumed.returncode == 0, resumed.stderr


def test_two_tables_in_one_process_cannot_share_a_journal(tmp_path):
    path = tmp_path / "t.db"
    table = new_table(journal=Journal(path))
    accept(table, cmd="deal", dealer="Ann")
    with pytest.raises(JournalBusy, match="already running"):
        new_table(journal=Journal(path))
    reader = Journal(path)  # reading beside the running table is fine, and takes no lock
    assert reader.entries() == [{"cmd": "deal", "dealer": "Ann"}]
    reader.close()
    accept(table, cmd="flip", card="G7")
    table.close()


def test_a_journal_in_a_missing_folder_says_to_create_the_folder(tmp_path, one_line_error):
    assert main(["table", "--players", "Ann,Bob", "--journal", str(tmp_path / "no" / "t.db")]) == 1
    assert "no folder" in one_line_error()
    assert list(tmp_path.iterdir()) == []
