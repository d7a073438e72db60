"""S1: who deals. Each player takes a card; the highest number deals, action cards count 0, ties redraw."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from unox.rules.cards import Card, CardError, parse_card
from unox.rules.errors import RuleError

if TYPE_CHECKING:
    from unox.rules.ruleset import Ruleset


@dataclass(frozen=True)
class DealerDraw:
    """The outcome of one round of draws: a dealer, or the tied players who must draw again."""

    dealer: str | None
    redraw: tuple[str, ...] = ()


def draw_value(card: Card) -> int:
    """S1: a number counts its face value; every other card counts 0."""
    return card.number or 0


def pick_dealer(draws: Mapping[str, str | Card], rules: Ruleset | None = None) -> DealerDraw:
    """One round of S1 from {player: card drawn}. On a tie for highest only the tied players redraw.
    `rules` gives the edition's cards and how a card counts (default Extreme's S1)."""
    if len(draws) < 1:
        raise RuleError("bad_draw", "give one drawn card per player, e.g. {'Ann': 'G7', 'Bob': 'R3'}")
    values: dict[str, int] = {}
    for player, code in draws.items():
        try:
            values[player] = (draw_value(parse_card(code)) if rules is None
                              else rules.dealer_value(rules.parse_card(code)))
        except CardError as exc:
            raise RuleError("bad_draw", f"{player}'s draw: {exc}") from exc
    best = max(values.values())
    top = tuple(p for p, v in values.items() if v == best)
    if len(top) == 1:
        return DealerDraw(top[0])
    return DealerDraw(None, top)


def choose_dealer(players: Sequence[str], rng: random.Random, rules: Ruleset | None = None) -> str:
    """Dealt mode: draw from a shuffled deck until S1 names one dealer (tied players redraw)."""
    if rules is None:
        from unox.rules.editions import get_rules

        rules = get_rules()
    deck = list(rules.deck)
    drawing = tuple(players)
    while True:
        rng.shuffle(deck)
        result = pick_dealer(dict(zip(drawing, deck, strict=False)), rules)
        if result.dealer is not None:
            return result.dealer
        drawing = result.redraw
