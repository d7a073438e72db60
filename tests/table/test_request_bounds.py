"""Every number a request carries is bounded before it reaches the rules (issue 7, items 6, 8 and 9):
no press gives more cards than the table has outside the hands and pile, no hand scores more than its
cards can be worth, and a launcher table attributes a press that names nobody."""

from __future__ import annotations

import pytest
from unox.launcher.script import ScriptLauncher
from unox.rules.cards import CARDS
from unox.rules.extreme import EXTREME
from unox.table.journal import Journal
from unox.table.runtime import Table

from .tablekit import DECK, HAND, PLAYERS, accept, new_table, refuse, started


@pytest.fixture
def table():
    table = new_table()
    started(table)  # Bob's turn; 90 cards outside the hands and the pile
    return table


@pytest.mark.parametrize("fired", [10**6, 113, 10**4000])
def test_a_press_of_more_than_a_deck_is_bad_fired(table, fired):
    reply = refuse(table, "bad_fired", cmd="press", player="Bob", fired=fired)
    assert len(reply["error"]["message"]) < 300


def test_a_press_of_more_than_the_cards_outside_hands_and_pile_is_bad_fired(table):
    free = DECK - HAND * len(PLAYERS) - 1
    refuse(table, "bad_fired", cmd="press", player="Bob", fired=free + 1)
    assert accept(table, cmd="press", player="Bob", fired=free)["hands"]["Bob"] == HAND + free
    refuse(table, "bad_fired", cmd="press", player="Cy", fired=1)  # nothing left outside the hands and pile


def test_a_fired_count_can_never_grow_a_hand_past_printable(table):
    """6e4299 and its like used to brick the journal: a hand too big for Python to print again."""
    refuse(table, "bad_request", line='{"cmd":"press","player":"Bob","fired":6e4299}')
    refuse(table, "bad_json", line='{"cmd":"press","player":"Bob","fired":' + "9" * 5000 + "}")
    assert table.state()["hands"]["Bob"] == HAND


def test_a_discard_all_count_past_a_deck_is_bad_count(table):
    refuse(table, "bad_count", cmd="play", player="Bob", card="GD", count=10**9)


def hand_over(table) -> None:
    """Bob plays down to his last card and goes out while Cy and Ann press and get nothing: they hold 7."""
    for _ in range(6):
        accept(table, cmd="play", player="Bob", card="G1")
        accept(table, cmd="press", player="Cy", fired=0)
        accept(table, cmd="press", player="Ann", fired=0)
    accept(table, cmd="play", player="Bob", card="G4")
    assert table.state()["phase"] == "hand_over"


@pytest.mark.parametrize("points", [10**6, 5601, 10**4000])
def test_points_past_a_whole_deck_are_bad_points(table, points):
    hand_over(table)
    refuse(table, "bad_points", cmd="score", points={"Ann": points, "Bob": 0, "Cy": 1})


def test_points_that_the_hand_could_not_hold_are_bad_points(table):
    hand_over(table)
    held = table.state()["hands"]["Ann"]
    assert held == HAND
    most = sum(sorted((CARDS[code].points for code in EXTREME.deck), reverse=True)[:held])  # the 7 best cards
    reply = refuse(table, "bad_points", cmd="score", points={"Ann": most + 1, "Bob": 0, "Cy": 3})
    assert str(most) in reply["error"]["message"]
    assert accept(table, cmd="score", points={"Ann": most, "Bob": 0, "Cy": 3})["scores"]["Bob"] > 0


def test_a_press_with_fired_but_no_player_on_a_launcher_table_goes_to_the_presser(tmp_path):
    launcher = ScriptLauncher()
    table = new_table(launcher=launcher, journal=Journal(tmp_path / "t.db"))
    started(table)
    state = accept(table, cmd="press", fired=2)
    assert state["hands"]["Bob"] == HAND + 2 and launcher.fires == []
    assert table.journal.entries()[-1] == {"cmd": "press", "player": "Bob", "fired": 2}


def test_a_press_with_fired_but_no_player_when_nobody_owes_is_not_owed():
    table = new_table(launcher=ScriptLauncher())
    refuse(table, "not_owed", cmd="press", fired=2)


def test_a_press_without_player_on_a_table_without_launcher_still_needs_the_player(table):
    refuse(table, "bad_request", cmd="press", fired=2)


def test_a_failing_journal_write_refuses_the_request_and_leaves_the_table_as_it_was(tmp_path, monkeypatch):
    table = new_table(journal=Journal(tmp_path / "t.db"))
    started(table)

    def full(request):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(table.journal, "append", full)
    reply = refuse(table, "journal_error", cmd="play", player="Bob", card="G3")
    assert "No space left" in reply["error"]["message"]
    monkeypatch.undo()
    accept(table, cmd="play", player="Bob", card="G3")
    table.close()
    assert Table.resume(tmp_path / "t.db").state()["top"] == "G3"


def test_bad_points_for_a_hand_of_one_card_says_one_card(table):
    """The sentence counts in words: `1 card`, never `1 cards` (a hand the table counted at one card)."""
    from unox.table.bounds import check_points
    from unox.table.requests import ProtocolError

    with pytest.raises(ProtocolError) as info:
        check_points(table.game, {"phase": "hand_over", "hands": {"Ann": 1}}, {"Ann": 10**3})
    assert "Ann holds 1 card as far as the table knows, worth at most 50 points" in str(info.value)
