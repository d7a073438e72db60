"""Games at a known position for the bot tests: a stacked deck, dealt by Ann, so Bob plays first."""

from __future__ import annotations

import random

import pytest
from unox.rules.game import Game
from unox.rules.stacking import stacked_deck

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture
def stacked():
    """`stacked(hands={...}, flip="G7", plays=[("Bob", "G1"), ...])`: deal, flip, then make the plays."""

    def make(hands, flip="G7", plays=(), players=PLAYERS, seed=0) -> Game:
        game = Game(players, mode="dealt", rng=random.Random(seed))
        game.deal(players[0], stack=stacked_deck(players, players[0], hands, [flip]))
        game.flip()
        for player, card in plays:
            game.play(player, card)
        return game

    return make
