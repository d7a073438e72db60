"""A dealt-mode core built for speed, for the classic-shaped draw editions: whole games between bots.

`Game` checks every call of the table protocol and keeps a state a person can read; a simulation of random
bots needs neither. Here cards are integers (one per distinct code, as `Game`'s cards are one object per
code), a card's match is one bitmask test against the top (colour in force, face, wild), and a move taken
from `legal()` is applied without being checked again. The rules are classic's (C-T1-C-T4, C-A1-C-A7,
C-U1-C-U3, C-R1, C-G1), with the same calls and the same random draws as `Game`:
`tests/editions/test_fastcore.py` plays both side by side and compares them after every call.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from unox.rules.fastbase import WILD_BIT, FastCore

if TYPE_CHECKING:
    from unox.rules.ruleset import Ruleset

KINDS = ("number", "draw2", "reverse", "skip", "wild", "wild_draw4")
NUMBER, DRAW2, REVERSE, SKIP, WILD, WILD4 = range(6)


def plays_exactly(rules: Ruleset) -> bool:
    """Whether the fast core plays this edition's rules exactly (classic-shaped: no special cards)."""
    return not rules.game_kinds and {c.kind for c in rules.cards.values()} <= set(KINDS)


class FastClassic(FastCore):
    """One dealt-mode game of a classic-shaped edition; seats 0..n-1, colours 0..3 (the ruleset's order)."""

    KINDS = KINDS
    plays_exactly = staticmethod(plays_exactly)

    def __init__(self, rules: Ruleset, players: int, rng: random.Random, target: int = 500,
                 same_shuffle: bool = False):
        super().__init__(rules, players, rng, target, same_shuffle)
        self.draws = self.challenges = 0

    # --- a hand -------------------------------------------------------------------------------------------

    def deal(self) -> None:
        super().deal()
        self.drawn = None
        self.drawn_card: int | None = None
        self.challenge: list | None = None

    def flip(self, color: int) -> bool:
        """C-S4: turn up the launcher's next card; `color` is used for a wild. False: it went back."""
        card = self.stack.pop()
        self.piled.append(card)
        kind, dealer = self.kind[card], self.dealer
        assert dealer is not None
        left = (dealer + 1) % self.n
        if kind == WILD4:
            self.piled.pop()
            self.stack.insert(0, card)
            return False
        self.turn = left
        if kind == DRAW2:
            self.owed.append([left, 2])
            self.turn = (left + 1) % self.n
        elif kind == REVERSE:
            self.direction, self.turn = -1, dealer
        elif kind == SKIP:
            self.turn = (dealer + 2) % self.n
        self.top, self.tcolor = card, (color if kind == WILD else self.color[card])
        return True

    def legal(self, seat: int) -> list[int]:
        """C-T1: the cards `seat` may play now (one per card held; after the turn's draw only that card)."""
        if self.owed or seat != self.turn:
            return []
        tmask = WILD_BIT | (2 << self.tcolor) | self.face_bit[self.top]
        if self.drawn is not None:
            card = self.drawn_card
            return [card] if card is not None and self.mask[card] & tmask else []
        mask = self.mask
        return [c for c in self.hands[seat] if mask[c] & tmask]

    def play(self, seat: int, card: int, color: int) -> None:
        """A card from `legal(seat)`, applied without checks; `color` counts for a wild."""
        hand = self.hands[seat]
        kind = self.kind[card]
        if kind == WILD4:
            tcolor, col = self.tcolor, self.color
            guilty = any(col[c] == tcolor for c in hand if c != card)
        hand.remove(card)
        if kind == NUMBER and len(hand) > 1:  # by far the most common play: nothing but the turn moves on
            self.piled.append(card)
            self.top, self.tcolor = card, self.color[card]
            self.catchable = self.safe = self.drawn = self.challenge = self.precalled = None
            self.turn = (seat + self.direction) % self.n
            return
        self.piled.append(card)
        self.top = card
        self.catchable = self.safe = self.drawn = self.challenge = None
        n, d = self.n, self.direction
        if kind == NUMBER:  # the most common by far
            self.tcolor = self.color[card]
            self.turn = (seat + d) % n
        elif kind >= WILD:
            self.tcolor = color
            if kind == WILD:
                self.turn = (seat + d) % n
            else:
                entry = [(seat + d) % n, 4]
                self.owed.append(entry)
                self.turn = (seat + 2 * d) % n
                self.challenge = [entry[0], seat, guilty, entry]
        else:
            self.tcolor = self.color[card]
            if kind == DRAW2:
                self.owed.append([(seat + d) % n, 2])
                self.turn = (seat + 2 * d) % n
            elif kind == REVERSE:
                if n == 2:
                    self.turn = seat
                else:
                    self.direction = -d
                    self.turn = (seat - d) % n
            else:
                self.turn = (seat + 2 * d) % n
        left = len(hand)
        if left < 2:
            if left == 1:
                if self.precalled == seat:
                    self.safe = seat
                else:
                    self.catchable = seat
            else:
                self.went_out = seat
                if not self.owed:
                    self._end_hand()
        self.precalled = None

    def draw_due(self, seat: int) -> int:
        owed = self.owed
        if owed:
            return owed[0][1] if owed[0][0] == seat else 0
        return 1 if seat == self.turn and self.drawn != seat else 0

    def draw(self, seat: int, fired: int) -> None:
        """DL1/DL2, C-T2: `fired` cards (at most what is due) to `seat`; owed draws first."""
        self.catchable = self.safe = None
        if self.challenge is not None and self.challenge[0] == seat:
            self.challenge = None
        owed = self.owed
        if not owed:
            owed.append([seat, 1, True])
        stack = self.stack
        if fired:
            cut = len(stack) - fired
            self.hands[seat].extend(reversed(stack[cut:]))
            del stack[cut:]
        entry = owed[0]
        entry[1] -= fired
        if entry[1] <= 0 or (fired == 0 and not stack and len(self.piled) <= 1):
            owed.pop(0)
            if len(entry) > 2:
                self.drawn = seat
                self.drawn_card = self.hands[seat][-1] if fired else None
        if not stack and len(self.piled) > 1:
            self._reload()  # C-R1 at once, as `Game.draw` does in dealt mode
        if not owed and self.went_out is not None:
            self._end_hand()

    def pass_turn(self, seat: int) -> None:
        self.catchable = self.safe = None
        self.drawn = self.drawn_card = self.precalled = None
        self.turn = (self.turn + self.direction) % self.n

    def challenge_now(self) -> None:
        """C-A7 in dealt mode: the engine knows whether the Wild Draw Four was legal."""
        victim, culprit, guilty, entry = self.challenge  # type: ignore[misc]
        self.challenge = None
        if guilty:
            entry[0], entry[1] = culprit, 4
            self.turn = victim
            if self.went_out == culprit:
                self.went_out = None
        else:
            entry[1] += 2


