"""The fast core of UNO Extreme for `unox sim`: whole dealt-mode games of random bots, presses and all.

As `fastcore` does for classic: cards are integers, a card's match is one bitmask test, and a move taken from
`legal()` is applied without being checked again. The rules are Extreme's (S1-S4, T1-T4, A1-A8, U1-U3,
R1-R2, G1) with the same calls and the same random draws as `Game` in dealt mode, and each press fires what
the launcher's eject profile says (`next_count`): `tests/editions/test_fastextreme.py` plays both side by
side and compares them after every call.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from unox.rules.fastbase import WILD_BIT, FastCore

if TYPE_CHECKING:
    from unox.rules.ruleset import Ruleset

KINDS = ("number", "hit2", "reverse", "skip", "discard_all", "trade", "wild", "wild_all_hit", "wild_hit_fire")
NUMBER, HIT2, REVERSE, SKIP, DISCARD, TRADE, WILD, WILD_ALL, WILD_FIRE = range(len(KINDS))
UNTIL_FIRE = None  # an owed entry pressed until the launcher fires (A8)
FULL_LAUNCHER = 112  # the profile is asked what it wants, not what is there (as `unox.simulation`)


def plays_exactly(rules: Ruleset) -> bool:
    """Whether this core plays the edition exactly: Extreme itself (its press rules and its cards)."""
    return rules.name == "extreme" and {c.kind for c in rules.cards.values()} <= set(KINDS)


class FastExtreme(FastCore):
    """One dealt-mode game of UNO Extreme; seats 0..n-1, colours 0..3 (R, Y, G, B)."""

    KINDS = KINDS
    REFUSED = "{title} is not UNO Extreme: use Game"
    plays_exactly = staticmethod(plays_exactly)

    def __init__(self, rules: Ruleset, players: int, rng: random.Random, target: int = 500,
                 same_shuffle: bool = False):
        super().__init__(rules, players, rng, target, same_shuffle)
        # how many of `Game.legal_plays` a card is: a wild one per colour, Trade Hands one per partner
        self.weight = [4 if k >= WILD else players - 1 if k == TRADE else 1 for k in self.kind]
        self.presses = 0

    # --- a hand -------------------------------------------------------------------------------------------

    def deal(self) -> None:
        super().deal()
        self.must_match = False

    def flip(self, color: int) -> bool:
        """S4: turn up the launcher's next card; `color` names a wild's. False: a Trade Hands went back under
        the stack, turn up another."""
        card = self.stack.pop()
        self.piled.append(card)
        kind, dealer, n = self.kind[card], self.dealer, self.n
        assert dealer is not None
        left = (dealer + 1) % n
        if kind == TRADE:
            self.piled.pop()
            self.stack.insert(0, card)
            return False
        self.turn = left
        if kind == HIT2:
            self.owed.append([left, 2])
            self.turn = (left + 1) % n
        elif kind == REVERSE:
            self.direction, self.turn = -1, dealer
        elif kind == SKIP:
            self.turn = (dealer + 2) % n
        elif kind == DISCARD:
            self.must_match = True
        elif kind == WILD_ALL:
            self.owed.extend([(dealer + step) % n, 1] for step in range(1, n))
        elif kind == WILD_FIRE:
            self.owed.append([left, UNTIL_FIRE])
            self.turn = (left + 1) % n
        self.top, self.tcolor = card, (color if kind >= WILD else self.color[card])
        return True

    def legal(self, seat: int) -> list[int]:
        """T1: the cards `seat` may play now, one per card held; Trade Hands never as the last card (A5)."""
        if self.owed or seat != self.turn:
            return []
        tmask = WILD_BIT | (2 << self.tcolor) | self.face_bit[self.top]
        hand, mask = self.hands[seat], self.mask
        if len(hand) == 1:
            return [c for c in hand if mask[c] & tmask and self.kind[c] != TRADE]
        return [c for c in hand if mask[c] & tmask]

    def play(self, seat: int, card: int, color: int, target: int | None = None) -> None:
        """A card from `legal(seat)`, applied without checks; `color` counts for a wild, `target` for Trade
        Hands; a Discard All takes every other card of its colour with it (A4)."""
        hand = self.hands[seat]
        kind = self.kind[card]
        hand.remove(card)
        if kind == NUMBER and len(hand) > 1:  # by far the most common play: nothing but the turn moves on
            self.piled.append(card)
            self.top, self.tcolor = card, self.color[card]
            self.catchable = self.safe = self.precalled = None
            self.must_match = False
            self.turn = (seat + self.direction) % self.n
            return
        if kind == DISCARD:
            col = self.color
            same = [c for c in hand if col[c] == col[card]]
            if same:
                self.hands[seat] = hand = [c for c in hand if col[c] != col[card]]
                self.piled.extend(same)
        self.piled.append(card)
        self.top = card
        self.tcolor = color if kind >= WILD else self.color[card]
        self.catchable = self.safe = None
        self.must_match = False
        n, d = self.n, self.direction
        if kind == NUMBER or kind == DISCARD or kind == WILD:
            self.turn = (seat + d) % n
        elif kind == HIT2:
            self.owed.append([(seat + d) % n, 2])
            self.turn = (seat + 2 * d) % n
        elif kind == REVERSE:
            if n == 2:
                self.turn = seat
            else:
                self.direction = -d
                self.turn = (seat - d) % n
        elif kind == SKIP:
            self.turn = (seat + 2 * d) % n
        elif kind == TRADE:
            assert target is not None
            self.hands[seat], self.hands[target] = self.hands[target], hand
            hand = self.hands[seat]
            self.turn = (seat + d) % n
        elif kind == WILD_ALL:
            self.owed.extend([(seat + step * d) % n, 1] for step in range(1, n))
            self.turn = (seat + d) % n
        else:  # WILD_FIRE
            self.owed.append([(seat + d) % n, UNTIL_FIRE])
            self.turn = (seat + 2 * d) % n
        left = len(hand)
        if left == 1 and kind != TRADE:
            if self.precalled == seat:
                self.safe = seat
            else:
                self.catchable = seat
        self.precalled = None
        if left == 0:
            self.went_out = seat
            if not self.owed:
                self._end_hand()

    def press(self, seat: int, fired: int) -> None:
        """T2-T4: the presser takes the `fired` cards (at most what the launcher holds); an owed press
        counts down its entry (A8: until one fires, or no card is left anywhere); R2: an empty launcher is
        reloaded at once."""
        self.catchable = self.safe = None
        stack = self.stack
        if fired:
            cut = len(stack) - fired
            self.hands[seat].extend(reversed(stack[cut:]))
            del stack[cut:]
        owed = self.owed
        if owed:
            entry = owed[0]
            if entry[1] is UNTIL_FIRE:
                if fired or (not stack and len(self.piled) <= 1):
                    owed.pop(0)
            else:
                entry[1] -= 1
                if entry[1] == 0:
                    owed.pop(0)
            if not owed and self.went_out is not None:
                self._end_hand()
        else:
            self.turn = (self.turn + self.direction) % self.n
            self.must_match = False
            self.precalled = None
        if not stack and len(self.piled) > 1:
            self._reload()


def play_random_game(rules: Ruleset, players: int, seed: int, next_count: Callable[[int], int],
                     target: int = 500, *, core: type[FastExtreme] | None = None, same_shuffle: bool = False,
                     max_actions: int | None = None) -> FastExtreme:
    """A whole game of random bots as `unox sim` plays them (`RandomBot`'s policy): a uniformly random legal
    play (as `Game.legal_plays` lists them: a wild once per colour, Trade Hands once per partner), a press
    only when none goes; UNO and catches on a coin toss. Each press fires `next_count(FULL_LAUNCHER)`
    cards, the pile reloaded first when the launcher holds fewer (R1). `turns` counts plays and turn
    presses; `presses` every press, owed ones included."""
    rng = random.Random(seed)
    game = (core or FastExtreme)(rules, players, random.Random(rng.getrandbits(64)), target, same_shuffle)
    choose = random.Random(rng.getrandbits(64)).random
    while game.winner is None:
        if max_actions is not None and game.plays + game.presses > max_actions:
            raise RuntimeError(f"game with seed {seed} did not end within {max_actions} actions")
        game.deal()
        color = int(choose() * 4)
        while not game.flip(color):
            pass
        _play_hand(game, choose, next_count)
    return game


def _play_hand(core: FastExtreme, choose: Callable[[], float], next_count: Callable[[int], int]) -> None:
    """One hand to its end: the hot path of `unox sim`."""
    hands, n, mask, face_bit = core.hands, core.n, core.mask, core.face_bit
    kind, color, weight = core.kind, core.color, core.weight
    turns = plays = catches = presses = fired_out = 0
    while not core.hand_over:
        owed = core.owed
        if owed:
            seat = owed[0][0]
        else:
            seat = core.turn
            hand = hands[seat]
            tmask = WILD_BIT | (2 << core.tcolor) | face_bit[core.top]
            # the distinct legal plays (dict keys), each weighed as `Game.legal_plays` lists it (`weight`: a
            # wild once per colour, Trade Hands once per partner); `RandomBot` picks uniformly among those
            legal = {c: weight[c] for c in hand if mask[c] & tmask}
            if len(hand) == 1 and legal and kind[hand[0]] == TRADE:
                legal = {}  # A5: Trade Hands is never the last card
            turns += 1
            if legal:
                if len(legal) == 1:
                    card = next(iter(legal))
                    pick = int(choose() * weight[card]) if weight[card] > 1 else 0
                else:
                    total = sum(legal.values())
                    pick = int(choose() * total)
                    if total == len(legal):  # no wild, no Trade Hands: the most common case
                        card, pick = [*legal][pick], 0
                    else:
                        for card, w in legal.items():  # noqa: B007 - the card picked is where it stops
                            if pick < w:
                                break
                            pick -= w
                k = kind[card]
                target = None
                if k == TRADE:
                    target = (seat + 1 + pick) % n
                    left = 2  # a trade leaves no catchable player (A5)
                elif k == DISCARD:
                    c = color[card]
                    left = len(hand) - sum(1 for x in hand if color[x] == c)  # A4: its colour goes with it
                else:
                    left = len(hand) - 1
                if left == 1:
                    called = choose() < 0.5
                    if called:
                        core.uno(seat)
                    core.play(seat, card, pick if k >= WILD else -1, target)
                    if not called:
                        for _ in range(1, n):
                            if choose() < 0.5:
                                core.catch(seat)
                                catches += 1
                                break
                else:
                    core.play(seat, card, pick if k >= WILD else -1, target)
                plays += 1
                continue
        # a press: an owed one, or the turn's when nothing goes (T2); R1 first when the launcher is short
        want = next_count(FULL_LAUNCHER)
        stack = core.stack
        if want > len(stack) and len(core.piled) > 1:
            core.reload()
            stack = core.stack
        fired = want if want <= len(stack) else len(stack)
        presses += 1
        fired_out += fired
        core.press(seat, fired)
    core.turns += turns
    core.plays += plays
    core.catches += catches
    core.presses += presses
    core.fired += fired_out


__all__ = ["FastExtreme", "play_random_game", "plays_exactly"]
