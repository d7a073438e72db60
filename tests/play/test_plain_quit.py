"""`unox play --plain`: `quit` during a game asks first, as the table UI does; `yes` leaves."""

import subprocess
import sys

from unox.table.journal import Journal


def plain_play(tmp_path, lines):
    journal = tmp_path / "t.db"
    proc = subprocess.run(
        [sys.executable, "-m", "unox", "play", "--plain", "--players", "Ann,Bob", "--seed", "3",
         "--journal", str(journal)],
        input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    with Journal(journal) as book:
        return proc.stdout, [entry["cmd"] for entry in book.entries()]


def test_quit_in_a_game_asks_and_anything_but_yes_carries_on(tmp_path):
    out, cmds = plain_play(tmp_path, ["deal Ann", "quit", "flip G7", "quit", "yes", "G5"])
    assert out.count("next: leave the table? Type yes to leave") == 2
    assert "Staying at the table." in out
    assert f"The game is kept in {tmp_path / 't.db'}" in out
    assert cmds == ["deal", "flip"]  # the line after the first question was taken; nothing after `yes`


def test_quit_before_anything_was_played_leaves_at_once(tmp_path):
    out, cmds = plain_play(tmp_path, ["quit", "deal Ann"])
    assert "leave the table?" not in out
    assert cmds == []


def test_journal_help_names_the_default_journal_folder():
    proc = subprocess.run([sys.executable, "-m", "unox", "play", "--help"], capture_output=True, text=True,
                          timeout=60)
    help_text = " ".join(proc.stdout.split())
    assert "--journal FILE SQLite journal of every accepted event (default: a new file under" in help_text
    assert "~/.local/state/unox/tables" in help_text
