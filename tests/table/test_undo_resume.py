"""Undo and resume: both rebuild the game by replaying accepted requests, so both must land exactly where
an uninterrupted run of the same requests lands (issue 2, section 7; issue 4 undo)."""

from __future__ import annotations

import pytest
from unox.rules.game import Game
from unox.table.journal import Journal, JournalError
from unox.table.runtime import Table
from unox.table.settings import TableSettings

from .tablekit import PLAYERS, accept, new_table, refuse, send

HAND_REQUESTS = [
    {"cmd": "deal", "dealer": "Ann"},
    {"cmd": "flip", "card": "G7"},
    {"cmd": "play", "player": "Bob", "card": "G3"},
    {"cmd": "press", "player": "Cy", "fired": 2},
    {"cmd": "play", "player": "Ann", "card": "WA", "color": "yellow"},
    {"cmd": "press", "player": "Bob", "fired": 0},
    {"cmd": "press", "player": "Cy", "fired": 4},
    {"cmd": "penalty", "player": "Ann", "kind": "advice"},
]


def run_in_process(requests, **settings) -> Table:
    table = new_table(**settings)
    for request in requests:
        assert send(table, **request)["ok"], request
    return table


@pytest.mark.parametrize("cut", range(1, len(HAND_REQUESTS) + 1))
def test_undo_gives_the_state_before_the_last_request(cut):
    table = run_in_process(HAND_REQUESTS[:cut])
    reply = table.undo()
    assert reply["ok"]
    assert reply["undone"] == HAND_REQUESTS[cut - 1]
    assert reply["state"] == run_in_process(HAND_REQUESTS[: cut - 1]).state()


def test_undo_over_the_protocol_and_in_the_journal(tmp_path):
    path = tmp_path / "t.db"
    table = new_table(journal=Journal(path))
    for request in HAND_REQUESTS:
        accept(table, **request)
    accept(table, cmd="undo")
    accept(table, cmd="undo")
    assert table.journal.entries() == HAND_REQUESTS[:-2]
    expected = run_in_process(HAND_REQUESTS[:-2]).state()
    assert table.state() == expected
    table.journal.close()
    assert Table.resume(path).state() == expected


def test_undo_skips_nothing_for_refused_requests():
    """A refused request was never accepted, so undo takes back the accepted one before it."""
    table = run_in_process(HAND_REQUESTS[:3])
    refuse(table, "not_your_turn", cmd="play", player="Ann", card="G4")
    assert table.undo()["undone"] == HAND_REQUESTS[2]


def test_undo_without_settings_replays_onto_a_copy_of_the_given_game():
    table = Table(Game(list(PLAYERS)))
    for request in HAND_REQUESTS[:4]:
        accept(table, **request)
    table.undo()
    assert table.state() == run_in_process(HAND_REQUESTS[:3]).state()


def test_resume_lands_in_the_state_of_the_uninterrupted_run_and_carries_on(tmp_path):
    path = tmp_path / "t.db"
    table = new_table(journal=Journal(path), scoring="g2", target=300)
    for request in HAND_REQUESTS[:5]:
        accept(table, **request)
    table.journal.close()
    resumed = Table.resume(path)
    assert resumed.settings == TableSettings(players=PLAYERS, scoring="g2", target=300)
    for request in HAND_REQUESTS[5:]:
        accept(resumed, **request)
    assert resumed.state() == run_in_process(HAND_REQUESTS, scoring="g2", target=300).state()
    assert resumed.journal.entries() == HAND_REQUESTS


def test_a_crash_after_journalling_an_accepted_request_replays_it(tmp_path):
    """Journalled, then killed before applying: the request was accepted, so the replay applies it."""
    path = tmp_path / "t.db"
    table = new_table(journal=Journal(path))
    for request in HAND_REQUESTS[:4]:
        accept(table, **request)
    table.journal.append(HAND_REQUESTS[4])  # the crash comes before apply_request
    table.journal.close()
    assert Table.resume(path).state() == run_in_process(HAND_REQUESTS[:5]).state()


def test_a_refused_request_never_reaches_the_journal(tmp_path):
    """Applied before it is journalled: a request the rules refuse leaves no row, so there is no crash
    window in which a refused row sits in the journal (issue 7, item 2)."""
    path = tmp_path / "t.db"
    table = new_table(journal=Journal(path))
    for request in HAND_REQUESTS[:4]:
        accept(table, **request)
    rows_before = table.journal.raw_rows()
    refuse(table, "not_your_turn", cmd="play", player="Cy", card="G4")
    assert table.journal.raw_rows() == rows_before


def test_resume_of_a_journal_without_a_table_is_refused(tmp_path):
    path = tmp_path / "t.db"
    Journal(path).close()
    with pytest.raises(JournalError, match="no journal at"):
        Table.resume(path)  # nothing there: nothing is created either (issue 13 item 3)
    assert not path.exists()
    path.touch()
    with pytest.raises(JournalError, match="holds no table"):
        Table.resume(path)
    assert path.stat().st_size == 0


def test_a_new_table_refuses_a_journal_that_already_holds_requests(tmp_path):
    path = tmp_path / "t.db"
    table = new_table(journal=Journal(path))
    accept(table, cmd="deal", dealer="Ann")
    table.journal.close()
    with pytest.raises(JournalError, match="resume"):
        new_table(journal=Journal(path))


def test_an_engine_failure_is_refused_and_leaves_state_and_journal_unchanged(tmp_path, monkeypatch):
    """An unexpected exception after the engine changed something: the table rebuilds from the journal."""
    table = new_table(journal=Journal(tmp_path / "t.db"))
    for request in HAND_REQUESTS[:3]:
        accept(table, **request)
    real_press = table.game.press

    def broken_press(player, fired):
        real_press(player, fired)
        raise RuntimeError("simulated engine bug")

    monkeypatch.setattr(table.game, "press", broken_press)
    reply = refuse(table, "internal_error", cmd="press", player="Cy", fired=2)
    assert "report" in reply["error"]["message"]
    accept(table, cmd="press", player="Cy", fired=2)
    assert table.state() == run_in_process(HAND_REQUESTS[:4]).state()
