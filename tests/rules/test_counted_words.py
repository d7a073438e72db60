"""Counts in the rules' messages say `1 card`, never `1 cards` (the rules keep their own `counted`)."""

from __future__ import annotations

import random

import pytest
from unox.rules.errors import RuleError
from unox.rules.game import Game
from unox.rules.words import counted


def test_counted_says_the_noun_in_the_number_given():
    assert [counted(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


def test_A4_a_dealt_hand_with_one_other_card_of_the_colour_says_one_card(dealt, unchanged):
    game = dealt(hands={"Bob": ["GD", "G1", "R2", "R3", "B4", "B5", "Y6"]}, flip=["G7"])
    with unchanged(game, "bad_count") as info:
        game.play("Bob", "GD", count=0)
    assert "Bob holds 1 other green card (A4)" in info.value.message, info.value.message


def test_A4_a_physical_hand_of_one_card_says_one_card(unchanged):
    game = Game(("Ann", "Bob"))
    game.deal("Ann")
    game.flip("G7")
    for number in range(1, 6):
        game.play("Bob", f"G{number}")
        game.play("Ann", f"G{number}")
    game.uno("Bob")
    game.play("Bob", "G6")
    game.play("Ann", "G6")
    assert game.state()["hands"]["Bob"] == 1 and game.state()["turn"] == "Bob"
    with unchanged(game, "bad_count") as info:
        game.play("Bob", "GD", count=1)
    assert "Bob holds only 1 card: the count" in info.value.message, info.value.message


def test_a_launcher_holding_one_card_says_one_card():
    game = Game(("Ann", "Bob"), mode="dealt", rng=random.Random(0))
    game.deal("Ann")
    if game.phase == "flip":
        game.flip()
    game.press(game.state()["turn"], game.cards.launcher - 1)
    assert game.cards.launcher == 1
    with pytest.raises(RuleError) as info:
        game.press(game.state()["turn"], 2)
    assert info.value.code == "bad_fired"
    assert "the launcher holds only 1 card: fire" in info.value.message, info.value.message
