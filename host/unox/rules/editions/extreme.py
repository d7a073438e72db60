"""The UNO Extreme ruleset: its deck, what each card does when played (A1-A8, 2P1-2P3) and when turned up
first (S4). Everything specific to Extreme lives here; phases and turn order are shared (`game`, `turns`).

Extreme is the one press edition: the launcher fires a random count, so penalties are presses. Its card codes
are the module-level tables of `unox.rules.cards`.
"""

from __future__ import annotations

from unox.rules import cards as extreme_cards
from unox.rules.cards import COLORS, Card
from unox.rules.cardset import CardSet
from unox.rules.ruleset import Effect, FirstEffect, Ruleset, TableOps


def extreme_deck() -> list[str]:
    """The 112 codes: numbers 1-9 twice per colour, two Hit 2/Reverse/Skip and one Discard All/Trade per
    colour, four Wild, two Wild All Hit, two Wild Hit-Fire."""
    codes: list[str] = []
    for color in COLORS:
        codes += [f"{color}{n}" for n in range(1, 10)] * 2
        codes += [f"{color}{face}" for face in "HRS"] * 2
        codes += [f"{color}D", f"{color}T"]
    codes += ["W"] * 4 + ["WA"] * 2 + ["WF"] * 2
    return codes


playable = Ruleset.playable  # T1/A1-A6: the shared test; its old address, kept for callers


class _ExtremeCards(CardSet):
    """Extreme's codes, parsed by `unox.rules.cards` (its messages know there are no zeros)."""

    def parse_card(self, code: str | Card) -> Card:
        return extreme_cards.parse_card(code)

    def parse_color(self, text: str) -> str:
        return extreme_cards.parse_color(text)


class ExtremeRules(Ruleset):
    """Card effects of UNO Extreme, one small method per kind."""

    name = "extreme"
    title = "UNO Extreme"
    cardset = _ExtremeCards(extreme_cards.COLOR_NAMES, extreme_cards.CARDS, "")
    deck: tuple[str, ...] = tuple(extreme_deck())
    penalties = {"advice": 4, "wrong_card": 2, "uno": 2}  # P1, P2, U2/P3
    variants = ("two-player", "elimination")  # 2P1-2P3, G3
    target_kinds = frozenset({"trade"})
    count_kinds = frozenset({"discard_all"})
    # cards whose presses still happen when they are the last card (U3)
    hit_kinds = frozenset({"hit2", "wild_all_hit", "wild_hit_fire"})

    def effect_table(self) -> dict[str, Effect]:
        return {
            "number": self.play_number,
            "hit2": self.play_hit2,
            "reverse": self.play_reverse,
            "skip": self.play_skip,
            "discard_all": self.play_number,
            "trade": self.play_trade,
            "wild": self.play_number,
            "wild_all_hit": self.play_wild_all_hit,
            "wild_hit_fire": self.play_wild_hit_fire,
        }

    def first_table(self) -> dict[str, FirstEffect]:
        return {
            "number": self.first_number,
            "hit2": self.first_hit2,
            "reverse": self.first_reverse,
            "skip": self.first_skip,
            "discard_all": self.first_discard_all,
            "trade": self.first_trade,
            "wild": self.first_number,
            "wild_all_hit": self.first_wild_all_hit,
            "wild_hit_fire": self.first_wild_hit_fire,
        }

    def refusal(self, card: Card, hand_size: int) -> tuple[str, str] | None:
        """A reason an otherwise matching card may not be played, as (code, message), or None."""
        if card.kind == "trade" and hand_size == 1:
            return "trade_last_card", (
                f"{card.code} (Trade Hands) cannot be your last card (A5): press the launcher instead"
            )
        return None

    # --- played cards: `seat` is the player who played, `target` the Trade Hands partner ---------------

    def play_hit2(self, t: TableOps, seat: int, target: int | None) -> None:
        """A1: the next player presses twice and their turn is over (2P3: back to the player who played)."""
        t.owe(t.seat_after(seat), 2)
        t.set_turn(t.seat_after(seat, 2))

    def play_trade(self, t: TableOps, seat: int, target: int | None) -> None:
        """A5: swap whole hands with the chosen player."""
        assert target is not None
        t.trade_hands(seat, target)
        t.set_turn(t.seat_after(seat))

    def play_wild_all_hit(self, t: TableOps, seat: int, target: int | None) -> None:
        """A7: every other player presses once from the next one on; the next player then plays normally."""
        for step in range(1, t.seats):
            t.owe(t.seat_after(seat, step), 1)
        t.set_turn(t.seat_after(seat))

    def play_wild_hit_fire(self, t: TableOps, seat: int, target: int | None) -> None:
        """A8: the next player presses until the launcher fires, takes the cards, and loses the turn."""
        t.owe_until_fire(t.seat_after(seat))
        t.set_turn(t.seat_after(seat, 2))

    # --- the first card turned up (S4); `dealer` is the dealer's seat ------------------------------------
    # Each returns False when the card goes back under the stack and another must be turned up.

    def first_hit2(self, t: TableOps, dealer: int) -> bool:
        left = t.seat_after(dealer)
        t.owe(left, 2)
        t.set_turn(t.seat_after(left))
        return True

    def first_discard_all(self, t: TableOps, dealer: int) -> bool:
        t.set_turn(t.seat_after(dealer))
        t.require_match()
        return True

    def first_trade(self, t: TableOps, dealer: int) -> bool:
        return False

    def first_wild_all_hit(self, t: TableOps, dealer: int) -> bool:
        for step in range(1, t.seats):
            t.owe(t.seat_after(dealer, step), 1)
        t.set_turn(t.seat_after(dealer))
        return True

    def first_wild_hit_fire(self, t: TableOps, dealer: int) -> bool:
        left = t.seat_after(dealer)
        t.owe_until_fire(left)
        t.set_turn(t.seat_after(left))
        return True


EXTREME = ExtremeRules()
RULES = EXTREME

__all__ = ["EXTREME", "RULES", "ExtremeRules", "TableOps", "extreme_deck", "playable"]
