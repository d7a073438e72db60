"""Issue 22 item 1: a table is bound to its launcher's board (HELLO's identity) in its journal, and a resume
that meets another board fires nothing and books nothing unless the user named that launcher."""

from __future__ import annotations

import pytest
from unox.launcher import open_launcher
from unox.table.journal import Journal, JournalError
from unox.table.runtime import BOARD_KEY, Table
from unox.table.settings import TableSettings

from .tablekit import PLAYERS, started

OURS = "sim:?seed=2&cards=60&jam=0&double=0&stuck=0"
OTHER = "sim:?seed=3&cards=60&jam=0&double=0&stuck=0"


def journal_view(path) -> tuple:
    """Everything a refused resume must leave as it was."""
    with Journal(path) as journal:
        return journal.raw_rows(), journal.fires(), journal.get_meta(BOARD_KEY), journal.settings


@pytest.fixture
def bound_table(tmp_path):
    """A table played on the launcher OURS, two presses fired and journalled; (path, board)."""
    path = tmp_path / "t.db"
    launcher = open_launcher(OURS)
    settings = TableSettings(players=PLAYERS, seed=11, launcher=OURS)
    table = Table.create(settings, launcher=launcher, journal=Journal(path))
    started(table)
    for _ in range(2):
        assert table.button()["ok"]
    board = launcher.board_id
    table.close()
    launcher.close()
    return path, board


def test_the_journal_is_bound_to_the_board_of_the_first_hello(bound_table):
    path, board = bound_table
    assert board and journal_view(path)[2] == board


def test_a_resume_on_another_board_is_refused_naming_both_and_writes_nothing(bound_table):
    path, board = bound_table
    before = journal_view(path)
    stranger = open_launcher(OTHER)
    try:
        with pytest.raises(JournalError) as refused:
            Table.resume(path, launcher=stranger)
        message = str(refused.value)
        assert f"bound to launcher board {board}" in message and f"is board {stranger.board_id}" in message
        assert "--launcher" in message  # how to take it deliberately
        stranger.device.advance(500)  # whatever the host sent has arrived
        assert stranger.device.model.ejected == 0
        assert stranger.device.app.link.delivered == 2  # our HELLO and CONFIG host_beat_ms: no FIRE, no QUERY
        assert journal_view(path) == before
    finally:
        stranger.close()


def test_a_named_launcher_of_another_board_is_taken_and_the_table_is_bound_to_it(bound_table):
    path, board = bound_table
    stranger = open_launcher(OTHER)
    table = Table.resume(path, launcher=stranger, accept_launcher=True)
    try:
        assert table.rebound == (board, stranger.board_id)
        fired = [table.button()["launcher"]["fired"] for _ in range(6)]
        assert sum(fired) == stranger.device.model.ejected > 0  # it fires for this table now
    finally:
        table.close()
        stranger.close()
    assert journal_view(path)[2] == stranger.board_id
    ours = open_launcher(OURS)
    try:
        with pytest.raises(JournalError, match=f"bound to launcher board {stranger.board_id}"):
            Table.resume(path, launcher=ours)  # the old one is now the stranger
    finally:
        ours.close()


def test_the_same_board_again_is_the_same_launcher(bound_table):
    path, board = bound_table
    again = open_launcher(OURS)  # another port object, the same board
    table = Table.resume(path, launcher=again)
    try:
        assert table.rebound is None and table.button()["ok"]
    finally:
        table.close()
        again.close()
    assert journal_view(path)[2] == board


def test_a_journal_from_before_boards_is_bound_at_its_first_resume(bound_table):
    path, board = bound_table
    with Journal(path) as journal:
        journal.lock()
        journal._write().execute("DELETE FROM meta WHERE key = ?", (BOARD_KEY,))
    launcher = open_launcher(OURS)
    table = Table.resume(path, launcher=launcher)
    table.close()
    launcher.close()
    assert journal_view(path)[2] == board


def test_unox_table_resume_refuses_another_board_and_takes_it_when_named(tmp_path):
    import json
    import subprocess
    import sys

    path = tmp_path / "cli.db"
    lines = [{"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip", "card": "B2"}, {"cmd": "press"}]

    def unox(*argv: str, stdin: str = "") -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "unox", "table", *argv], input=stdin,
                              capture_output=True, text=True, timeout=120)

    made = unox("--players", "Ann,Bob,Cy", "--launcher", OURS, "--seed", "5", "--journal", str(path),
                stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert made.returncode == 0, made.stderr
    ours = journal_view(path)[2]
    with Journal(path) as journal:  # the journal's launcher spec now reaches another board (a swapped port)
        journal.lock()
        journal.settings = {**journal.settings, "launcher": OTHER}
    before = journal_view(path)
    refused = unox("--resume", str(path))
    assert refused.returncode == 1 and refused.stdout == ""
    assert f"bound to launcher board {ours}" in refused.stderr and refused.stderr.count("\n") == 1
    assert journal_view(path) == before
    taken = unox("--resume", str(path), "--launcher", OTHER)
    assert taken.returncode == 0, taken.stderr
    assert f"now fires launcher board {journal_view(path)[2]} (it was bound to board {ours})" in taken.stderr
    assert journal_view(path)[2] != ours


def test_a_launcher_that_names_no_board_is_refused_by_a_bound_table(bound_table):
    """An older firmware (or a driver without firmware) cannot show it is the same board."""
    from unox.launcher.script import ScriptLauncher

    path, board = bound_table
    before = journal_view(path)
    expected = f"bound to launcher board {board}, but the launcher on .* is board unknown"
    with pytest.raises(JournalError, match=expected):
        Table.resume(path, launcher=ScriptLauncher())
    assert journal_view(path) == before
