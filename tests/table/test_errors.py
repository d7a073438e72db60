"""Every refusal has its own code, tells a person what to do, and changes nothing: not the state, not the
journal (issue 2, section 4). Each runs on a journalled table in the middle of a hand."""

from __future__ import annotations

import pytest
from unox.table.journal import Journal

from .tablekit import accept, new_table, refuse, send, started


@pytest.fixture
def table(tmp_path):
    """Mid-hand: Ann dealt, G7 turned up, Bob played G3; it is Cy's turn."""
    table = new_table(journal=Journal(tmp_path / "t.db"))
    started(table)
    accept(table, cmd="play", player="Bob", card="G3")
    yield table
    table.close()


# --- protocol-level codes -------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ['{"cmd":"play",', "not json at all", '{"cmd": "state"}}'])
def test_bad_json(table, line):
    refuse(table, "bad_json", line=line)


def test_bad_json_for_bytes_that_are_not_utf8(table):
    from unox.table.jsonl import answer

    before, journalled = table.state(), table.journal.entries()
    reply = answer(table, b'{"cmd":"uno","player":"\xff"}')
    assert reply["error"]["code"] == "bad_json"
    assert "UTF-8" in reply["error"]["message"]
    assert reply["state"] == table.state() == before
    assert table.journal.entries() == journalled


def test_bad_request_for_a_json_array(table):
    refuse(table, "bad_request", line='["play", "Cy", "G4"]')


def test_bad_request_for_a_missing_field(table):
    reply = refuse(table, "bad_request", cmd="play", player="Cy")
    assert "card" in reply["error"]["message"]


def test_bad_request_for_a_wrongly_typed_field(table):
    refuse(table, "bad_request", cmd="press", player="Cy", fired="two")


def test_bad_request_for_a_press_without_fired_and_no_launcher(table):
    reply = refuse(table, "bad_request", cmd="press", player="Cy")
    assert "fired" in reply["error"]["message"]


def test_unknown_cmd(table):
    refuse(table, "unknown_cmd", cmd="draw", player="Cy")


def test_unknown_player(table):
    refuse(table, "unknown_player", cmd="play", player="Dee", card="G4")


# --- codes from the rules engine ------------------------------------------------------------------------


def test_not_your_turn_T1(table):
    refuse(table, "not_your_turn", cmd="play", player="Ann", card="G4")


def test_illegal_card_T1(table):
    refuse(table, "illegal_card", cmd="play", player="Cy", card="R4")


def test_owes_presses_P1(table):
    accept(table, cmd="penalty", player="Cy", kind="advice")
    refuse(table, "owes_presses", cmd="play", player="Cy", card="G4")


def test_not_owed_T2(table):
    refuse(table, "not_owed", cmd="press", player="Ann", fired=1)


def test_catch_window_closed_U2(table):
    """Bob is not down to one card: there is no window to catch him in."""
    refuse(table, "catch_window_closed", cmd="catch", player="Bob", by="Cy")


def test_catch_window_closes_when_the_next_player_presses_U2(tmp_path):
    table = new_table()
    started(table)
    accept(table, cmd="play", player="Bob", card="GD", count=4)
    accept(table, cmd="press", player="Cy", fired=0)
    accept(table, cmd="press", player="Ann", fired=0)
    assert accept(table, cmd="play", player="Bob", card="G5")["uno"] == ["Bob"]
    accept(table, cmd="press", player="Cy", fired=1)
    refuse(table, "catch_window_closed", cmd="catch", player="Bob", by="Ann")


def test_wrong_phase_for_a_play_before_the_deal():
    table = new_table()
    refuse(table, "wrong_phase", cmd="play", player="Bob", card="G3")


def test_bad_card_code(table):
    refuse(table, "bad_card", cmd="play", player="Cy", card="G0")


def test_missing_color_for_a_wild(table):
    refuse(table, "missing_color", cmd="play", player="Cy", card="W")


def test_bad_penalty_kind(table):
    refuse(table, "bad_penalty", cmd="penalty", player="Cy", kind="cheating")


def test_bad_fired_when_negative(table):
    refuse(table, "bad_fired", cmd="press", player="Cy", fired=-1)


def test_score_before_the_hand_is_over(table):
    refuse(table, "wrong_phase", cmd="score", points={"Ann": 1, "Bob": 2, "Cy": 3})


def test_nothing_to_undo_on_a_fresh_table():
    table = new_table()
    refuse(table, "nothing_to_undo", cmd="undo")


def test_a_refusal_leaves_the_table_usable(table):
    send(table, cmd="play", player="Cy", card="R4")
    state = accept(table, cmd="play", player="Cy", card="G4")
    assert state["top"] == "G4"


# Each engine code reachable in physical mode passes through the protocol unchanged (Cy is to play, G3 up).
ENGINE_REFUSALS = [
    ("bad_color", {"cmd": "play", "player": "Cy", "card": "W", "color": "purple"}),
    ("unexpected_color", {"cmd": "play", "player": "Cy", "card": "G4", "color": "red"}),
    ("missing_target", {"cmd": "play", "player": "Cy", "card": "GT"}),
    ("bad_target", {"cmd": "play", "player": "Cy", "card": "GT", "target": "Cy"}),
    ("bad_count", {"cmd": "play", "player": "Cy", "card": "GD", "count": 7}),
    ("uno_not_due", {"cmd": "uno", "player": "Ann"}),
    ("bad_catcher", {"cmd": "catch", "player": "Bob", "by": "Bob"}),
    ("nothing_to_take_back", {"cmd": "penalty", "player": "Ann", "kind": "wrong_card"}),
    ("wrong_phase", {"cmd": "flip", "card": "G2"}),
]


@pytest.mark.parametrize("code, request_", ENGINE_REFUSALS, ids=[code for code, _ in ENGINE_REFUSALS])
def test_engine_refusals_pass_through_with_their_code(table, code, request_):
    refuse(table, code, request_)


def test_nothing_to_reload_R1():
    table = new_table()
    started(table)
    refuse(table, "nothing_to_reload", cmd="reload")


def test_trade_last_card_A5():
    table = new_table()
    started(table, card="R7")
    accept(table, cmd="uno", player="Bob")
    accept(table, cmd="play", player="Bob", card="RD", count=5)
    accept(table, cmd="press", player="Cy", fired=0)
    accept(table, cmd="press", player="Ann", fired=0)
    refuse(table, "trade_last_card", cmd="play", player="Bob", card="RT", target="Cy")


def test_bad_points_G1():
    table = new_table()
    started(table)
    accept(table, cmd="uno", player="Bob")
    accept(table, cmd="play", player="Bob", card="GD", count=5)
    accept(table, cmd="press", player="Cy", fired=0)
    accept(table, cmd="press", player="Ann", fired=0)
    accept(table, cmd="play", player="Bob", card="G5")
    refuse(table, "bad_points", cmd="score", points={"Ann": 3, "Bob": 0})
    refuse(table, "bad_points", cmd="score", points={"Ann": 3, "Bob": 5, "Cy": 1})
