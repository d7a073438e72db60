"""Every table-protocol v1 request, accepted: what each one does to the state S (issue 2, section 4).

Expectations come from the rules text and from counting cards, not from the engine's output.
"""

from __future__ import annotations

from .tablekit import DECK, HAND, PLAYERS, accept, left_of, new_table, refuse, send, started

AFTER_FLIP = DECK - HAND * len(PLAYERS) - 1


def test_state_reports_the_fields_the_protocol_pins():
    table = new_table()
    state = accept(table, cmd="state")
    for key in ("phase", "turn", "direction", "top", "color", "hands", "owed", "uno", "scores", "winner"):
        assert key in state, key
    assert state["phase"] == "deal"
    assert "cards" in state["launcher"]
    assert set(state["scores"]) == set(PLAYERS)
    assert state["winner"] is None


def test_state_changes_nothing_and_is_not_journalled():
    table = new_table()
    started(table)
    before = table.state()
    assert accept(table, cmd="state") == before
    assert [r["cmd"] for r in table.entries] == ["deal", "flip"]


def test_S2_deal_gives_every_hand_seven_cards():
    table = new_table()
    state = accept(table, cmd="deal", dealer="Ann")
    assert state["phase"] == "flip"
    assert state["hands"] == {p: HAND for p in PLAYERS}


def test_S3_flip_of_a_number_starts_left_of_the_dealer_and_fills_the_launcher():
    table = new_table()
    accept(table, cmd="deal", dealer="Cy")
    state = accept(table, cmd="flip", card="G7")
    assert state["phase"] == "turn"
    assert state["turn"] == left_of("Cy") == "Ann"
    assert state["direction"] == "left"
    assert state["top"] == "G7"
    assert state["owed"] == []
    assert state["launcher"]["cards"] == AFTER_FLIP


def test_S4_flip_of_a_wild_takes_the_colour():
    table = new_table()
    accept(table, cmd="deal", dealer="Ann")
    state = accept(table, cmd="flip", card="W", color="blue")
    assert state["top"] == "W"
    assert state["color"] == "blue"  # S in docs/table-protocol.md names the colour in full
    assert state["turn"] == "Bob"


def test_S4_flip_of_trade_hands_keeps_the_phase_flip_until_another_card():
    table = new_table()
    accept(table, cmd="deal", dealer="Ann")
    state = accept(table, cmd="flip", card="RT")
    assert state["phase"] == "flip"
    assert state["launcher"]["cards"] == AFTER_FLIP + 1
    state = accept(table, cmd="flip", card="Y4")
    assert state["phase"] == "turn"
    assert state["top"] == "Y4"
    assert state["launcher"]["cards"] == AFTER_FLIP


def test_S4_flip_of_hit_2_makes_the_left_player_press_twice():
    table = new_table()
    accept(table, cmd="deal", dealer="Ann")
    state = accept(table, cmd="flip", card="RH")
    assert state["owed"] == [{"player": "Bob", "presses": 2}]


def test_T1_play_by_colour_moves_one_card_and_passes_the_turn_left():
    table = new_table()
    started(table)
    state = accept(table, cmd="play", player="Bob", card="G3")
    assert state["hands"] == {"Ann": HAND, "Bob": HAND - 1, "Cy": HAND}
    assert state["top"] == "G3"
    assert state["turn"] == "Cy"


def test_A6_play_of_a_wild_names_the_colour():
    table = new_table()
    started(table)
    state = accept(table, cmd="play", player="Bob", card="W", color="red")
    assert state["top"] == "W"
    assert state["color"] == "red"
    assert state["turn"] == "Cy"


def test_A5_play_of_trade_hands_swaps_with_the_target():
    table = new_table()
    started(table, card="R7")
    state = accept(table, cmd="play", player="Bob", card="RT", target="Cy")
    assert state["hands"]["Bob"] == HAND
    assert state["hands"]["Cy"] == HAND - 1


def test_A4_play_of_discard_all_sheds_the_counted_cards_too():
    table = new_table()
    started(table)
    state = accept(table, cmd="play", player="Bob", card="GD", count=2)
    assert state["hands"]["Bob"] == HAND - 3
    assert state["top"] == "GD"


