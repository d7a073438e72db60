"""Issue 22 item 1 at a tournament seat: a round's table is bound to its launcher's board in the round's
journal. Continued with the same command while another board answers (the seat's command names
`--launcher` every time, so naming it is not a choice): refused, nothing fired or booked, both boards named;
`--accept-launcher` takes the new one on purpose, as `--resume --launcher` does for a table."""

from __future__ import annotations

import json
import subprocess

import pytest
from unox.table.journal import Journal
from unox.table.runtime import BOARD_KEY
from unox.tournament.address import parse
from unox.tournament.coordinator import Coordinator
from unox.tournament.join import round_journal
from unox.tournament.journal import ResultsJournal
from unox.tournament.schedule import Plan
from unoxsim.device import VirtualDevice

from .kit import C_V2_PLAYERS, UNOX, WAIT

OURS = "sim:?seed=2&cards=60&jam=0&double=0&stuck=0"
OTHER = "sim:?seed=3&cards=60&jam=0&double=0&stuck=0"


def board_of(seed: int) -> str:
    return VirtualDevice(seed=seed).board.machine.unique_id().hex()


def journal_view(path) -> tuple:
    """Everything a refused continue must leave as it was."""
    with Journal(path) as journal:
        return journal.raw_rows(), journal.fires(), journal.get_meta(BOARD_KEY), journal.settings


@pytest.fixture
def coordinator(broker, tmp_path):
    with ResultsJournal(tmp_path / "club.db") as journal:
        running = Coordinator(parse(broker.url("coordinator", "board")), journal, Plan(tuple(C_V2_PLAYERS)),
                              say=lambda t: None)
        running.start()
        try:
            yield running
        finally:
            running.stop()


def seat(broker, tmp_path, command: str, *extra: str, stdin: str) -> subprocess.CompletedProcess:
    """One run of the seat's command (table 1), fed `stdin`, until it ends."""
    argv = [*UNOX, command, "--tournament", broker.url("table1", "board"), "--table", "1",
            "--journal", str(tmp_path / "table1.db"), *extra]
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=WAIT * 2)


def repoint(path, spec: str) -> None:
    """The round's launcher port now reaches another board (two Picos that swapped ports)."""
    with Journal(path) as journal:
        journal.lock()
        journal.settings = {**journal.settings, "launcher": spec}


def test_unox_table_tournament_refuses_another_board_and_takes_it_with_accept_launcher(broker, tmp_path,
                                                                                       coordinator):
    lines = [{"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip"}]  # the launcher turns up the first card
    played = seat(broker, tmp_path, "table", "--launcher", OURS,
                  stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert played.returncode == 0, played.stderr
    assert all(json.loads(reply)["ok"] for reply in played.stdout.splitlines()), played.stdout
    path = round_journal(tmp_path / "table1.db", 1)
    assert journal_view(path)[2] == board_of(2)
    repoint(path, OTHER)
    before = journal_view(path)

    refused = seat(broker, tmp_path, "table", "--launcher", OURS, stdin='{"cmd": "state"}\n')
    assert refused.returncode == 1 and refused.stdout == ""
    assert f"bound to launcher board {board_of(2)}" in refused.stderr
    assert f"is board {board_of(3)}" in refused.stderr and "--accept-launcher" in refused.stderr
    assert journal_view(path) == before  # nothing fired, booked or rebound

    lines = [{"cmd": "flip", "card": "B2"}, {"cmd": "draw", "player": "Bob"}]  # Bob draws: a card fired
    taken = seat(broker, tmp_path, "table", "--launcher", OTHER, "--accept-launcher",
                 stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert taken.returncode == 0, taken.stderr
    assert f"now fires launcher board {board_of(3)} (it was bound to board {board_of(2)})" in taken.stderr
    draw = json.loads(taken.stdout.splitlines()[-1])
    assert draw["ok"] and draw["launcher"]["fired"] == 1, draw
    view = journal_view(path)
    assert view[2] == board_of(3) and len(view[0]) == len(before[0]) + 2  # the draw it fired is booked


def test_unox_play_tournament_no_longer_takes_another_board_because_launcher_is_named(broker, tmp_path,
                                                                                      coordinator):
    """`unox play --tournament` names --launcher in every run: that took any board on a continue."""
    played = seat(broker, tmp_path, "play", "--plain", "--launcher", OURS, stdin="deal Ann\nflip\n")
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr
    path = round_journal(tmp_path / "table1.db", 1)
    assert journal_view(path)[2] == board_of(2)
    before = journal_view(path)

    refused = seat(broker, tmp_path, "play", "--plain", "--launcher", OTHER, stdin="state\n")
    assert refused.returncode == 1, refused.stdout[-2000:] + refused.stderr
    assert f"bound to launcher board {board_of(2)}" in refused.stderr
    assert f"is board {board_of(3)}" in refused.stderr and "--accept-launcher" in refused.stderr
    assert "to --resume" not in refused.stderr  # a seat names its launcher every time: no --resume to add to
    assert journal_view(path) == before

    taken = seat(broker, tmp_path, "play", "--plain", "--launcher", OTHER, "--accept-launcher",
                 stdin="state\n")
    assert taken.returncode == 0, taken.stdout[-2000:] + taken.stderr
    assert f"now fires launcher board {board_of(3)} (it was bound to board {board_of(2)})" in taken.stdout
    assert journal_view(path)[2] == board_of(3)
    with Journal(path) as journal:  # the seat's launcher is the round's from now on (reviewer finding 1)
        assert journal.settings["launcher"] == OTHER


def test_accept_launcher_is_refused_without_a_tournament_or_without_launcher(broker, tmp_path):
    alone = subprocess.run([*UNOX, "play", "--plain", "--players", "Ann,Bob", "--accept-launcher"],
                           capture_output=True, text=True, timeout=WAIT, input="")
    assert alone.returncode != 0 and alone.stderr.count("\n") == 1
    assert "--accept-launcher goes with --continue, --journal or --tournament" in alone.stderr
    assert "`launcher accept`" in alone.stderr
    bare = seat(broker, tmp_path, "table", "--accept-launcher", stdin="")
    assert bare.returncode != 0 and "add --launcher serial:PORT" in bare.stderr
    assert not (tmp_path / "table1.db").exists()  # a refused start writes nothing
