"""Classic UNO (seed 004): the 108-card deck, Draw Two and Wild Draw Four with its challenge, and the launcher
as an exact-count dealer: every draw is the cards due, fired and counted (DL1, DL2).

Rule IDs are those of docs/rules.md (C-...). Barbie, Casting Call and Mario Kart start from this class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from unox.rules.cardset import CLASSIC_COLORS, CardSet, classic_cards, classic_deck, classic_help
from unox.rules.ruleset import Effect, FirstEffect, Ruleset, TableOps

if TYPE_CHECKING:
    from unox.rules.cards import Card

WILD_DRAW_FOUR = 4  # C-A5
DRAW_TWO = 2  # C-A1


class ClassicRules(Ruleset):
    """Card effects of classic UNO, one small method per kind; editions built on it override what differs."""

    name = "classic"
    title = "UNO"
    cardset = CardSet(CLASSIC_COLORS, classic_cards(), classic_help(CLASSIC_COLORS))
    deck: tuple[str, ...] = tuple(classic_deck())
    draws = True
    penalties = {"advice": 2, "wrong_card": 2, "uno": 2}  # C-P1, C-P2, C-U2/C-P3
    challengeable = frozenset({"wild_draw4"})  # C-A7
    variants = ("two-player", "elimination", "partners", "rotation")  # C-2P, C-G3, C-V1, C-V2

    def effect_table(self) -> dict[str, Effect]:
        return {
            "number": self.play_number,
            "draw2": self.play_draw2,
            "reverse": self.play_reverse,
            "skip": self.play_skip,
            "wild": self.play_number,
            "wild_draw4": self.play_wild_draw4,
        }

    def first_table(self) -> dict[str, FirstEffect]:
        return {
            "number": self.first_number,
            "draw2": self.first_draw2,
            "reverse": self.first_reverse,
            "skip": self.first_skip,
            "wild": self.first_number,
            "wild_draw4": self.first_returned,
        }

    def returns_first(self, card: Card) -> bool:
        return self.first_effects[card.kind] == self.first_returned

    # --- played cards ------------------------------------------------------------------------------------

    def play_draw2(self, t: TableOps, seat: int, target: int | None) -> None:
        """C-A1: the next player draws 2 and loses the turn (C-2P3: back to its player)."""
        t.owe(t.seat_after(seat), DRAW_TWO)
        t.set_turn(t.seat_after(seat, 2))

    def play_wild_draw4(self, t: TableOps, seat: int, target: int | None) -> None:
        """C-A5: the next player draws 4 and loses the turn, unless they challenge (C-A7, in `game`)."""
        t.owe(t.seat_after(seat), WILD_DRAW_FOUR)
        t.set_turn(t.seat_after(seat, 2))

    # --- the first card (C-S4) -----------------------------------------------------------------------------

    def first_draw2(self, t: TableOps, dealer: int) -> bool:
        left = t.seat_after(dealer)
        t.owe(left, DRAW_TWO)
        t.set_turn(t.seat_after(left))
        return True

    def first_returned(self, t: TableOps, dealer: int) -> bool:
        """Wild Draw Four first: back into the launcher, another is turned up; no one draws."""
        return False


RULES = ClassicRules()
