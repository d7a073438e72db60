"""Barbie UNO (seed 000): classic UNO in turquoise, pink, green and orange, plus the Beachcomber.

Rule IDs are those of docs/rules.md (BA-...). Where this edition says nothing it is classic: two players
(rule 3 is Draw Two, C-2P3), the last card (C-U3), an empty pile (C-R1), partners (C-V1), UNO penalty 2.

The Beachcomber (BA-A1) is a wild whose player then may give one other player up to one card of each colour:
the table sends `gift` (`player`, `to`, `cards`); at a physical table the table says which cards went, in
dealt mode the engine checks them against the hand and moves them. Going out by a gift needs UNO called
before the gift left one card (BA-A2): in the window of the Beachcomber itself, or while the gift is due.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from unox.rules.cardset import CardSet, classic_cards, classic_deck, classic_help
from unox.rules.editions.classic import ClassicRules
from unox.rules.errors import RuleError
from unox.rules.ruleset import Effect, FirstEffect, RequestField
from unox.rules.words import counted

if TYPE_CHECKING:
    from unox.rules.cards import Card
    from unox.rules.game import Game

COLORS = {"T": "turquoise", "P": "pink", "G": "green", "O": "orange"}
BEACHCOMBER = {"WB": "beachcomber"}
GIFT_WHY = "Beachcomber (BA-A1)"


class BarbieRules(ClassicRules):
    """Classic effects on Barbie's cards; the Beachcomber waits for the gift (`game.pending`)."""

    name = "barbie"
    title = "Barbie UNO"
    cardset = CardSet(COLORS, classic_cards(COLORS, BEACHCOMBER), classic_help(COLORS, {"WB": "Beachcomber"}))
    deck: tuple[str, ...] = tuple(classic_deck(COLORS, {"WB": 4}))  # BA-D1: 112
    game_kinds = frozenset({"beachcomber"})
    may_decline = False  # BA-T1 (D10)
    requests = {
        "gift": {
            "player": RequestField("player", hint='who played the Beachcomber, e.g. "player":"Bob"'),
            "to": RequestField("player", False, 'who receives the cards, e.g. "to":"Cy" (left out: none)'),
            "cards": RequestField("texts", hint='the cards given, at most one per colour, no wilds, e.g. '
                                  '"cards":["T3","P+2"]; [] gives nothing'),
        }
    }

    def effect_table(self) -> dict[str, Effect]:
        return {**super().effect_table(), "beachcomber": self.play_number}  # BA-A1: the next player plays

    def first_table(self) -> dict[str, FirstEffect]:
        # BA-S4 (D9): a first Wild, Wild Draw Four or Beachcomber goes back; another is turned up
        return {**super().first_table(), "wild": self.first_returned, "beachcomber": self.first_returned}

    def dealer_value(self, card: Card) -> int:
        """BA-S1 (D8): the card of highest point value deals (BA-G1: wilds 50, actions 20, numbers face)."""
        return card.points

    # --- the Beachcomber's gift (BA-A1, BA-A2) ---------------------------------------------------------

    def after_play(self, game: Game, player: str, card: Card) -> None:
        """BA-A1: after naming the colour its player may give; nothing is asked when nothing can be given."""
        cards = game.cards
        if cards.hand_size(player) == 0:
            return
        if cards.dealt and not any(c.color is not None for c in cards.hands[player]):
            return
        game.pending = {"cmd": "gift", "player": player, "why": GIFT_WHY}

    def narrate(self, request: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> str | None:
        """The table's line for a gift (BA-A1)."""
        if request.get("cmd") != "gift":
            return None
        player, cards = request.get("player"), request.get("cards") or []
        if not cards:
            return f"{player} gives nothing with the Beachcomber (BA-A1)."
        return f"{player} gives {', '.join(cards)} to {request.get('to')} (BA-A1)."

    def call(self, game: Game, cmd: str, fields: dict[str, Any]) -> None:
        """gift: check everything, then move the cards and settle BA-A2."""
        giver = fields["player"]
        game.seat_of(giver)
        pending = game.pending
        if pending is not None and (pending["cmd"] != "gift" or pending["player"] != giver):
            game._need_no_pending("gift")  # another choice waits: the one code of every edition
        if pending is None:
            raise RuleError("nothing_to_give", f"{giver} has no Beachcomber gift to give now: a gift follows "
                            "the Beachcomber its player just played (BA-A1)")
        gift = self._check_gift(game, giver, fields.get("to"), fields["cards"])
        to = fields.get("to")
        game.pending = None
        game._undo = None  # the play is no longer the most recent event (C-P2 cannot take it back)
        called = game._precalled == giver or game._safe == giver
        game._precalled = None
        if gift:
            _move(game, giver, to, gift)
            self._after_gift(game, giver, called)
        game.end_hand_if_out()

    def _check_gift(self, game: Game, giver: str, to: str | None, codes: list[str]) -> list[Card]:
        from unox.rules.cards import CardError

        try:
            gift = [self.parse_card(code) for code in codes]
        except CardError as exc:
            raise RuleError("bad_card", f"gift: {exc}") from exc
        if not gift:
            return gift
        if to is None:
            other = _other(game, giver)
            raise RuleError("missing_target", f'name who receives the gift, e.g. "to":"{other}"')
        game.seat_of(to)
        if to == giver:
            raise RuleError("bad_target", "a gift goes to another player: name someone else in \"to\"")
        wild = next((c for c in gift if c.color is None), None)
        if wild is not None:
            raise RuleError("bad_gift", f"{wild.code} is a wild: the Beachcomber gives coloured cards only "
                            "(BA-A1)")
        colors = [c.color for c in gift]
        twice = next((c for c in colors if colors.count(c) > 1), None)
        if twice is not None:
            raise RuleError("bad_gift", f"two {self.color_name(twice)} cards: give at most one card of each "
                            "colour (BA-A1)")
        cards = game.cards
        if cards.dealt:
            held = cards.hands[giver]
            missing = next((c for c in gift if c not in held), None)
            if missing is not None:
                raise RuleError("not_in_hand", f"{giver} does not hold {missing.code}: give cards from your "
                                "hand")
        elif len(gift) > cards.hand_size(giver):
            held = counted(cards.hand_size(giver), "card")
            raise RuleError("bad_gift", f"{giver} holds only {held}: give at most that many")
        return gift

    def _after_gift(self, game: Game, giver: str, called: bool) -> None:
        """BA-A2 (D12): no cards left goes out if UNO was called, else 2 draws and not out; one card left
        is U2's usual window."""
        left = game.cards.hand_size(giver)
        game._safe = game._catchable = None
        if left == 1:
            if called:
                game._safe = giver
            else:
                game._catchable = giver
            return
        if left:
            return
        if called:
            game.went_out = giver
            return
        game.went_out = None
        if not game.order.owes(giver):  # already caught for this UNO: not a second penalty
            game.order.owed.append([giver, self.penalties["uno"]])

    # --- bots (dealt mode) -----------------------------------------------------------------------------

    def bot_requests(self, game: Game, bot: Any, player: str) -> list[dict[str, Any]]:
        """A bot gives its highest card of each colour to the player holding the most cards (the one least
        likely to go out); if that leaves it one card or none, it calls UNO first if it remembers."""
        best: dict[str, Card] = {}
        for card in game.cards.hands[player]:
            if card.color is not None and (card.color not in best or card.points > best[card.color].points):
                best[card.color] = card
        state = game.state()
        others = [p for p in state["players"] if p != player]
        to = max(others, key=lambda p: state["hands"][p])
        requests: list[dict[str, Any]] = []
        left = game.cards.hand_size(player) - len(best)
        if left <= 1 and game._safe != player and bot.calls_uno(game, player):
            requests.append({"cmd": "uno", "player": player})
        requests.append({"cmd": "gift", "player": player, "to": to, "cards": [c.code for c in best.values()]})
        return requests


def _move(game: Game, giver: str, to: str | None, gift: list[Card]) -> None:
    """The gift changes hands: the cards in dealt mode, the counts at a physical table."""
    cards = game.cards
    if cards.dealt:
        for card in gift:
            cards.hands[giver].remove(card)
            cards.hands[to].append(card)  # type: ignore[index]
    else:
        cards.sizes[giver] -= len(gift)
        cards.sizes[to] += len(gift)  # type: ignore[index]


def _other(game: Game, player: str) -> str:
    return next(p for p in game.order.players if p != player)


RULES = BarbieRules()
