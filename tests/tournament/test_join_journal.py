"""A results journal keeps one table of one tournament: `unox table`, `play` and `serve` all refuse another's
(C-V3: two tables' results mixed in one journal would send one table's hands as the other's)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from unox.tournament.journal import ResultsJournal

UNOX = [sys.executable, "-m", "unox"]
NOWHERE = "mqtt://127.0.0.1:9/club"  # refused before any broker is asked


def _journal_of(path, tournament: str, table: int) -> bytes:
    with ResultsJournal(path) as journal:
        journal.set("tournament/seat", {"tournament": tournament, "table": table})
    return path.read_bytes()


@pytest.mark.parametrize(
    "command",
    [["table", "--bots", "heuristic"], ["play", "--plain"], ["serve", "--pin", "246813"]],
    ids=["table", "play", "serve"],
)
@pytest.mark.parametrize("owner", [("club", 2), ("other", 1)], ids=["another table", "another tournament"])
def test_a_journal_of_another_table_or_tournament_is_refused_and_left_as_it_was(tmp_path, command, owner):
    path = tmp_path / "results.db"
    before = _journal_of(path, *owner)
    done = subprocess.run(
        [*UNOX, *command, "--tournament", NOWHERE, "--table", "1", "--journal", str(path)],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    error = done.stderr.strip().splitlines()[-1]
    assert f"is table {owner[1]} of {owner[0]!r}" in error and "give this table its own --journal" in error
    assert path.read_bytes() == before


def test_a_journals_folder_that_cannot_be_made_is_one_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    done = subprocess.run(
        [*UNOX, "play", "--plain", "--tournament", NOWHERE, "--table", "1", "--journal",
         str(blocker / "sub" / "results.db")],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert f"cannot make {blocker / 'sub'}" in done.stderr and "give --journal a file" in done.stderr
