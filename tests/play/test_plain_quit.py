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


def test_input_that_ends_mid_game_says_where_the_game_is_kept(tmp_path):
    """Issue 26 item 3: the end of input (a pipe, a script) in a game ended it with no word at all."""
    out, cmds = plain_play(tmp_path, ["deal Ann", "flip G7"])
    assert cmds == ["deal", "flip"]
    kept = f"The game is kept in {tmp_path / 't.db'}: `unox play --continue` picks it up."
    assert out.splitlines()[-1] == f"Input ended. {kept}"


def test_ctrl_d_at_a_terminal_asks_before_leaving_a_game(tmp_path):
    """Issue 26 item 3: Ctrl-D at a terminal ended a game in progress at once (exit 0, no message); now it
    asks as `quit` does: anything else carries on, Ctrl-D again leaves. A real pseudo-terminal."""
    import os
    import pty
    import select

    primary, secondary = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "unox", "play", "--plain", "--players", "Ann,Bob", "--seed", "3", "--launcher",
         "sim", "--journal", str(tmp_path / "t.db")], stdin=secondary, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    os.close(secondary)
    seen = {"text": "", "from": 0}

    def until(text: str) -> None:
        """Reads the output until `text` appears after what was already waited for."""
        while text not in seen["text"][seen["from"]:]:
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, seen["text"][-300:]  # only reached when something is broken
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, seen["text"][-300:]
            seen["text"] += chunk.decode()
        seen["from"] = seen["text"].index(text, seen["from"]) + len(text)

    try:
        until("next: ")
        os.write(primary, b"deal Ann\n")
        until("turn up the first card")
        os.write(primary, b"\x04")  # Ctrl-D on an empty line: the terminal's end of input
        until("leave the table? Ctrl-D again (or yes) leaves")
        os.write(primary, b"flip G7\n")  # anything else carries on: this line is played
        until("Staying at the table.")
        until("play a card on G7")
        assert proc.poll() is None  # still at the table
        os.write(primary, b"\x04")
        until("leave the table?")
        os.write(primary, b"\x04")  # again: leave
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(primary)
        proc.communicate(timeout=30)
    with Journal(tmp_path / "t.db") as book:
        assert [entry["cmd"] for entry in book.entries()] == ["deal", "flip"]


def test_a_tournament_round_says_which_command_picks_it_up(tmp_path):
    """Issue 26 item 15: a tournament table said "`unox play --continue` picks it up", but its journal is
    under tournaments/, `--list` does not show it and `--continue` resumed another table."""
    from unox.table.night import kept_where
    from unox.table.opening import open_play_session
    from unox.table.settings import TableSettings
    from unox.tournament.join import round_journal
    from unox.ui.session import Session

    path = round_journal(tmp_path / "club-table1.db", 2)
    session = open_play_session(TableSettings(players=("Ann", "Bob"), launcher="sim"), journal=path,
                                night=Session)
    try:
        said = kept_where(session)
    finally:
        session.close()
    assert said.startswith(f"The round is kept in {path}") and "--tournament URL --table N" in said
    assert "`unox play --continue` picks it up" not in said


def test_the_tournament_docs_say_how_the_ui_leaves_a_round():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "tournament.md").read_text()
    assert "(q)" not in text and "leave the round (Ctrl+Q, or type quit)" in text
