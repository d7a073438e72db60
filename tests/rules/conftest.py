"""Fixtures for the rules tests: games set up at a known position, and a full snapshot to prove a refused
call changed nothing."""

from __future__ import annotations

import copy
import random

import pytest
from unox.rules.game import Game
from unox.rules.stacking import stacked_deck

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def snapshot(game: Game) -> tuple:
    """Everything a call could change: the protocol state plus the engine's private bookkeeping."""
    cards = game.cards
    tracked = (
        {p: list(h) for p, h in cards.hands.items()} if cards.dealt else dict(cards.sizes),
        list(cards.stack) if cards.dealt else cards.launcher,
        list(cards.piled) if cards.dealt else cards.pile,
    )
    order = game.order
    turn = (order.turn, order.direction, copy.deepcopy(order.owed), order.must_match, list(order.players))
    private = (game._undo, game._catchable, game._safe, game._precalled, game.phase, game.top, game.color)
    return game.state(), tracked, turn, private


@pytest.fixture
def physical():
    """A physical-mode game with the first card turned up: `physical(first="G7", players=..., dealer=...)`."""

    def make(first: str | None = "G7", players=PLAYERS, dealer=None, color=None, **options) -> Game:
        game = Game(players, **options)
        game.deal(dealer or players[0])
        if first is not None:
            game.flip(first, color)
        return game

    return make


@pytest.fixture
def dealt():
    """A dealt-mode game from a stacked deck: `dealt(hands={...}, flip=["G7"], then=[...])`."""

    def make(hands=None, flip=("G7",), then=(), players=PLAYERS, dealer=None, color=None, seed=0,
             **options) -> Game:
        dealer = dealer or players[0]
        game = Game(players, mode="dealt", rng=random.Random(seed), **options)
        game.deal(dealer, stack=stacked_deck(players, dealer, hands, flip, then))
        for _ in flip:
            if game.phase == "flip":
                game.flip(color=color)
        return game

    return make


@pytest.fixture
def unchanged():
    """`with unchanged(game, "code"):` the block must raise RuleError with that code and change nothing."""
    from contextlib import contextmanager

    from unox.rules.errors import RuleError

    @contextmanager
    def check(game: Game, code: str):
        before = snapshot(game)
        with pytest.raises(RuleError) as info:
            yield info
        assert info.value.code == code, info.value.message
        assert len(info.value.message) > 15  # a sentence telling the person what to do
        assert snapshot(game) == before

    return check
