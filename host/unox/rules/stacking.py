"""Stacked decks for dealt mode: choose the hands, the first card and what the launcher fires next.

Tests, tutorials and replays use this to set up an exact position with `Game.deal(dealer, stack=...)`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from unox.rules.tracking import HAND_SIZE

if TYPE_CHECKING:
    from unox.rules.ruleset import Ruleset


def seated_from(players: Sequence[str], dealer: str) -> list[str]:
    """The players in dealing order: the dealer's left first, the dealer last."""
    start = list(players).index(dealer)
    return [players[(start + i) % len(players)] for i in range(1, len(players) + 1)]


def stacked_deck(
    players: Sequence[str],
    dealer: str,
    hands: Mapping[str, Sequence[str]] | None = None,
    flip: Sequence[str] = (),
    then: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    rules: Ruleset | str | None = None,
) -> list[str]:
    """A full deck order for `Game.deal(dealer, stack=...)`.

    `hands` gives up to 7 cards per player (the rest are filled from the unused cards, numbers first);
    `flip` the cards turned up in order (more than one when Trade Hands comes first); `then` the next cards
    to come out of the launcher, in order. `rules` (name or Ruleset) gives the edition's deck (default
    Extreme).
    """
    from unox.rules.editions import get_rules

    edition = rules if rules is not None and not isinstance(rules, str) else get_rules(rules or "extreme")
    parse_card = edition.parse_card
    hands = hands or {}
    left = Counter(deck if deck is not None else edition.deck)
    wanted = [c for cards in hands.values() for c in cards] + list(flip) + list(then)
    for code in wanted:
        code = parse_card(code).code
        if left[code] == 0:
            raise ValueError(f"the deck has no more {code} to stack")
        left[code] -= 1
    filler = sorted(left.elements(), key=lambda c: (parse_card(c).color is None, parse_card(c).points, c))
    order: list[str] = []
    for player in seated_from(players, dealer):
        own = [parse_card(c).code for c in hands.get(player, ())]
        if len(own) > HAND_SIZE:
            raise ValueError(f"{player} can be dealt at most {HAND_SIZE} cards")
        while len(own) < HAND_SIZE:
            own.append(filler.pop(0))
        order += own
    order += [parse_card(c).code for c in flip] + [parse_card(c).code for c in then]
    # the rest lies under `then` in the launcher; the filler's low cards come out soonest
    return order + filler
