"""Set-up: S1 (who deals), S2 (7 cards each, first card, the rest in the launcher), S3 (left starts, play goes
left) and S4 (the first card's effect, every kind)."""

import random

import pytest
from unox.rules.errors import RuleError
from unox.rules.extreme import extreme_deck
from unox.rules.game import Game
from unox.rules.setup import choose_dealer, pick_dealer

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


# --- S1 ----------------------------------------------------------------------------------------------------

def test_S1_highest_number_deals():
    assert pick_dealer({"Ann": "G3", "Bob": "R9", "Cy": "B8"}).dealer == "Bob"


def test_S1_action_cards_count_zero():
    result = pick_dealer({"Ann": "W", "Bob": "R1", "Cy": "GH", "Dee": "WF"})
    assert result.dealer == "Bob"


def test_S1_tie_for_highest_means_the_tied_players_redraw():
    result = pick_dealer({"Ann": "G9", "Bob": "R9", "Cy": "B8"})
    assert result.dealer is None and set(result.redraw) == {"Ann", "Bob"}
    assert pick_dealer({"Ann": "RS", "Bob": "WA"}).redraw == ("Ann", "Bob")


def test_S1_bad_draw_is_refused():
    with pytest.raises(RuleError) as info:
        pick_dealer({"Ann": "G0"})
    assert info.value.code == "bad_draw"
    with pytest.raises(RuleError) as info:
        pick_dealer({})
    assert info.value.code == "bad_draw"


def test_S1_choose_dealer_is_repeatable_and_seated():
    a = choose_dealer(PLAYERS, random.Random(5))
    assert a == choose_dealer(PLAYERS, random.Random(5))
    assert a in PLAYERS
    seen = {choose_dealer(PLAYERS, random.Random(s)) for s in range(40)}
    assert seen == set(PLAYERS)


def test_S1_dealt_first_hand_without_dealer_draws_for_it():
    game = Game(PLAYERS, mode="dealt", rng=random.Random(3))
    game.deal()
    assert game.dealer in PLAYERS


# --- S2 ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 7, 10])
def test_S2_physical_deal_seven_each_and_launcher_count(n, physical):
    players = [f"P{i}" for i in range(n)]
    game = physical(first=None, players=players)
    s = game.state()
    assert s["phase"] == "flip" and set(s["hands"].values()) == {7}
    assert s["launcher"]["cards"] == 112 - 7 * n
    game.flip("G7")
    assert game.state()["launcher"]["cards"] == 112 - 7 * n - 1
    assert game.state()["discard"] == 1


@pytest.mark.parametrize("n", [2, 5, 10])
def test_S2_dealt_deal_uses_every_card_once(n):
    players = [f"P{i}" for i in range(n)]
    game = Game(players, mode="dealt", rng=random.Random(n))
    game.deal(players[0])
    game.flip(color="red")
    while game.phase == "flip":  # S4 Trade Hands goes back
        game.flip(color="red")
    held = [c.code for p in players for c in game.hand(p)]
    assert all(len(game.hand(p)) == 7 for p in players)
    everything = held + [c.code for c in game.cards.stack] + [c.code for c in game.cards.piled]
    assert sorted(everything) == sorted(extreme_deck())
    assert game.launcher_cards == 112 - 7 * n - 1


# --- S3 ----------------------------------------------------------------------------------------------------

def test_S3_player_left_of_dealer_starts_and_play_goes_left(physical):
    game = physical(first="G7", dealer="Cy")
    s = game.state()
    assert s["turn"] == "Dee" and s["direction"] == "left"
    game.play("Dee", "G3")
    assert game.state()["turn"] == "Ann"


# --- S4 ----------------------------------------------------------------------------------------------------

def test_S4_number_first_has_no_effect(physical):
    s = physical(first="R5", dealer="Ann").state()
    assert (s["turn"], s["owed"], s["color"], s["direction"]) == ("Bob", [], "red", "left")


