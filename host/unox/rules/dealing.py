"""Starting a hand: the deal (S1 dealer, S2) and the first card turned up (S4, C-S4 ...).

A mixin of `Game`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from unox.rules.cards import Card, CardError
from unox.rules.errors import RuleError
from unox.rules.tracking import HAND_SIZE

if TYPE_CHECKING:
    import random

    from unox.rules.ruleset import Ruleset
    from unox.rules.tracking import DealtCards, PhysicalCards
    from unox.rules.turns import TurnOrder


class Dealing:
    """`deal` and `flip` for `Game`."""

    if TYPE_CHECKING:
        players: tuple[str, ...]
        mode: str
        rng: random.Random
        rules: Ruleset
        cards: DealtCards | PhysicalCards
        order: TurnOrder
        dealer: str | None
        hand_number: int
        top: Card | None
        color: str | None
        _last: tuple | None
        _first_fired: bool

        def _check_fired(self, fired: int) -> None: ...
        def seat_of(self, player: str) -> int: ...
        def _need(self, *stages: str) -> None: ...
        def _reset_hand(self) -> None: ...
        def cards_dealt(self) -> bool: ...
        def first_card_up(self) -> bool: ...

    def deal(self, dealer: str | None = None, stack: Sequence[str] | None = None, by_launcher: bool = False
             ) -> None:
        """S2: a new hand of 7 cards each. Dealt mode may give a stacked deck (see `DealtCards.start`).

        `by_launcher` (DL4, draw editions): the launcher deals: each player, in seat order from the dealer's
        left, owes a draw of 7 before the first card is turned up."""
        self._need("deal")
        if by_launcher and not self.rules.draws:
            raise RuleError("not_in_rules", f"{self.rules.title}'s launcher fires at random: deal by hand")
        dealer = self._choose_dealer(dealer)
        seat = self.seat_of(dealer)
        cards = self._check_stack(stack)
        order = self.order
        order.reset()
        seated = [order.players[(seat + i) % order.seats] for i in range(1, order.seats + 1)]
        self.cards.start(seated, cards, 0 if by_launcher else HAND_SIZE)
        self._reset_hand()
        if by_launcher:
            order.owed.extend([player, HAND_SIZE] for player in seated)
        self.dealer = dealer
        self.hand_number += 1
        self.cards_dealt()

    def _choose_dealer(self, dealer: str | None) -> str:
        if dealer is not None:
            return dealer
        if self.dealer is None:
            if self.mode == "dealt":
                return self.rules.first_dealer(self.order.players, self.rng)
            raise RuleError("missing_dealer", "name the dealer for the first hand (S1: highest draw deals)")
        everyone = self.players
        start = everyone.index(self.dealer)
        for step in range(1, len(everyone) + 1):
            candidate = everyone[(start + step) % len(everyone)]
            if candidate in self.order.index:
                return candidate
        raise AssertionError("no active player")  # pragma: no cover - G3 always keeps two

    def _check_stack(self, stack: Sequence[str] | None) -> list[Card] | None:
        if stack is None:
            return None
        if not self.cards.dealt:
            raise RuleError("bad_deck", "a stacked deck needs dealt mode: in physical mode just deal")
        try:
            cards = [self.rules.parse_card(code) for code in stack]
        except CardError as exc:
            raise RuleError("bad_deck", f"stacked deck: {exc}") from exc
        if sorted(c.code for c in cards) != sorted(self.rules.deck):
            size = len(self.rules.deck)
            title = self.rules.title
            raise RuleError("bad_deck", f"a stacked deck must hold exactly the {size} cards of {title}")
        return cards

    def flip(self, card: str | None = None, color: str | None = None, fired: int | None = None) -> None:
        """S2/S4: turn up the first discard and apply its effect. Dealt mode: None turns up the next card.

        DL3 (draw editions): `fired` 1 says the launcher fired the first card; without `card` a physical
        table then reports which it is with a second flip (`card`, no `fired`). Dealt mode knows it."""
        self._need("flip")
        if self.order.owed:
            first = self.order.owed[0]
            raise RuleError("owes_draws", f"the launcher is dealing (DL4): {first[0]} takes {first[1]} first")
        if fired is not None:
            self._check_first_fired(fired)
            if card is None and not self.cards.dealt:
                self.cards.launcher = max(0, self.cards.launcher - 1)
                self._first_fired = True
                return
        elif card is None and self._first_fired:
            raise RuleError("bad_card", "the launcher has turned up the first card: report which it is, e.g. "
                            "{'cmd': 'flip', 'card': 'G7'}")
        turned = self._check_flip(card, color)
        letter = turned.color
        if turned.color is None and color is not None:
            letter = self.rules.parse_color(color)  # checked above; none for a wild that goes back
        if self._first_fired:
            self.cards.launcher += 1  # counted out when fired; turning it up counts it again
            self._first_fired = False
        self.cards.turn_up(turned if card is not None else None)
        dealer_seat = self.order.index[self.dealer]
        if not self.rules.first_card(self.order, dealer_seat, turned):
            if not self.rules.first_covered:  # MK-S4: it stays on the pile and the next covers it
                self.cards.put_back_first(turned)  # S4 Trade Hands, C-S4 W+4: back into the launcher, again
            return
        self.top, self.color = turned, letter
        self._last = (None, turned, letter, None, 0)
        self.first_card_up()

    def _check_first_fired(self, fired: int) -> None:
        """DL3: the first card is fired one at a time, and only while none awaits its report."""
        if not self.rules.draws:
            raise RuleError("not_in_rules", f"{self.rules.title}'s first card is turned by hand: flip it "
                            "with its card")
        self._check_fired(fired)
        if self._first_fired:
            raise RuleError("bad_fired", "the launcher already turned up the first card: report which it "
                            "is (flip with its card) before firing another")
        if fired != 1:
            raise RuleError("bad_fired", f"the first card is fired one at a time (DL3), so fired is 1, not "
                            f"{fired}: check the launcher and fire again")

    def _check_flip(self, card: str | None, color: str | None) -> Card:
        if card is None:
            if not self.cards.dealt:
                raise RuleError("bad_card", "name the card turned up, e.g. {'card': 'G7'}")
            if not self.cards.stack:
                raise RuleError("not_in_launcher", "the launcher is empty: deal again")
            turned = self.cards.stack[-1]
        else:
            try:
                turned = self.rules.parse_card(card)
            except CardError as exc:
                raise RuleError("bad_card", str(exc)) from exc
            if self.cards.dealt and turned not in self.cards.stack:
                raise RuleError("not_in_launcher", f"{turned.code} is not in the launcher: turn up another")
        named = self._color_or_error(color) if color is not None else None
        if turned.color is None and named is None and not self.rules.returns_first(turned):
            raise RuleError(
                "missing_color",
                f"{turned.code} is wild: flip it with the colour the player on the dealer's left names",
            )
        # dealt mode with no card given: the caller cannot know the card, so a colour is simply not used
        blind = card is None and self.cards.dealt
        if turned.color is not None and named not in (None, turned.color) and not blind:
            raise RuleError("unexpected_color", f"{turned.code} is not wild: flip it without a colour")
        return turned

    def _color_or_error(self, color: str) -> str:
        try:
            return self.rules.parse_color(color)
        except CardError as exc:
            raise RuleError("bad_color", str(exc)) from exc
