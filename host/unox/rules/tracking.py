"""Where the cards are. Two trackers with one interface, so the same machine runs both ways of playing:

- `PhysicalCards`: the host cannot see the cards; it counts hand sizes, the discard pile and the launcher.
- `DealtCards`: the engine owns the deck, the launcher stack, the pile and every hand (bots, simulations).

Validation happens in the game before any of these are called; they only move cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from unox.rules.cards import Card

HAND_SIZE = 7


class PhysicalCards:
    """Hand sizes and pile/launcher estimates for a real table."""

    dealt = False

    def __init__(self, deck_size: int):
        self.deck_size = deck_size
        self.sizes: dict[str, int] = {}
        self.pile = 0
        self.launcher = 0

    def start(
        self, players: Sequence[str], stack: Sequence[Card] | None = None, hand: int = HAND_SIZE
    ) -> None:
        """`hand` 0: the launcher deals the hands afterwards (DL4), so every card starts inside it."""
        self.sizes = {p: hand for p in players}
        self.pile = 0
        self.launcher = self.deck_size - hand * len(players)

    def hand_size(self, player: str) -> int:
        return self.sizes[player]

    def turn_up(self, card: Card | None) -> Card:
        assert card is not None
        self.launcher = max(0, self.launcher - 1)
        self.pile += 1
        return card

    def put_back_first(self, card: Card) -> None:
        """S4 Trade Hands: the turned-up card goes back under the launcher stack."""
        self.pile -= 1
        self.launcher += 1

    def discard(self, player: str, card: Card, extra: int) -> int:
        """Moves the card and `extra` other cards (Discard All) onto the pile; returns how many moved."""
        moved = 1 + extra
        self.sizes[player] -= moved
        self.pile += moved
        return moved

    def take_back(self, player: str, moved: int) -> None:
        self.sizes[player] += moved
        self.pile -= moved

    def fire(self, player: str, fired: int) -> None:
        self.sizes[player] += fired
        self.launcher = max(0, self.launcher - fired)

    def swap(self, a: str, b: str) -> None:
        self.sizes[a], self.sizes[b] = self.sizes[b], self.sizes[a]

    def reload(self) -> int:
        moved = self.pile - 1
        self.launcher += moved
        self.pile = 1
        return moved

    def hand_points(self, player: str) -> int | None:
        return None


class DealtCards:
    """Every card of the deck, in exactly one of: launcher stack, discard pile, a hand."""

    dealt = True

    def __init__(self, deck: Sequence[Card], rng: random.Random):
        self.deck = list(deck)
        self.rng = rng
        self.hands: dict[str, list[Card]] = {}
        self.stack: list[Card] = []  # the launcher; the end of the list is the card that comes out next
        self.piled: list[Card] = []  # the discard pile; the end is the top card

    @property
    def launcher(self) -> int:
        return len(self.stack)

    @property
    def pile(self) -> int:
        return len(self.piled)

    def start(
        self, players: Sequence[str], stack: Sequence[Card] | None = None, hand: int = HAND_SIZE
    ) -> None:
        """Deals `hand` (7) to each player; 0 leaves every card in the launcher for it to deal (DL4).
        `stack` (a stacked deck, first card first) makes a deal repeatable:
        the first 7 go to the first player given, the next 7 to the next ..., and the rest fill the launcher
        so that the next card of `stack` is the next card to come out."""
        order = list(stack) if stack is not None else self.rng.sample(self.deck, len(self.deck))
        self.hands = {}
        for i, player in enumerate(players):
            self.hands[player] = order[i * hand : (i + 1) * hand]
        rest = order[hand * len(players) :]
        rest.reverse()
        self.stack = rest
        self.piled = []

    def hand_size(self, player: str) -> int:
        return len(self.hands[player])

    def color_count(self, player: str, color: str | None) -> int:
        return sum(1 for c in self.hands[player] if c.color == color)

    def turn_up(self, card: Card | None) -> Card:
        if card is None:
            card = self.stack.pop()
        else:
            self.stack.remove(card)
        self.piled.append(card)
        return card

    def put_back_first(self, card: Card) -> None:
        self.piled.pop()
        self.stack.insert(0, card)

    def discard(self, player: str, card: Card, extra: int) -> int:
        hand = self.hands[player]
        hand.remove(card)
        if card.kind == "discard_all":
            same = [c for c in hand if c.color == card.color]
            if same:
                self.hands[player] = [c for c in hand if c.color != card.color]
                self.piled.extend(same)
            self.piled.append(card)
            return 1 + len(same)
        self.piled.append(card)
        return 1

    def take_back(self, player: str, moved: int) -> None:
        back = self.piled[-moved:]
        del self.piled[-moved:]
        self.hands[player].extend(back)

    def fire(self, player: str, fired: int) -> None:
        if fired:
            cut = len(self.stack) - fired
            self.hands[player].extend(reversed(self.stack[cut:]))
            del self.stack[cut:]

    def swap(self, a: str, b: str) -> None:
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]

    def reload(self) -> int:
        """R1/R2: every card but the top is shuffled and goes in under what is still in the launcher."""
        top = self.piled.pop()
        moved = self.piled
        self.rng.shuffle(moved)
        self.stack[:0] = moved
        self.piled = [top]
        return len(moved)

    def hand_points(self, player: str) -> int | None:
        return sum(c.points for c in self.hands[player])
