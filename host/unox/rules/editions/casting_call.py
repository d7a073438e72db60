"""UNO Casting Call (seed 001): classic UNO plus 4 Casting Call wilds (CC-D1).

A Casting Call is a wild (its player names the colour); then its player turns cards up from the draw pile,
the launcher, one at a time (DL3: each is fired and counted by the beam, and the table says which card it
is) until one matches a card turned before it (CC-A1, D14). They give all the turned cards to one other
player, or deal them one at a time to the others from the next player on (CC-A2, D15); then the next player
plays. Two requests of its own carry this, each answering `game.pending`:

- `turn` (`player`, `card` at a physical table, `fired`): one card turned up; with a launcher `fired` may be
  left out and the launcher fires 1 (`fire_due`). Dealt mode: the engine turns the launcher's next card.
- `share` (`player`, and `to` a player or `deal` true): the turned cards go out.

While it waits, `pending` holds `turned`, the cards turned so far (codes, in order); once shared, the
state's `casting_call` says who got which. A first Casting Call goes back into the launcher (CC-S4, D13).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from unox.rules.cardset import CLASSIC_COLORS, CardSet, classic_cards, classic_deck, classic_help
from unox.rules.editions.classic import ClassicRules
from unox.rules.errors import RuleError
from unox.rules.ruleset import Effect, FirstEffect, RequestField

if TYPE_CHECKING:
    from unox.rules.cards import Card
    from unox.rules.game import Game

CASTING_CALL = "casting_call"
CODE = "WC"
WHY_TURN = "Casting Call (CC-A1): turn cards up from the launcher, one at a time, until one matches"
WHY_SHARE = "Casting Call (CC-A2): give the turned cards to one other player, or deal them out"
WHY_NAME = "Casting Call (CC-A1): the card is out of the launcher: say which card it is"
RESULT_KEY = "casting_call"  # the state key of the last share of this hand


def cards_match(a: Card, b: Card) -> bool:
    """D14: by colour, number or symbol; a wild matches only a wild of the same kind."""
    if a.color is None or b.color is None:
        return a.kind == b.kind
    return a.color == b.color or a.face == b.face


class CastingCallRules(ClassicRules):
    """Classic plus the Casting Call: a wild that turns cards up and shares them out."""

    name = "casting-call"
    title = "UNO Casting Call"
    cardset = CardSet(CLASSIC_COLORS, classic_cards(CLASSIC_COLORS, {CODE: CASTING_CALL}),
                      classic_help(CLASSIC_COLORS, {CODE: "Casting Call"}))
    deck = tuple(classic_deck(CLASSIC_COLORS, {CODE: 4}))  # CC-D1: 112 cards
    game_kinds = frozenset({CASTING_CALL})
    requests = {
        "turn": {
            "player": RequestField("player", hint='the Casting Call\'s player, e.g. "player":"Bob"'),
            "card": RequestField("text", False, 'the card turned up (physical table), e.g. "card":"R5"'),
            "fired": RequestField("count", hint='the cards the launcher fired: one at a time, "fired":1'),
        },
        "share": {
            "player": RequestField("player", hint='the Casting Call\'s player, e.g. "player":"Bob"'),
            "to": RequestField("player", False, 'all the turned cards to one other player, e.g. "to":"Cy"'),
            "deal": RequestField("flag", False, '"deal":true: one at a time to the others from the next on'),
        },
    }

    def effect_table(self) -> dict[str, Effect]:
        return {**super().effect_table(), CASTING_CALL: self.play_number}  # CC-A2: the next player plays

    def first_table(self) -> dict[str, FirstEffect]:
        return {**super().first_table(), CASTING_CALL: self.first_returned}  # CC-S4, D13

    # --- the pending choice -------------------------------------------------------------------------------

    def after_play(self, game: Game, player: str, card: Card) -> None:
        """CC-A1: the Casting Call's player now turns cards up (CC-A3: even as their last card)."""
        game.pending = {"cmd": "turn", "player": player, "why": WHY_TURN, "turned": [], "out": False}

    def fire_due(self, game: Game, cmd: str, fields: dict[str, Any]) -> int:
        """DL3: one card per `turn`, and only when that player's turn request is due and complete."""
        pending = game.pending
        if cmd != "turn" or pending is None or pending["cmd"] != "turn":
            return 0
        if pending["player"] != fields["player"]:
            return 0
        cards = game.cards
        if cards.dealt:  # the engine turns; with no card left anywhere, `fired` 0 ends the turning
            return 1 if fields.get("card") is None and (cards.launcher or cards.pile > 1) else 0
        if pending.get("out"):  # fired already: this request names the card that came out
            return 0
        if fields.get("card") is not None:  # a physical table names the card as it fires it
            return 1
        return 1 if cards.launcher or cards.pile > 1 else 0  # or it comes out first, and is named next

    def choice_steps(self) -> list[tuple[str, str, str]]:
        return [
            ("play", "turning", "Casting Call, a wild, its colour named (CC-A1)"),
            ("turning", "turning", "turn, one card fired and named, no match yet (DL3)"),
            ("turning", "sharing", "turn, it matches an earlier card (D14), or no card is left"),
            ("sharing", "play", "share, to one other player or dealt out (CC-A2, D15), then the next plays"),
            ("sharing", "drawing", "share, with draws owed meanwhile (a catch)"),
            ("sharing", "[*]", "share after a last Casting Call, the hand ends (CC-A3)"),
        ]

    def state_extra(self, game: Game) -> dict[str, Any]:
        result = getattr(game, "_casting_call", None)
        if result is None or result[0] != game.hand_number:
            return {RESULT_KEY: None}
        shared = result[1]
        return {RESULT_KEY: {"player": shared["player"], "turned": list(shared["turned"]),
                             "given": {p: list(codes) for p, codes in shared["given"].items()}}}

    def narrate(self, request: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> str | None:
        """The table's line for a turn (which card came out, DL3) or a share (who got which)."""
        player = request.get("player")
        if request.get("cmd") == "turn":
            turned = (after.get("pending") or {}).get("turned") or []
            if (after.get("pending") or {}).get("out"):  # fired, named next
                return f"The launcher turns up a card for {player}'s Casting Call: {player} says which it is."
            if len(turned) == len((before.get("pending") or {}).get("turned") or []):
                return f"Every card is in a hand, nothing is left to turn up ({len(turned)} turned)."
            line = f"{player} turns up {turned[-1]} from the launcher (CC-A1)"
            if (after.get("pending") or {}).get("cmd") == "share":
                line += f": it matches; {player} shares the {len(turned)} cards turned (CC-A2)"
            return line + "."
        if request.get("cmd") == "share":
            given = (after.get(RESULT_KEY) or {}).get("given") or {}
            parts = "; ".join(f"{', '.join(codes)} to {p}" for p, codes in given.items())
            return f"{player} gives {parts} (CC-A2)."
        return None

    def call(self, game: Game, cmd: str, fields: dict[str, Any]) -> None:
        pending = _due(game, cmd, fields["player"])
        if cmd == "turn":
            self._turn(game, pending, fields)
        else:
            self._share(game, pending, fields)

    # --- bots (dealt mode) -----------------------------------------------------------------------------

    def bot_requests(self, game: Game, bot: Any, player: str) -> list[dict[str, Any]]:
        """A bot shares the turned cards with the opponent its `choose_share` picks, or deals them out
        (CC-A2); a turn (CC-A1) is the default request, with no fields."""
        pending = game.pending
        if pending is not None and pending["cmd"] == "share":
            to = bot.choose_share(game, player)
            return [{"cmd": "share", "player": player, **({"to": to} if to else {"deal": True})}]
        return super().bot_requests(game, bot, player)

    # --- turn: one card up (CC-A1, DL3) -------------------------------------------------------------------

    def _turn(self, game: Game, pending: dict[str, Any], fields: dict[str, Any]) -> None:
        fired, code = fields["fired"], fields.get("card")
        game._check_fired(fired)
        cards = game.cards
        if fired > 1:
            raise RuleError("bad_fired", "cards are turned up one at a time (DL3): fire 1, send turn for it")
        if pending.get("out"):  # the card fired by the last `turn` is named now
            if fired or code is None:
                raise RuleError("bad_turned_card", 'the card is out: say which it is, e.g. "card":"R5", '
                                "fired 0")
            card = self.parse_card(code)
        elif fired == 0:
            self._nothing_fired(game, pending, code)
            return
        elif code is None and not cards.dealt:  # DL3 at a physical table: out first, named next
            cards.launcher = max(0, cards.launcher - 1)
            game._undo = None  # the card is out of the launcher for good
            game.pending = {**pending, "out": True, "why": WHY_NAME}
            return
        else:
            card = self._next_card(game, code)
        turned = [self.cards[c] for c in pending["turned"]]
        matched = any(cards_match(before, card) for before in turned)
        game._undo = None  # the Casting Call can no longer be taken back (C-P2): its cards are out
        codes = [*pending["turned"], card.code]
        game.pending = {"cmd": "share" if matched else "turn", "player": pending["player"],
                        "why": WHY_SHARE if matched else WHY_TURN, "turned": codes}
        if not matched:
            game.pending["out"] = False
        if cards.dealt and cards.launcher == 0 and cards.pile > 1:
            cards.reload()  # C-R1, as for a draw: the pile goes back into the launcher at once

    def _nothing_fired(self, game: Game, pending: dict[str, Any], code: str | None) -> None:
        """`fired` 0: refused while a card is left to turn; with every card in a hand, the turning stops."""
        cards = game.cards
        if code is not None:
            raise RuleError("bad_turned_card", "nothing was fired, so no card came out: leave card out")
        if (cards.launcher or cards.pile > 1) and not cards.dealt:
            raise RuleError("bad_turned_card", 'name the card turned up, e.g. "card":"R5"; if nothing '
                            "came out, reload or clear the launcher, then send turn again")
        if cards.launcher or cards.pile > 1:
            raise RuleError("bad_fired", "a turn fires one card and cards are left: reload the launcher "
                            "(send reload), then send turn again")
        self._stop_turning(game, pending)

    def _next_card(self, game: Game, code: str | None) -> Card:
        """The card that came out: named by a physical table, the launcher's next one in dealt mode."""
        cards = game.cards
        if cards.dealt:
            if code is not None:
                raise RuleError("bad_turned_card", "dealt mode: the engine turns the launcher's next card; "
                                "leave card out")
            return cards.stack.pop()  # type: ignore[union-attr]
        if code is None:
            raise RuleError("bad_turned_card", 'say which card came out of the launcher, e.g. "card":"R5"')
        card = self.parse_card(code)
        cards.launcher = max(0, cards.launcher - 1)
        return card

    def _stop_turning(self, game: Game, pending: dict[str, Any]) -> None:
        """Every card is in a hand: the turning stops; what was turned (if anything) is shared."""
        game._undo = None
        if pending["turned"]:
            game.pending = {**pending, "cmd": "share", "why": WHY_SHARE}
            return
        game.pending = None
        game.end_hand_if_out()

    # --- share: the turned cards go out (CC-A2, CC-A3) ---------------------------------------------------

    def _share(self, game: Game, pending: dict[str, Any], fields: dict[str, Any]) -> None:
        player, to, deal = pending["player"], fields.get("to"), fields.get("deal")
        if (to is None) == (not deal):
            raise RuleError("bad_share", 'share with "to":NAME (all to one other player) or "deal":true '
                            "(one at a time to the others), one of the two")
        if to == player:
            raise RuleError("bad_share", f"{player} gives the turned cards to another player, not themselves")
        if to is not None:
            game.seat_of(to)
            given = {to: list(pending["turned"])}
        else:
            given = _dealt_out(game, player, pending["turned"])
        for receiver, codes in given.items():
            _give(game, receiver, codes)
        game._casting_call = (game.hand_number,  # type: ignore[attr-defined]
                              {"player": player, "turned": list(pending["turned"]), "given": given})
        game.pending = None
        game.end_hand_if_out()  # CC-A3: a last Casting Call ends the hand once its cards are given


def _due(game: Game, cmd: str, player: str) -> dict[str, Any]:
    """The pending Casting Call that `cmd` by `player` answers, or the refusal saying what is due."""
    pending = game.pending
    game.seat_of(player)
    if pending is None:
        raise RuleError("choice_not_due", f"{player} has no Casting Call waiting: {cmd} follows a Casting "
                        "Call just played (CC-A1, CC-A2)")
    if pending["cmd"] != cmd or pending["player"] != player:
        game._need_no_pending(cmd)
    return pending


def _dealt_out(game: Game, player: str, codes: list[str]) -> dict[str, list[str]]:
    """D15: one at a time to the other players, in the direction of play from the next player."""
    order = game.order
    seat = game.seat_of(player)
    others = [order.players[order.seat_after(seat, k)] for k in range(1, order.seats)]
    given: dict[str, list[str]] = {p: [] for p in others}
    for i, code in enumerate(codes):
        given[others[i % len(others)]].append(code)
    return {p: cards for p, cards in given.items() if cards}


def _give(game: Game, player: str, codes: list[str]) -> None:
    """The turned cards join `player`'s hand (dealt mode: the very cards; physical: the count)."""
    cards = game.cards
    if cards.dealt:
        cards.hands[player].extend(game.rules.cards[c] for c in codes)  # type: ignore[union-attr]
    else:
        cards.sizes[player] += len(codes)  # type: ignore[union-attr]


RULES = CastingCallRules()
