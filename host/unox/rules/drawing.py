"""The draw editions' calls (classic and those built on it): `draw`, `pass_turn` and `challenge`.

The launcher is an exact-count dealer (DL1): a draw reports the cards it gave, never more than is due; a
shortfall (empty, jam) stays owed (DL2). A turn's own draw is 1 (C-T2); after it the player may play only
the card drawn, or pass (C-T2-C-T4). A Wild Draw Four's victim may challenge before their first draw
(C-A7). A mixin of `Game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from unox.rules.errors import RuleError

if TYPE_CHECKING:
    from unox.rules.cards import Card
    from unox.rules.ruleset import Ruleset
    from unox.rules.tracking import DealtCards, PhysicalCards
    from unox.rules.turns import TurnOrder

VOLUNTARY = "turn"  # the third element of an owed entry for a turn's own draw (C-T2) not yet given


class DrawCalls:
    """draw, pass and challenge for `Game` (refused in a press edition such as Extreme)."""

    if TYPE_CHECKING:
        stage: str
        rules: Ruleset
        order: TurnOrder
        cards: DealtCards | PhysicalCards
        went_out: str | None
        pending: dict[str, Any] | None
        _drawn: str | None
        _drawn_card: Card | None
        _challenge: list | None
        _catchable: str | None
        _safe: str | None
        _undo: tuple | None
        _precalled: str | None

        def seat_of(self, player: str) -> int: ...
        def _need(self, *stages: str) -> None: ...
        def _check_fired(self, fired: int) -> None: ...
        def end_hand_if_out(self) -> None: ...
        def _need_no_pending(self, cmd: str) -> None: ...
        def legal_plays(self, player: str) -> list: ...

    def _need_draws(self, cmd: str) -> None:
        if not self.rules.draws:
            raise RuleError(
                "not_in_rules", f"{self.rules.title} has no {cmd}: press the launcher instead (send press)"
            )

    @property
    def challenge_open(self) -> str | None:
        """The player who may challenge a Wild Draw Four right now (C-A7), or None."""
        return self._challenge[0] if self._challenge is not None else None

    @property
    def challenged_player(self) -> str | None:
        """The player whose Wild Draw Four may be challenged right now, or None."""
        return self._challenge[1] if self._challenge is not None else None

    def draw_due(self, player: str) -> int:
        """How many cards `player`'s next draw is: the first owed draw, else 1 for their turn (C-T2)."""
        if not self.rules.draws or self.pending is not None:
            return 0  # an edition's choice first: a launcher button fires nothing meanwhile
        owed = self.order.owed
        if self.stage not in ("turn", "flip"):
            return 0
        if owed:
            return owed[0][1] if owed[0][0] == player else 0
        if self.stage == "turn" and player == self.order.turn_player and self._drawn != player:
            return 1
        return 0

    def draw(self, player: str, fired: int) -> None:
        """DL1/DL2, C-T2: `player` took `fired` cards from the launcher, owed draws first, in order."""
        self._need_draws("draw")
        if not (self.stage == "flip" and self.order.owed):  # DL4: the launcher deals before the flip
            self._need("turn")
        self.seat_of(player)
        self._check_fired(fired)
        self._need_no_pending("draw")
        order = self.order
        owed = order.owed
        if owed:
            if owed[0][0] != player:
                self._refuse_draw(player)
            due = owed[0][1]
        elif player != order.turn_player:
            raise RuleError("not_owed", f"{player} owes no draw and it is {order.turn_player}'s turn: wait")
        elif self._drawn == player:
            raise RuleError("already_drew",
                            f"{player} has drawn this turn (C-T4): play the card drawn or pass")
        else:
            due = 1
            self._check_may_decline(player)
        if fired > due:
            raise RuleError("bad_fired", f"{player} is due {due} card(s) now: a draw gives at most that many "
                            "(DL2); fire the rest with another draw")
        self._catchable = self._safe = None
        self._undo = None
        if self._challenge is not None and self._challenge[0] == player:
            self._challenge = None  # D2: drawing accepts the Wild Draw Four
        if not owed:
            owed.append([player, 1, VOLUNTARY])
        self._take_owed(player, fired)

    def _check_may_decline(self, player: str) -> None:
        """BA-T1 (an edition without C-T3): dealt mode knows the hand, so a player holding a playable card
        may not draw instead."""
        if not self.rules.may_decline and self.cards.dealt and self.legal_plays(player):
            raise RuleError("must_play", f"{player} holds a card that can be played and must play it "
                            f"({self.rules.title} allows no declining): play it")

    def _take_owed(self, player: str, fired: int) -> None:
        cards, owed = self.cards, self.order.owed
        cards.fire(player, fired)
        entry = owed[0]
        entry[1] -= fired
        nothing_left = cards.dealt and cards.launcher == 0 and cards.pile <= 1
        if entry[1] <= 0 or (fired == 0 and nothing_left):
            owed.pop(0)  # dealt mode with no card anywhere: what cannot be drawn is not owed
            if len(entry) > 2:
                self._drawn = player
                self._drawn_card = cards.hands[player][-1] if cards.dealt and fired else None
        if cards.dealt and cards.launcher == 0 and cards.pile > 1:
            cards.reload()  # C-R1: the pile is reshuffled into the launcher at once
        if not owed:
            self.end_hand_if_out()

    def edition_call(self, cmd: str, fields: dict[str, Any]) -> None:
        """One of the edition's own requests (`Ruleset.requests`), answered by `Ruleset.call`."""
        if cmd not in self.rules.requests:
            raise RuleError("not_in_rules", f"{self.rules.title} has no request {cmd!r}")
        self.rules.call(self, cmd, fields)  # type: ignore[arg-type]

    def _refuse_draw(self, player: str) -> None:
        first = self.order.owed[0][0]
        if self.order.owes(player):
            raise RuleError("draw_out_of_order", f"{first} draws before {player}: wait")
        raise RuleError("not_owed", f"{player} owes no draw: {first} draws now")

    def pass_turn(self, player: str) -> None:
        """C-T2: after the turn's draw the player keeps the card and play passes on. C-T4: no pass without."""
        self._need_draws("pass")
        self._need("turn")
        self.seat_of(player)
        self._need_no_pending("pass")
        order = self.order
        if order.owed:
            raise RuleError("owes_draws", f"{order.owed[0][0]} must draw first: send draw")
        if player != order.turn_player:
            raise RuleError("not_your_turn", f"it is {order.turn_player}'s turn: wait for yours")
        if self._drawn != player:
            raise RuleError("must_draw_first", f"{player} has not drawn (C-T4): draw 1 first, then pass")
        if not self.rules.may_decline and self.cards.dealt and self.legal_plays(player):
            raise RuleError("must_play", f"{player} drew a card that can be played and must play it "
                            f"({self.rules.title} allows no declining): play {self._drawn_card.code}")
        self._catchable = self._safe = None
        self._undo = None
        self._drawn = self._drawn_card = None
        self._precalled = None
        order.turn = order.seat_after(order.turn)

    def challenge(self, player: str, guilty: bool | None = None) -> None:
        """C-A7: the victim of a Wild Draw Four challenges before drawing. Physical mode: the table says
        whether the hand was guilty; dealt mode: the engine knows (`guilty` left out)."""
        self._need_draws("challenge")
        self._need("turn")
        self.seat_of(player)
        self._need_no_pending("challenge")
        pending = self._challenge
        if pending is None or pending[0] != player:
            raise RuleError("nothing_to_challenge", f"{player} has no Wild Draw Four to challenge now: "
                            "only its victim may, before their first draw (C-A7)")
        victim, culprit, known, entry = pending
        if self.cards.dealt:
            if guilty is not None:
                raise RuleError("bad_challenge", "dealt mode: the engine has seen the hand; leave guilty out")
            guilty = known
        elif not isinstance(guilty, bool):
            raise RuleError("bad_challenge", 'say what the hand showed: "guilty":true or "guilty":false')
        self._challenge = None
        self._undo = None
        order = self.order
        if guilty:
            entry[0], entry[1] = culprit, self.rules.challenge_draws[0]  # the culprit draws 4 instead
            order.turn = order.index[victim]  # D3: the challenger plays their turn
            if self.went_out == culprit:
                self.went_out = None  # D5: a guilty last card does not go out
        else:
            entry[1] += self.rules.challenge_draws[1]  # C-A7: 6 in all, and the turn stays lost
