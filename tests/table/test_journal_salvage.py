"""Issue 13 item 6: a journal cut short (a full disk, a copy that stopped) or with a broken page is called
damaged, not "not a unox journal"; `unox journal repair` saves every row SQLite can still read into a new
file and keeps the old one as it was. The CLI runs as a subprocess, as a user meets it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from unox.table.journal import Journal

from .tablekit import fingerprint, new_table

PAGE = 4096


def unox(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "unox", *args], input="", capture_output=True, text=True,
                          timeout=60, cwd=cwd)


@pytest.fixture
def long_journal(tmp_path) -> tuple[Path, list[tuple[int, str]]]:
    """A closed journal of a few hundred rows over a dozen pages, and its rows as written."""
    path = tmp_path / "j.db"
    table = new_table(journal=Journal(path), seed=1)
    assert table.handle({"cmd": "deal", "dealer": "Ann"})["ok"]
    assert table.handle({"cmd": "flip", "card": "G7"})["ok"]
    for _ in range(400):
        reply = table.handle({"cmd": "press", "player": table.state()["plays_next"], "fired": 0})
        assert reply["ok"], reply
    table.close()
    with Journal(path) as journal:
        rows = journal.raw_rows()
    assert path.stat().st_size >= 12 * PAGE
    return path, rows


def cut(path: Path, pages: int) -> None:
    with open(path, "r+b") as file:
        file.truncate(pages * PAGE)


def break_page(path: Path, page: int) -> None:
    with open(path, "r+b") as file:
        file.seek((page - 1) * PAGE)
        file.write(b"\xff" * PAGE)


def saved_rows(path: Path) -> list[tuple[int, str]]:
    with Journal(path) as journal:
        return journal.raw_rows()


@pytest.mark.parametrize("damage", ["cut", "broken page"])
def test_a_damaged_journal_is_called_damaged_and_left_as_it_is(long_journal, damage):
    path, _ = long_journal
    cut(path, 10) if damage == "cut" else break_page(path, 9)
    before = fingerprint(path.parent)
    for args in (["journal", "check", "j.db"], ["play", "--plain", "--resume", "j.db"],
                 ["table", "--resume", "j.db"]):
        done = unox(*args, cwd=path.parent)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert "j.db is a damaged unox journal" in done.stderr and "not a unox journal" not in done.stderr
        assert "unox journal repair j.db" in done.stderr
    assert fingerprint(path.parent) == before


def test_repair_of_a_cut_journal_saves_every_readable_row_into_a_new_file(long_journal):
    path, rows = long_journal
    cut(path, 10)
    before = fingerprint(path.parent)
    done = unox("journal", "repair", "j.db", cwd=path.parent)
    assert done.returncode == 0, done.stderr
    new = path.parent / "j.repaired.db"
    saved = saved_rows(new)
    assert 0 < len(saved) < len(rows)
    assert saved == rows[: len(saved)]  # the rows before the cut, exactly as written
    with Journal(new) as journal:
        assert journal.settings["players"] == ["Ann", "Bob", "Cy"]
    assert f"saved the {len(saved) + 3} rows" in done.stdout and "j.db is kept as it was" in done.stdout
    assert {name: digest for name, digest in fingerprint(path.parent).items() if name != new.name} == before
    resumed = unox("play", "--plain", "--resume", new.name, cwd=path.parent)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(saved)} accepted events replayed" in resumed.stdout


def test_repair_saves_the_rows_on_both_sides_of_a_broken_page(long_journal):
    path, rows = long_journal
    break_page(path, 9)
    done = unox("journal", "repair", "j.db", cwd=path.parent)
    assert "j.db is damaged: saved the" in done.stdout, done.stderr
    saved = saved_rows(path.parent / "j.repaired.db")
    assert set(saved) < set(rows)  # every saved row as it was written, some lost with the page
    seqs = [seq for seq, _ in saved]
    gap = next(i for i in range(len(seqs) - 1) if seqs[i + 1] != seqs[i] + 1)
    assert seqs[: gap + 1] == list(range(1, gap + 2))  # all before the broken page
    assert seqs[gap + 1 :] == list(range(seqs[gap + 1], len(rows) + 1))  # and all after it


def test_another_programs_damaged_database_is_still_not_ours(tmp_path):
    path = tmp_path / "photos.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    db.executemany("INSERT INTO photos (name) VALUES (?)", [("x" * 500,)] * 100)
    db.commit()
    db.close()
    cut(path, 3)
    done = unox("journal", "repair", "photos.db", cwd=tmp_path)
    assert done.returncode == 1 and "not a unox journal" in done.stderr and "damaged" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["photos.db"]
