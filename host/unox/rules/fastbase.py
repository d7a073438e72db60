"""What the fast dealt-mode cores share (`fastcore` for the classic-shaped editions, `fastextreme` for
Extreme): cards as integers with one bitmask each, the deal, UNO and catches, the reload and the score.

The edition's own card effects, its `legal` and its turn's draw or press live in the subclass. Every
step makes the same random draws as `Game` in dealt mode, so the side-by-side tests
(tests/editions/test_fastcore.py, test_fastextreme.py) hold for both.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from unox.rules.setup import choose_dealer
from unox.rules.tracking import HAND_SIZE

if TYPE_CHECKING:
    from unox.rules.ruleset import Ruleset

WILD_BIT = 1  # every wild matches anything


class FastCore:
    """One dealt-mode game; seats 0..n-1, colours 0..3 (the ruleset's order). A subclass names its `KINDS`
    (card kinds, by index) and says which editions it plays exactly."""

    KINDS: tuple[str, ...] = ()
    REFUSED = "{title} has cards the fast core does not play: use Game"

    @staticmethod
    def plays_exactly(rules: Ruleset) -> bool:
        raise NotImplementedError

    def __init__(self, rules: Ruleset, players: int, rng: random.Random, target: int = 500,
                 same_shuffle: bool = False):
        if not self.plays_exactly(rules):
            raise ValueError(self.REFUSED.format(title=rules.title))
        self.rules, self.n, self.rng, self.target = rules, players, rng, target
        # `same_shuffle`: deal with `rng.sample` as `Game` does, so both deal the same cards from one seed;
        # otherwise a shuffle as uniform and twenty times cheaper (sorting by a random key)
        self.same_shuffle = same_shuffle
        self.codes = list(dict.fromkeys(rules.deck))  # card int -> code
        self.deck = [self.codes.index(code) for code in rules.deck]
        cards = [rules.cards[c] for c in self.codes]
        colors = {c: i for i, c in enumerate(rules.colors)}
        faces = sorted({c.face for c in cards})
        self.kind = [self.KINDS.index(c.kind) for c in cards]
        self.color = [colors[c.color] if c.color is not None else -1 for c in cards]
        self.points = [c.points for c in cards]
        # match bits: wild 1, colour 2 << c, face 64 << f
        self.face_bit = [64 << faces.index(c.face) for c in cards]
        self.mask = [WILD_BIT if c.color is None else (2 << colors[c.color]) | self.face_bit[i]
                     for i, c in enumerate(cards)]
        self.uno_penalty = rules.penalties["uno"]  # U2 presses, C-U2 draws
        self.scores = [0] * players
        self.winner: int | None = None
        self.dealer: int | None = None
        self.hand_number = 0
        self.turns = self.plays = self.fired = self.reloads = self.catches = 0  # what `unox sim` sums up
        self.hand_over = False

    def deal(self) -> None:
        """S1/S2 and C-S2, as `Game.deal` in dealt mode: the same dealer and shuffle from the same rng."""
        if self.dealer is None:
            self.dealer = int(choose_dealer([str(s) for s in range(self.n)], self.rng, self.rules))
        else:
            self.dealer = (self.dealer + 1) % self.n
        if self.same_shuffle:
            order = self.rng.sample(self.deck, len(self.deck))
        else:
            key = self.rng.random
            order = sorted(self.deck, key=lambda _: key())
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        for i in range(self.n):
            self.hands[(self.dealer + 1 + i) % self.n] = order[i * HAND_SIZE:(i + 1) * HAND_SIZE]
        rest = order[HAND_SIZE * self.n:]  # a new list
        rest.reverse()
        self.stack, self.piled = rest, []
        self.direction, self.turn, self.owed = 1, 0, []
        self.top = self.tcolor = -1
        self.went_out: int | None = None
        self.catchable = self.safe = self.precalled = None
        self.hand_number += 1
        self.hand_over = False

    def uno(self, seat: int) -> None:
        if seat == self.catchable:
            self.catchable, self.safe = None, seat
        elif not self.owed and seat == self.turn:
            self.precalled = seat

    def catch(self, victim: int) -> None:
        """U2 / C-U2: the victim presses twice, or draws two."""
        self.catchable = None
        self.owed.append([victim, self.uno_penalty])

    def reload(self) -> None:
        """R1 / C-R1: every discard but the top, shuffled, under what is still in the launcher."""
        self._reload()

    def _reload(self) -> None:
        top = self.piled.pop()
        moved = self.piled
        if self.same_shuffle:
            self.rng.shuffle(moved)  # as `Game` shuffles
        else:
            key = self.rng.random  # as uniform, and cheaper
            moved = sorted(moved, key=lambda _: key())
        self.stack[:0] = moved
        self.piled = [top]
        self.reloads += 1

    def _end_hand(self) -> None:
        out = self.went_out
        assert out is not None
        won = sum(self.points[c] for seat, hand in enumerate(self.hands) if seat != out for c in hand)
        self.scores[out] += won
        if self.scores[out] >= self.target:
            self.winner = out
        self.hand_over = True

    @property
    def presser(self) -> int:
        return self.owed[0][0] if self.owed else self.turn