def test_T2_press_adds_the_fired_cards_and_ends_the_turn():
    table = new_table()
    started(table)
    state = accept(table, cmd="press", player="Bob", fired=3)
    assert state["hands"]["Bob"] == HAND + 3
    assert state["launcher"]["cards"] == AFTER_FLIP - 3
    assert state["turn"] == "Cy"


def _bob_down_to_two(table) -> None:
    """Bob sheds five cards with a Discard All, the others press without luck: Bob is to play again."""
    started(table)
    accept(table, cmd="play", player="Bob", card="GD", count=4)
    accept(table, cmd="press", player="Cy", fired=0)
    accept(table, cmd="press", player="Ann", fired=0)


def test_U1_uno_call_protects_against_a_catch():
    table = new_table()
    _bob_down_to_two(table)
    accept(table, cmd="play", player="Bob", card="G5")
    state = accept(table, cmd="uno", player="Bob")
    assert "Bob" not in state["uno"]
    refuse(table, "called_uno", cmd="catch", player="Bob", by="Cy")


def test_U2_catch_makes_the_caught_player_press_twice():
    table = new_table()
    _bob_down_to_two(table)
    state = accept(table, cmd="play", player="Bob", card="G5")
    assert state["uno"] == ["Bob"]
    state = accept(table, cmd="catch", player="Bob", by="Cy")
    assert {"player": "Bob", "presses": 2} in state["owed"]
    assert state["uno"] == []


def test_P1_advice_penalty_owes_four_presses():
    table = new_table()
    started(table)
    state = accept(table, cmd="penalty", player="Cy", kind="advice")
    assert state["owed"] == [{"player": "Cy", "presses": 4}]


def test_P2_wrong_card_penalty_takes_the_card_back_and_owes_two_presses():
    table = new_table()
    started(table)
    accept(table, cmd="play", player="Bob", card="G3")
    state = accept(table, cmd="penalty", player="Bob", kind="wrong_card")
    assert state["hands"]["Bob"] == HAND
    assert state["top"] == "G7"
    assert state["owed"] == [{"player": "Bob", "presses": 2}]


def test_R1_reload_puts_every_discard_but_the_top_back_into_the_launcher():
    table = new_table()
    started(table)
    accept(table, cmd="play", player="Bob", card="G3")
    accept(table, cmd="play", player="Cy", card="G4")
    state = accept(table, cmd="reload")
    assert state["launcher"]["cards"] == AFTER_FLIP + 2
    assert state["top"] == "G4"


def _bob_goes_out(table) -> dict:
    started(table)
    accept(table, cmd="uno", player="Bob")
    accept(table, cmd="play", player="Bob", card="GD", count=5)
    accept(table, cmd="press", player="Cy", fired=0)
    accept(table, cmd="press", player="Ann", fired=0)
    return accept(table, cmd="play", player="Bob", card="G5")


def test_U3_going_out_ends_the_hand_and_G1_score_credits_the_others_points():
    table = new_table()
    state = _bob_goes_out(table)
    assert state["phase"] == "hand_over"
    assert state["hands"]["Bob"] == 0
    points = {"Ann": 30, "Bob": 0, "Cy": 41}
    state = accept(table, cmd="score", points=points)
    assert state["phase"] == "deal"
    assert state["scores"] == {"Ann": 0, "Bob": 30 + 41, "Cy": 0}


def test_G1_score_past_the_target_ends_the_game():
    table = new_table(target=50)
    _bob_goes_out(table)
    state = accept(table, cmd="score", points={"Ann": 30, "Bob": 0, "Cy": 41})
    assert state["phase"] == "game_over"
    assert state["winner"] == "Bob"


def test_G2_score_adds_each_players_own_points():
    table = new_table(scoring="g2")
    _bob_goes_out(table)
    state = accept(table, cmd="score", points={"Ann": 30, "Bob": 0, "Cy": 41})
    assert state["scores"] == {"Ann": 30, "Bob": 0, "Cy": 41}


def test_requests_reply_with_one_json_object_holding_ok_and_state():
    table = new_table()
    reply = send(table, cmd="deal", dealer="Ann")
    assert set(reply) == {"ok", "state"}
