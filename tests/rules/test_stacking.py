"""Stacked decks deal exactly the chosen hands, first card and launcher order (dealt-mode test set-ups)."""

from collections import Counter

import pytest
from unox.rules.extreme import extreme_deck
from unox.rules.game import Game
from unox.rules.stacking import seated_from, stacked_deck

PLAYERS = ["Ann", "Bob", "Cy"]


def test_stacked_deck_is_a_permutation_of_the_deck():
    order = stacked_deck(PLAYERS, "Cy", {"Ann": ["W", "WA"]}, flip=["RT", "G5"], then=["WF"])
    assert Counter(order) == Counter(extreme_deck())


def test_stacked_deck_deals_the_chosen_cards_from_the_dealers_left():
    assert seated_from(PLAYERS, "Bob") == ["Cy", "Ann", "Bob"]
    game = Game(PLAYERS, mode="dealt")
    hands = {"Ann": ["W", "WA"], "Cy": ["B9"]}
    game.deal("Bob", stack=stacked_deck(PLAYERS, "Bob", hands, flip=["G5"], then=["WF", "R2"]))
    assert {"W", "WA"} <= {c.code for c in game.hand("Ann")}
    assert "B9" in {c.code for c in game.hand("Cy")}
    game.flip()
    assert game.state()["top"] == "G5"
    game.press("Cy", 2)
    assert {"WF", "R2"} <= {c.code for c in game.hand("Cy")}


def test_stacked_deck_refuses_impossible_requests():
    with pytest.raises(ValueError):
        stacked_deck(PLAYERS, "Ann", {"Ann": ["WF", "WF", "WF"]})
    with pytest.raises(ValueError):
        stacked_deck(PLAYERS, "Ann", {"Ann": ["G1"] * 2 + ["G2"] * 2 + ["G3"] * 2 + ["G4"] * 2})
