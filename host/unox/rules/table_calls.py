"""The calls around the plays: UNO and catching (U1-U2), penalties (P1-P3) and reloading the launcher (R1-R2).

A mixin of `Game`, kept apart so each file stays about one thing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from unox.rules.errors import RuleError

if TYPE_CHECKING:
    from unox.rules.cards import Card
    from unox.rules.ruleset import Ruleset
    from unox.rules.tracking import DealtCards, PhysicalCards
    from unox.rules.turns import TurnOrder

PENALTY_KINDS = ("advice", "wrong_card")


class TableCalls:
    """UNO, catch, penalty and reload for `Game`."""

    if TYPE_CHECKING:
        stage: str
        rules: Ruleset
        order: TurnOrder
        cards: DealtCards | PhysicalCards
        top: Card | None
        color: str | None
        went_out: str | None
        _last: tuple | None
        _undo: tuple | None
        _catchable: str | None
        _safe: str | None
        _precalled: str | None
        _drawn: str | None
        _drawn_card: Card | None
        _challenge: list | None
        pending: dict | None

        def seat_of(self, player: str) -> int: ...
        def _need(self, *phases: str) -> None: ...
        def last_card_taken_back(self) -> bool: ...

    def uno(self, player: str) -> None:
        """U1: calling UNO makes a player safe inside their window, or before playing their next card."""
        self._need("turn")
        self.seat_of(player)
        if player == self._catchable:
            self._catchable = None
            self._safe = player
            return
        if not self.order.owed and player == self.order.turn_player:
            self._precalled = player
            return
        pending = self.pending
        if pending is not None and pending["player"] == player:
            self._precalled = player  # before an edition's choice that may leave one card (BA-A2)
            return
        raise RuleError(
            "uno_not_due",
            f"{player} has no UNO to call now: call it when playing your second-to-last card",
        )

    def catch(self, player: str, by: str) -> None:
        """U2/P3: `by` caught `player` without UNO inside the window; `player` presses twice."""
        self._need("turn")
        self.seat_of(player)
        self.seat_of(by)
        if by == player:
            raise RuleError("bad_catcher", "a player cannot catch themselves: name who caught them")
        if player == self._safe:
            raise RuleError("called_uno", f"{player} called UNO before being caught and is safe")
        if player != self._catchable:
            raise RuleError(
                "catch_window_closed",
                f"{player} cannot be caught now: a catch must come after their second-to-last card is down "
                "and before the next player presses or plays",
            )
        self._catchable = None
        self._owe(player, self.rules.penalties["uno"])

    def penalty(self, player: str, kind: str) -> None:
        """P1 advice: press 4 times. P2 wrong card: take back the most recent play, press twice, turn ends."""
        if kind not in PENALTY_KINDS:
            kinds = ", ".join(PENALTY_KINDS)
            raise RuleError("bad_penalty", f"penalty kind must be one of {kinds}, not {kind!r}")
        if kind == "advice":
            self._need("turn")
            self.seat_of(player)
            self._owe(player, self.rules.penalties["advice"])
            return
        self._need("turn", "hand_over")
        seat = self.seat_of(player)
        if self._undo is None or self._undo[0] != player:
            raise RuleError(
                "nothing_to_take_back",
                f"{player}'s play is not the most recent event, so it cannot be taken back: "
                "give the advice penalty or play on",
            )
        self._take_back(player, seat)

    def _owe(self, player: str, presses: int) -> None:
        self._undo = None
        self.order.owed.append([player, presses])

    def _take_back(self, player: str, seat: int) -> None:
        _, top, color, direction, target, moved = self._undo  # type: ignore[misc]
        order = self.order
        if target is not None:
            order.trade_hands(seat, target)
        self.cards.take_back(player, moved)
        self.top, self.color = top, color
        order.direction = direction
        order.owed[:] = [[player, self.rules.penalties["wrong_card"]]]
        order.turn = order.seat_after(seat)
        self.went_out = None
        self._catchable = self._safe = self._precalled = None
        self._undo = None
        self._drawn = self._drawn_card = self._challenge = None
        self.pending = None  # a card taken back has no effect: no choice follows it (C-P2)
        self._last = (player, None, None, None, 0)
        if self.stage == "hand_over":
            self.last_card_taken_back()

    def reload(self) -> None:
        """R1/R2: every discard but the top card goes back into the launcher."""
        self._need("turn")
        if self.cards.pile <= 1:
            raise RuleError("nothing_to_reload", "the discard pile holds only its top card: play on")
        self._undo = None
        self.cards.reload()
