"""Issue 13, items 2 to 4: one table per journal whatever the path's spelling, failed starts leave the folder
as it was, and read-only places are one-line errors, never "please report it". Real `unox` processes."""

from __future__ import annotations

import os
import resource
import select
import subprocess
import sys
from pathlib import Path

import pytest
from unox.table.journal import Journal

from .tablekit import ask, fingerprint, table_process

BOUND_S = 60.0


def unox(*args: str, cwd: Path | None = None, preexec_fn=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "unox", *args], input="", capture_output=True, text=True,
                          timeout=BOUND_S, cwd=cwd, preexec_fn=preexec_fn)


def one_line(done: subprocess.CompletedProcess) -> str:
    """A user error: exit 1 and one line, not an internal error (exit 70, "please report it")."""
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert done.stderr.startswith("unox: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "please report" not in done.stderr
    return done.stderr


def finish(proc: subprocess.Popen) -> None:
    proc.stdin.close()
    assert proc.wait(timeout=BOUND_S) == 0, proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()


# -- item 2: the lock follows the file ------------------------------------------------------------


def test_every_spelling_of_a_running_journal_is_refused_even_after_its_lock_file_is_deleted(tmp_path):
    path = tmp_path / "t.db"
    first = table_process("--players", "Ann,Bob,Cy", "--journal", str(path))
    try:
        assert ask(first, {"cmd": "deal", "dealer": "Ann"})["ok"]
        Path(f"{path}.lock").unlink(missing_ok=True)  # a tidy-minded user (unox once kept one here)
        (tmp_path / "sub").mkdir()
        (tmp_path / "link.db").symlink_to(path)
        os.link(path, tmp_path / "hard.db")
        spellings = ["link.db", "hard.db", str(tmp_path / "sub" / ".." / "t.db"), "t.db"]
        for spelling in spellings:
            for args in (["table", "--resume", spelling], ["play", "--plain", "--resume", spelling]):
                err = one_line(unox(*args, cwd=tmp_path))
                assert "already running" in err and f"PID {first.pid}" in err, (spelling, err)
        assert ask(first, {"cmd": "flip", "card": "G7"})["ok"]  # the first table goes on, alone
    finally:
        finish(first)
    with Journal(path) as journal:
        assert journal.entries() == [{"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip", "card": "G7"}]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hard.db", "link.db", "sub", "t.db"]


def test_twenty_racing_starts_on_one_new_journal_under_three_spellings_one_wins(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.db").symlink_to(tmp_path / "j.db")  # dangling until a start makes j.db
    spellings = [tmp_path / "j.db", tmp_path / "sub" / ".." / "j.db", tmp_path / "link.db"]
    starts = [table_process("--players", "Ann,Bob", "--journal", str(spellings[i % 3])) for i in range(20)]
    deal = '{"cmd": "deal", "dealer": "Ann"}\n'
    replies = []
    for proc in starts:  # each start either holds the journal and answers, or has been refused and gone
        try:
            proc.stdin.write(deal)
            proc.stdin.flush()
        except BrokenPipeError:
            pass
    for proc in starts:  # a reply line from the winner, end of file from each refused start
        ready, _, _ = select.select([proc.stdout], [], [], BOUND_S)  # the bound is only met on failure
        replies.append(proc.stdout.readline() if ready else "no answer")
    winners = [proc for proc, reply in zip(starts, replies, strict=True) if reply]
    assert len(winners) == 1, replies
    for proc in starts:
        if proc is winners[0]:
            finish(proc)
            continue
        assert proc.wait(timeout=BOUND_S) == 1
        err = proc.stderr.read()
        assert "already running" in err and f"PID {winners[0].pid}" in err, err
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except BrokenPipeError:
                pass
    with Journal(tmp_path / "j.db") as journal:
        assert journal.entries() == [{"cmd": "deal", "dealer": "Ann"}]  # one table's rows, not mixed


# -- item 3: a failed start leaves the folder as it was ------------------------------------------


def test_resuming_an_empty_or_missing_file_writes_nothing(tmp_path):
    (tmp_path / "empty.db").touch()
    before = fingerprint(tmp_path)
    for args in (["table", "--resume", "empty.db"], ["play", "--plain", "--resume", "empty.db"]):
        assert "empty.db holds no table" in one_line(unox(*args, cwd=tmp_path))
    for args in (["table", "--resume", "none.db"], ["play", "--plain", "--resume", "none.db"],
                 ["journal", "check", "none.db"], ["journal", "repair", "none.db"]):
        assert "no journal at none.db" in one_line(unox(*args, cwd=tmp_path))
    assert fingerprint(tmp_path) == before  # still 0 bytes, and nothing new beside it


def small_file_limit() -> None:
    """A full disk, for this child only: files may not grow past 8 KB (Python ignores SIGXFSZ, so a
    write past it fails with EFBIG, as one on a full disk fails with ENOSPC)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))


def nearly_full_limit() -> None:
    """A nearly full disk: the journal's 7 pages (28 KB) fit, its 32 KB shared-memory file beside it
    does not, so the first write after the tables are made fails (issue 26 item 14)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (7 * 4096, 7 * 4096))


@pytest.mark.parametrize("limit", [small_file_limit, nearly_full_limit], ids=["full", "nearly_full"])
def test_a_start_on_a_full_disk_leaves_no_journal_and_no_lock_file(tmp_path, limit):
    for args in (
        ["table", "--players", "Ann,Bob", "--journal", "j.db"],
        ["play", "--plain", "--players", "Ann,Bob", "--journal", "j.db"],
        ["play", "--plain", "--players", "Ann,Bob", "--continue", "j.db"],
    ):
        err = one_line(unox(*args, cwd=tmp_path, preexec_fn=limit))
        assert "cannot write the journal j.db" in err and "disk" in err, err
        assert list(tmp_path.iterdir()) == [], args
    assert unox("table", "--players", "Ann,Bob", "--journal", "j.db", cwd=tmp_path).returncode == 0


# -- item 4: read-only places ---------------------------------------------------------------------


def played_journal(folder: Path) -> Path:
    path = folder / "j.db"
    proc = table_process("--players", "Ann,Bob,Cy", "--journal", str(path))
    assert ask(proc, {"cmd": "deal", "dealer": "Ann"})["ok"]
    finish(proc)
    return path


def test_a_journal_in_a_read_only_folder_resumes_with_one_line_and_checks_fine(tmp_path, read_only):
    folder = tmp_path / "kept"
    folder.mkdir()
    path = played_journal(folder)
    before = fingerprint(folder)
    with read_only(folder):
        for args in (["play", "--plain", "--resume", str(path)], ["table", "--resume", str(path)],
                     ["journal", "repair", str(path)]):
            err = one_line(unox(*args))
            assert "permission denied" in err and "read-only" in err, err
        checked = unox("journal", "check", str(path))  # reading needs no write
        assert checked.returncode == 0 and "every row replays" in checked.stdout, checked.stderr
    assert fingerprint(folder) == before


def test_a_read_only_journal_resumes_with_one_line_and_checks_fine(tmp_path, read_only):
    path = played_journal(tmp_path)
    with read_only(path):
        err = one_line(unox("play", "--plain", "--resume", str(path)))
        assert "permission denied" in err
        checked = unox("journal", "check", str(path))
        assert checked.returncode == 0 and "every row replays" in checked.stdout, checked.stderr


def test_calibrate_into_a_read_only_folder_says_so_before_firing(tmp_path, read_only):
    folder = tmp_path / "etc"
    folder.mkdir()
    with read_only(folder):
        for config in (folder / "config.toml", folder / "unox" / "config.toml"):
            err = one_line(unox("calibrate", "--launcher", "sim", "--cards", "2", "--config", str(config)))
            assert f"cannot write the config file {config}" in err and "read-only" in err, err
            assert "no card was fired" in err
    assert list(folder.iterdir()) == []
