"""Issue 21: a refused start writes nothing. Every check that can refuse runs before the journal is made
(`unox.cli.assemble.check`): the web gate (no PIN on the LAN, the port taken, a player named `operator`) and
`--mqtt`'s address, so the tables folder stays as it was and no stale "not started" table is listed."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from .conftest import one_line_error


def left_behind(home: Path) -> list[str]:
    """Every file under the user's state folder (the tables folder is in it)."""
    state = home / ".state"
    return sorted(str(p.relative_to(state)) for p in state.rglob("*") if p.is_file())


LAN_NO_PIN = ("--pin", "")  # the default host is 0.0.0.0: the LAN
OPERATOR_SEAT = ("--players", "Ann,operator", "--host", "127.0.0.1", "--pin", "", "--operator-pin", "")


@pytest.mark.parametrize("command", [("serve",), ("play", "--web", "--plain")])
def test_no_pin_on_the_lan_is_refused_before_the_journal(unox, home, command):
    done = unox(*command, "--players", "Ann,Bob", "--launcher", "script", *LAN_NO_PIN)
    assert "refusing to serve 0.0.0.0 without a PIN" in one_line_error(done)
    assert left_behind(home) == []


@pytest.mark.parametrize("command", [("serve",), ("play", "--web", "--plain")])
def test_a_port_in_use_is_refused_before_the_journal(unox, home, command):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        done = unox(*command, "--players", "Ann,Bob", "--launcher", "script", "--host", "127.0.0.1",
                    "--port", port, "--pin", "", "--operator-pin", "")
    assert f"cannot listen on 127.0.0.1:{port}" in one_line_error(done)
    assert left_behind(home) == []


@pytest.mark.parametrize("command", [("serve",), ("play", "--web", "--plain")])
def test_a_player_named_operator_is_refused_before_the_journal(unox, home, command):
    done = unox(*command, "--launcher", "script", *OPERATOR_SEAT)
    assert "a player may not be called 'operator'" in one_line_error(done)
    assert left_behind(home) == []


@pytest.mark.parametrize("command", [("serve", "--host", "127.0.0.1", "--pin", "", "--operator-pin", ""),
                                     ("play", "--plain")])
def test_a_bad_mqtt_address_is_refused_before_the_journal(unox, home, command):
    done = unox(*command, "--players", "Ann,Bob", "--launcher", "script", "--mqtt", "http://nowhere/")
    assert "--mqtt" in one_line_error(done)
    assert left_behind(home) == []


def test_a_resumed_journal_with_a_seat_named_operator_is_refused_and_kept(unox, home, tmp_path):
    """The seats of a resumed table are only known from its journal: refused once read, the file as it was."""
    journal = tmp_path / "old.db"
    made = unox("table", "--players", "Ann,operator", "--journal", str(journal), stdin="")
    assert made.code == 0, made.err
    before = journal.read_bytes()
    done = unox("serve", "--resume", str(journal), "--host", "127.0.0.1", "--pin", "", "--operator-pin", "")
    assert "a player may not be called 'operator'" in one_line_error(done)
    assert journal.read_bytes() == before
    assert left_behind(home) == []


def test_a_continued_game_with_a_seat_named_operator_is_refused_whatever_players_says(unox, home, tmp_path):
    """`--continue FILE` goes on with the game FILE holds and its seats, not --players': those are checked
    too, once the journal names them (they used to pass on --players' names and serve an 'operator')."""
    journal = tmp_path / "going.db"
    made = unox("table", "--players", "Ann,operator", "--journal", str(journal),
                stdin='{"cmd":"deal","dealer":"Ann"}\n')
    assert made.code == 0, made.err
    before = journal.read_bytes()
    done = unox("serve", "--continue", str(journal), "--players", "Ann,Bob", "--host", "127.0.0.1", "--port",
                "0", "--pin", "", "--operator-pin", "", timeout=20)  # served: it would never return
    assert "a player may not be called 'operator'" in one_line_error(done)
    assert journal.read_bytes() == before
    assert left_behind(home) == []


def finished_game(unox, journal: Path) -> bytes:
    """A game over (target 10, Bob out with 40), as `--continue` finds it at a boot service's next start."""
    greens = "\n".join(["G5", *(["G3", "G2", "G4", "G6", "G8", "G9", "G1"] * 2)])  # Bob goes out
    made = unox("play", "--plain", "--players", "Ann,Bob", "--launcher", "script", "--target", "10",
                "--journal", str(journal), stdin=f"deal Ann\nflip G7\n{greens}\nscore Ann=40 Bob=0\n")
    assert made.code == 0 and "Game over" in made.out, made.out[-500:] + made.err
    return journal.read_bytes()


def test_a_refused_continue_puts_the_finished_game_back(unox, home, tmp_path):
    """`--continue FILE` moves a finished game aside for the new table; a start refused after that (here the
    launcher's port) left it as FILE.1.done and no FILE."""
    journal = tmp_path / "g.db"
    before = finished_game(unox, journal)
    done = unox("play", "--plain", "--continue", str(journal), "--players", "Ann,Bob", "--launcher",
                "serial:/dev/unox-no-such-port")
    assert "cannot open /dev/unox-no-such-port" in one_line_error(done)
    assert sorted(p.name for p in tmp_path.glob("g.db*")) == ["g.db"]
    assert journal.read_bytes() == before
