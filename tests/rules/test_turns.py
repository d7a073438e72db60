"""A turn: T1 (matching), T2 (cannot play: press once, turn ends), T3 (may choose to press), T4 (fired cards
belong to the presser)."""

from hypothesis import given
from hypothesis import strategies as st
from unox.rules.cards import CARDS
from unox.rules.extreme import playable

CODES = sorted(CARDS)


def _matches_by_rules_text(card, top, color):
    """T1 and A1-A6 restated: wilds anywhere; else same colour, same number, or same action symbol."""
    if card.kind.startswith("wild"):
        return True
    if card.color == color:
        return True
    if card.kind == "number":
        return top.kind == "number" and top.number == card.number
    return card.kind == top.kind


@given(st.sampled_from(CODES), st.sampled_from(CODES), st.sampled_from("RYGB"))
def test_T1_playable_matches_colour_number_or_symbol(card, top, color):
    card, top = CARDS[card], CARDS[top]
    color = top.color or color
    assert playable(card, top, color) == _matches_by_rules_text(card, top, color)


def test_T1_number_on_same_number_other_colour(physical):
    game = physical(first="G7")
    game.play("Bob", "R7")
    assert game.state()["color"] == "red"


def test_T1_wild_goes_on_anything_and_names_colour(physical):
    game = physical(first="G7")
    game.play("Bob", "W", color="yellow")
    s = game.state()
    assert s["top"] == "W" and s["color"] == "yellow" and s["turn"] == "Cy"
    game.play("Cy", "Y1")


def test_T1_wrong_colour_and_number_refused(physical, unchanged):
    game = physical(first="G7")
    with unchanged(game, "illegal_card"):
        game.play("Bob", "R6")


def test_T2_press_once_keeps_fired_cards_and_ends_turn(physical):
    game = physical(first="G7")
    before = game.state()
    game.press("Bob", 3)
    s = game.state()
    assert s["turn"] == "Cy" and s["hands"]["Bob"] == 10
    assert s["launcher"]["cards"] == before["launcher"]["cards"] - 3


def test_T2_no_play_after_pressing(physical, unchanged):
    game = physical(first="G7")
    game.press("Bob", 0)
    with unchanged(game, "not_your_turn"):
        game.play("Bob", "G3")


def test_T3_may_press_while_holding_a_playable_card(dealt):
    game = dealt(hands={"Bob": ["G3", "G4", "R1", "R2", "R3", "R4", "R5"]}, flip=["G7"], then=["B9"])
    assert game.legal_plays("Bob")
    game.press("Bob", 1)
    assert game.state()["turn"] == "Cy"
    assert [c.code for c in game.hand("Bob")].count("B9") == 1


def test_T4_dealt_press_moves_exactly_the_fired_cards_from_launcher_to_presser(dealt):
    game = dealt(flip=["G7"], then=["B9", "WA", "R3"])
    launcher = game.launcher_cards
    game.press("Bob", 3)
    assert game.launcher_cards == launcher - 3
    codes = [c.code for c in game.hand("Bob")]
    assert all(codes.count(c) >= 1 for c in ("B9", "WA", "R3"))
    assert len(codes) == 10


def test_T4_fired_cards_go_to_the_owed_presser_not_the_turn_player(physical):
    game = physical(first="G7")
    game.play("Bob", "GH")
    game.press("Cy", 2)
    game.press("Cy", 1)
    s = game.state()
    assert s["hands"]["Cy"] == 10 and s["hands"]["Dee"] == 7 and s["turn"] == "Dee"


def test_T_turn_passes_round_the_table_to_the_left(physical):
    game = physical(first="G7", dealer="Ann")
    order = []
    for _ in range(8):
        order.append(game.state()["turn"])
        game.press(game.presser(), 0)
    assert order == ["Bob", "Cy", "Dee", "Ann"] * 2


def test_T_legal_plays_lists_exactly_the_playable_cards(dealt):
    hand = ["G3", "R7", "B1", "W", "RT", "GD", "G5"]
    game = dealt(hands={"Bob": hand}, flip=["G7"])
    plays = game.legal_plays("Bob")
    cards = {p.card for p in plays}
    assert cards == {"G3", "R7", "W", "GD", "G5"}
    assert {p.color for p in plays if p.card == "W"} == {"red", "yellow", "green", "blue"}
    (da,) = [p for p in plays if p.card == "GD"]
    assert da.count == 2  # G3 and G5
    assert game.legal_plays("Cy") == []
    for play in plays:  # every listed play is accepted
        copy = dealt(hands={"Bob": hand}, flip=["G7"])
        copy.play("Bob", *play)


def test_T_legal_plays_needs_dealt_mode(physical, unchanged):
    game = physical()
    with unchanged(game, "wrong_phase"):
        game.legal_plays("Bob")