def play_random_game(rules: Ruleset, players: int, seed: int, target: int = 500, *,
                     core: type[FastClassic] | None = None, same_shuffle: bool = False,
                     max_actions: int | None = None) -> FastClassic:
    """A whole game of random bots as `unox sim` and `bench/engine.py` play them (`RandomBot`'s policy, and
    RLCard's random agent's): a uniformly random legal play (the distinct cards, a wild once per colour), the
    turn's draw only when nothing goes and the card drawn played when it goes; UNO, catches and challenges
    on a coin toss. `turns` counts plays and turn draws."""
    rng = random.Random(seed)
    game = (core or FastClassic)(rules, players, random.Random(rng.getrandbits(64)), target, same_shuffle)
    choose = random.Random(rng.getrandbits(64)).random
    while game.winner is None:
        if max_actions is not None and game.plays + game.draws > max_actions:
            raise RuntimeError(f"game with seed {seed} did not end within {max_actions} actions")
        game.hand_over = False
        game.deal()
        color = int(choose() * 4)
        while not game.flip(color):
            pass
        _play_hand(game, choose)
    return game


def _play_hand(core: FastClassic, choose) -> None:
    """One hand to its end; the loop is the hot path of the benchmark, so `legal` is inlined here."""
    hands, n, mask, face_bit, kind = core.hands, core.n, core.mask, core.face_bit, core.kind
    weight = [4 if k >= WILD else 1 for k in kind]
    play, draw = core.play, core.draw
    turns = plays = catches = challenges = draws = fired_out = 0
    while not core.hand_over:
        owed = core.owed
        if owed:
            seat = owed[0][0]
            if core.challenge is not None and core.challenge[0] == seat and choose() < 0.5:
                core.challenge_now()
                challenges += 1
            else:  # DL1: the launcher deals what is due, the pile reloaded first when it is short (C-R1)
                due, stack = owed[0][1], core.stack
                if due > len(stack) and len(core.piled) > 1:
                    core.reload()
                fired = due if due <= len(stack) else len(stack)
                draws += 1
                fired_out += fired
                draw(seat, fired)
            continue
        seat = core.turn
        hand = hands[seat]
        tmask = WILD_BIT | (2 << core.tcolor) | face_bit[core.top]
        # the distinct legal plays (dict keys), each weighed as `Game.legal_plays` lists it: a wild once per
        # colour (4), any other card once; `RandomBot` and RLCard's random agent pick uniformly among those
        legal = {c: weight[c] for c in hand if mask[c] & tmask}
        turns += 1
        if not legal:  # C-T2: the turn's draw
            stack = core.stack
            if not stack and len(core.piled) > 1:
                core.reload()
            fired = 1 if stack else 0
            draws += 1
            fired_out += fired
            draw(seat, fired)
            if core.owed or core.turn != seat or core.hand_over:
                continue
            legal = {c: weight[c] for c in core.legal(seat)}
            if not legal:
                core.pass_turn(seat)
                continue
        if len(legal) == 1:
            card = next(iter(legal))
            color = int(choose() * 4) if kind[card] >= WILD else -1
        else:
            total = sum(legal.values())
            pick = int(choose() * total)
            if total == len(legal):  # no wild: the most common case
                card, color = [*legal][pick], -1
            else:
                for card, w in legal.items():  # noqa: B007 - the card picked is the one the loop stops at
                    if pick < w:
                        break
                    pick -= w
                color = pick if w == 4 else -1
        if len(hand) == 2 and choose() < 0.5:
            core.uno(seat)
        play(seat, card, color)
        plays += 1
        if core.catchable == seat and not core.hand_over:
            for _ in range(1, n):
                if choose() < 0.5:
                    core.catch(seat)
                    catches += 1
                    break
    core.turns += turns
    core.plays += plays
    core.catches += catches
    core.challenges += challenges
    core.draws += draws
    core.fired += fired_out


__all__ = ["FastClassic", "play_random_game", "plays_exactly"]