def test_S4_hit2_first_left_presses_twice_and_is_skipped(physical):
    game = physical(first="BH", dealer="Ann")
    assert game.state()["owed"] == [{"player": "Bob", "presses": 2}]
    assert game.presser() == "Bob"
    game.press("Bob", 0)
    game.press("Bob", 3)
    s = game.state()
    assert s["turn"] == "Cy" and s["owed"] == [] and s["hands"]["Bob"] == 10


def test_S4_reverse_first_dealer_starts_and_play_goes_right(physical):
    game = physical(first="YR", dealer="Bob")
    s = game.state()
    assert s["turn"] == "Bob" and s["direction"] == "right"
    game.play("Bob", "Y2")
    assert game.state()["turn"] == "Ann"


def test_S4_skip_first_left_is_skipped(physical):
    assert physical(first="GS", dealer="Ann").state()["turn"] == "Cy"


def test_S4_wild_first_left_names_colour_then_plays(physical):
    s = physical(first="W", dealer="Ann", color="blue").state()
    assert (s["turn"], s["color"], s["owed"]) == ("Bob", "blue", [])


def test_S4_wild_first_needs_the_colour(physical, unchanged):
    game = physical(first=None)
    with unchanged(game, "missing_color"):
        game.flip("W")


def test_S4_discard_all_first_left_must_match_or_press(physical, unchanged):
    game = physical(first="RD", dealer="Ann")
    s = game.state()
    assert s["turn"] == "Bob" and s["must_match"] is True
    with unchanged(game, "illegal_card"):
        game.play("Bob", "G4")
    game.press("Bob", 1)  # physical mode: the table says Bob could not play
    assert game.state()["turn"] == "Cy" and game.state()["must_match"] is False


def test_S4_discard_all_first_dealt_refuses_press_when_a_match_is_held(dealt, unchanged):
    game = dealt(hands={"Bob": ["R4", "G1", "G2", "G3", "G4", "G5", "G6"]}, flip=["RD"])
    with unchanged(game, "must_play"):
        game.press("Bob", 0)
    game.play("Bob", "R4")
    assert game.state()["turn"] == "Cy"


def test_S4_discard_all_first_dealt_may_press_without_a_match(dealt):
    game = dealt(hands={"Bob": ["B1", "G1", "G2", "G3", "G4", "G5", "G6"]}, flip=["YD"])
    assert game.legal_plays("Bob") == []
    game.press("Bob", 0)
    assert game.state()["turn"] == "Cy"


def test_S4_trade_hands_first_goes_back_and_another_is_turned_up(physical):
    game = physical(first=None, dealer="Ann")
    launcher = game.state()["launcher"]["cards"]
    game.flip("GT")
    s = game.state()
    assert s["phase"] == "flip" and s["top"] is None
    assert s["launcher"]["cards"] == launcher and s["discard"] == 0
    game.flip("G7")
    s = game.state()
    assert s["phase"] == "turn" and s["top"] == "G7" and s["launcher"]["cards"] == launcher - 1


def test_S4_trade_hands_first_dealt_goes_under_the_stack(dealt):
    game = dealt(flip=["BT", "B5"], dealer="Ann")
    assert game.state()["top"] == "B5"
    assert game.cards.stack[0].code == "BT"  # the bottom of the launcher stack


def test_S4_wild_all_hit_first_everyone_but_dealer_presses_once_from_the_left(physical):
    game = physical(first="WA", dealer="Cy", color="green")
    assert game.state()["owed"] == [{"player": p, "presses": 1} for p in ("Dee", "Ann", "Bob")]
    for p in ("Dee", "Ann", "Bob"):
        assert game.presser() == p
        game.press(p, 1)
    s = game.state()
    assert s["turn"] == "Dee" and s["color"] == "green" and s["hands"]["Cy"] == 7


def test_S4_wild_hit_fire_first_left_presses_until_fire_then_skipped(physical):
    game = physical(first="WF", dealer="Ann", color="yellow")
    assert game.state()["owed"] == [{"player": "Bob", "until_fire": True}]
    game.press("Bob", 0)
    game.press("Bob", 0)
    assert game.presser() == "Bob"
    game.press("Bob", 4)
    s = game.state()
    assert s["turn"] == "Cy" and s["owed"] == [] and s["hands"]["Bob"] == 11
