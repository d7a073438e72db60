"""Issue 13, item 13: a player called like a card or a command (`R5`, `quit`, `press`) could never be named in
a typed line without doubt (`R5` plays the card, `quit` leaves), so every command that seats players by name
refuses it at the start, saying why, and leaves no file behind."""

from __future__ import annotations

import pytest

from tests.cli.conftest import one_line_error

COMMANDS = {
    "play": ["play", "--plain", "--launcher", "sim"],
    "table": ["table"],
    "serve": ["serve", "--host", "127.0.0.1", "--port", "0", "--pin", ""],
}
CLASHES = [
    ("R5", "extreme", "the card R5 (red 5)"),
    ("quit", "extreme", "the command `quit`"),
    ("press", "extreme", "the command `press`"),
    ("wf", "extreme", "the card WF"),
    ("W+4", "classic", "the card W+4 (Wild Draw Four)"),
    ("Pass", "classic", "the command `pass`"),
    ("gift", "barbie", "the command `gift`"),
    # issue 26 item 2: seated, but no command could name them, and the hand could not be scored
    ("Ann Lee", "extreme", "more than one word (a typed line splits at spaces"),
    ("X=1", "extreme", "a score (`score NAME=POINTS` splits at the =)"),
]


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("name", "rules", "reason"), CLASHES)
def test_a_seat_named_like_a_card_or_a_command_is_refused_with_the_reason(unox, tmp_path, command, name,
                                                                          rules, reason):
    journal = tmp_path / "t.db"
    done = unox(*COMMANDS[command], "--players", f"Bo,{name}", "--rules", rules, "--journal", str(journal),
                timeout=60)
    err = one_line_error(done)
    assert f"player name {name!r} reads as {reason}" in err and "another name" in err
    assert not journal.exists() and not (tmp_path / "t.db.lock").exists()


def test_names_that_only_contain_a_card_or_a_command_are_seated(unox, tmp_path):
    done = unox("table", "--players", "Rory,Quinn,Pressley", "--journal", str(tmp_path / "t.db"),
                stdin='{"cmd":"deal","dealer":"Pressley"}\n')
    assert done.code == 0, done.err
    assert '"ok": true' in done.out or '"ok":true' in done.out


def test_the_play_service_refuses_such_a_seat_before_writing_anything(unox, tmp_path):
    """`unox install service --mode play --players ...` runs `unox play` at every boot: it refuses too."""
    done = unox("install", "service", "--mode", "play", "--players", "Ann,quit", "--launcher", "sim",
                "--user", "pi", "--root", str(tmp_path / "root"), "--write")
    err = one_line_error(done)
    assert "player name 'quit' reads as the command `quit`" in err
    assert not (tmp_path / "root").exists()
