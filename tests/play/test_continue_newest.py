"""Issue 13 item 5: `unox play --continue` (no file) takes the newest game that has been dealt and is not
over; a start quit before the deal, a finished game and a file it cannot read do not stop it, and the files
it cannot read are named. `--list` shows a start quit before the deal as not started. Real processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

FINISHING = [  # G1: Bob goes out, his points pass the target of 50 (tests/play/test_continue.py)
    {"cmd": "deal", "dealer": "Ann"},
    {"cmd": "flip", "card": "G7"},
    {"cmd": "uno", "player": "Bob"},
    {"cmd": "play", "player": "Bob", "card": "GD", "count": 5},
    {"cmd": "press", "player": "Cy", "fired": 0},
    {"cmd": "press", "player": "Ann", "fired": 0},
    {"cmd": "play", "player": "Bob", "card": "G5"},
    {"cmd": "score", "points": {"Ann": 30, "Bob": 0, "Cy": 41}},
]
NEW_TABLE = ["play", "--plain", "--launcher", "sim", "--seed", "2", "--players"]


@pytest.fixture
def unox(state_home):
    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
        env = {**os.environ, "XDG_STATE_HOME": str(state_home)}
        return subprocess.run([sys.executable, "-m", "unox", *args], input=stdin, capture_output=True,
                              text=True, timeout=60, env=env)

    return run


def kept(state_home, before: set) -> object:
    """The one journal made since `before`, dated one step later than everything there (newest last)."""
    folder = state_home / "unox" / "tables"
    (path,) = set(folder.glob("*.db")) - before
    stamp = 1_000_000 + 1000 * len(before)
    os.utime(path, (stamp, stamp))
    return path


def folder_files(state_home) -> set:
    folder = state_home / "unox" / "tables"
    return set(folder.glob("*.db")) if folder.is_dir() else set()


@pytest.fixture
def evening(unox, state_home):
    """Yesterday's game in progress, then a finished one, then a start quit before the deal, then a
    file that is no journal: each newer than the last."""
    assert unox(*NEW_TABLE, "Ann,Bob", stdin="deal Bob\nflip G7\nG5\nquit\n").returncode == 0
    going = kept(state_home, set())
    finished_path = state_home / "unox" / "tables" / "finished.db"
    over = unox("table", "--players", "Ann,Bob,Cy", "--target", "50", "--seed", "4", "--journal",
                str(finished_path), stdin="".join(json.dumps(request) + "\n" for request in FINISHING))
    assert over.returncode == 0 and json.loads(over.stdout.splitlines()[-1])["state"]["phase"] == "game_over"
    finished = kept(state_home, {going})
    with_deal = {going, finished}
    assert unox(*NEW_TABLE, "Cy,Dee", stdin="quit\n").returncode == 0
    empty = kept(state_home, with_deal)
    garbage = state_home / "unox" / "tables" / "zz-notes.db"
    garbage.write_text("shopping list\n" * 100)
    os.utime(garbage, (2_000_000, 2_000_000))
    return going, finished, empty, garbage


def test_continue_takes_the_newest_dealt_game_and_names_what_it_skips(unox, evening):
    going, finished, empty, garbage = evening
    done = unox("play", "--plain", "--continue", stdin="state\nquit\n")
    assert done.returncode == 0, done.stderr
    assert f"Resumed from {going}: 3 accepted events replayed" in done.stdout
    assert "Top card:  G5  green 5" in done.stdout
    skipped = [line for line in done.stdout.splitlines() if line.startswith("Skipped")]
    assert len(skipped) == 1 and "zz-notes.db (" in skipped[0] and "not an SQLite file" in skipped[0]
    assert garbage.read_text() == "shopping list\n" * 100  # untouched


def test_list_shows_a_start_quit_before_the_deal_as_not_started(unox, evening):
    going, finished, empty, garbage = evening
    done = unox("play", "--list")
    assert done.returncode == 0
    rows, name = {}, ""
    for line in done.stdout.splitlines()[2:]:  # under the two header lines; a long row goes on two lines
        if line.startswith("    "):
            rows[name] += " " + line.strip()
        else:
            name = line.split()[0]
            rows[name] = line
    assert rows[empty.name].endswith("not started")
    assert rows[going.name].endswith("in progress")
    assert "cannot be read" in rows[garbage.name]


def test_with_no_game_in_progress_continue_says_so_naming_the_unreadable(unox, state_home):
    assert unox(*NEW_TABLE, "Cy,Dee", stdin="quit\n").returncode == 0
    empty = kept(state_home, set())
    (state_home / "unox" / "tables" / "zz-notes.db").write_text("x" * 100)
    done = unox("play", "--plain", "--continue")
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "no game in progress is kept in" in done.stderr and "zz-notes.db" in done.stderr
    started = unox("play", "--plain", "--continue", "--players", "Gus,Hal", stdin="quit\n")
    assert started.returncode == 0, started.stderr
    new = folder_files(state_home) - {empty, state_home / "unox" / "tables" / "zz-notes.db"}
    assert len(new) == 1 and "Gus-Hal" in new.pop().name  # a new table, not the empty start reused
