"""UNO and going out: U1 (call UNO on the second-to-last card), U2 (the catch window), U3 (going out, with
the presses of a last Hit card still happening)."""

import pytest


def _down_to(game, player, cards, other_presser_order):
    """Physical mode: `player` plays green numbers until holding `cards`; others press in between."""
    while game.state()["hands"][player] > cards:
        assert game.presser() == player
        game.play(player, "G3")
        for other in other_presser_order:
            game.press(other, 0)


@pytest.fixture
def two_left(physical):
    """Bob holds 2 cards and it is his turn (4 players, dealer Ann)."""
    game = physical(first="G7", dealer="Ann")
    _down_to(game, "Bob", 2, ["Cy", "Dee", "Ann"])
    return game


def test_U1_second_to_last_card_opens_the_catch_window(two_left):
    two_left.play("Bob", "G4")
    assert two_left.state()["uno"] == ["Bob"]


def test_U1_calling_uno_after_playing_is_safe(two_left, unchanged):
    two_left.play("Bob", "G4")
    two_left.uno("Bob")
    assert two_left.state()["uno"] == []
    with unchanged(two_left, "called_uno"):
        two_left.catch("Bob", by="Cy")


def test_U1_calling_uno_before_playing_is_safe(two_left):
    two_left.uno("Bob")
    two_left.play("Bob", "G4")
    assert two_left.state()["uno"] == []


def test_U1_uno_call_out_of_place_is_refused(two_left, unchanged):
    with unchanged(two_left, "uno_not_due"):
        two_left.uno("Cy")


def test_U2_caught_player_presses_twice(two_left):
    two_left.play("Bob", "G4")
    two_left.catch("Bob", by="Dee")
    s = two_left.state()
    assert s["owed"] == [{"player": "Bob", "presses": 2}] and s["uno"] == []
    assert two_left.presser() == "Bob"
    two_left.press("Bob", 1)
    two_left.press("Bob", 2)
    s = two_left.state()
    assert s["hands"]["Bob"] == 4 and s["turn"] == "Cy"


def test_U2_window_closes_when_the_next_player_presses(two_left, unchanged):
    two_left.play("Bob", "G4")
    two_left.press("Cy", 0)
    assert two_left.state()["uno"] == []
    with unchanged(two_left, "catch_window_closed"):
        two_left.catch("Bob", by="Dee")


def test_U2_window_closes_when_the_next_player_plays(two_left, unchanged):
    two_left.play("Bob", "G4")
    two_left.play("Cy", "G5")
    with unchanged(two_left, "catch_window_closed"):
        two_left.catch("Bob", by="Dee")


def test_U2_no_catch_before_the_second_to_last_card_is_down(two_left, unchanged):
    with unchanged(two_left, "catch_window_closed"):
        two_left.catch("Bob", by="Cy")


def test_U2_window_stays_open_through_a_hit2_until_the_first_press(two_left, unchanged):
    two_left.play("Bob", "GH")
    assert two_left.state()["uno"] == ["Bob"]
    two_left.press("Cy", 0)
    with unchanged(two_left, "catch_window_closed"):
        two_left.catch("Bob", by="Dee")


def test_U2_cannot_catch_yourself(two_left, unchanged):
    two_left.play("Bob", "G4")
    with unchanged(two_left, "bad_catcher"):
        two_left.catch("Bob", by="Bob")


def test_U3_last_card_ends_the_hand(two_left):
    two_left.uno("Bob")
    two_left.play("Bob", "G4")
    two_left.press("Cy", 0)
    two_left.press("Dee", 0)
    two_left.press("Ann", 0)
    two_left.play("Bob", "G5")
    s = two_left.state()
    assert s["phase"] == "hand_over" and s["went_out"] == "Bob" and s["hands"]["Bob"] == 0
    assert s["turn"] is None


@pytest.mark.parametrize("last, owed", [("GH", [("Cy", 2)]), ("WA", [("Cy", 1), ("Dee", 1), ("Ann", 1)]),
                                        ("WF", [("Cy", None)])])
def test_U3_presses_of_a_last_hit_card_still_happen(physical, last, owed):
    game = physical(first="G7", dealer="Ann")
    _down_to(game, "Bob", 1, ["Cy", "Dee", "Ann"])
    game.play("Bob", last, color="green" if last.startswith("W") else None)
    s = game.state()
    assert s["phase"] == "turn" and s["step"] == "pressing" and s["went_out"] == "Bob"
    fired = {}
    for player, presses in owed:
        for _ in range(presses or 1):
            game.press(player, 2)
            fired[player] = fired.get(player, 0) + 2
    s = game.state()
    assert s["phase"] == "hand_over"
    assert all(s["hands"][p] == 7 + n for p, n in fired.items())


def test_U3_dealt_fired_cards_count_in_the_score(dealt):
    game = dealt(hands={"Bob": ["GH", "G1", "G2", "G3", "G4", "G5", "G6"], "Cy": ["R1"] * 2 + ["R2"] * 2 +
                        ["R3"] * 2 + ["R4"]}, flip=["G7"], then=["WA", "WF"], players=["Ann", "Bob", "Cy"],
                 dealer="Ann")
    game.play("Bob", "G1")
    while len(game.hand("Bob")) > 1:
        game.press(game.presser(), 0)  # Cy
        game.press(game.presser(), 0)  # Ann
        game.play("Bob", next(p for p in game.legal_plays("Bob") if p.card != "GH"))
    game.press("Cy", 0)
    game.press("Ann", 0)
    cy_before = sum(c.points for c in game.hand("Cy"))
    ann_points = sum(c.points for c in game.hand("Ann"))
    game.play("Bob", "GH")
    game.press("Cy", 1)  # WA, 50 points
    game.press("Cy", 1)  # WF, 50 points
    assert game.state()["phase"] == "deal"
    assert game.scores["Bob"] == cy_before + 100 + ann_points
