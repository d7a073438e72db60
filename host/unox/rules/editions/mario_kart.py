"""UNO Mario Kart (seed 003, Italian): classic UNO plus the Item Wild, and an item printed on every card.

Rule IDs are those of docs/rules.md (MK-..., decisions D17-D23). A card's item (mushroom, banana, green
shell, lightning, bomb) acts only when an Item Wild turns the card up: the Item Wild names no colour; its
player has the launcher fire one card onto the pile (DL3, request `item`), the table reports which card and
item it is, the item acts, and a choice it needs (the green shell's victim, a colour) comes with `choose`.
Play then matches the item card. One hand is the game unless a scoring variant is chosen (MK-G1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from unox.rules.cards import CardError
from unox.rules.cardset import CLASSIC_COLORS, CardSet, classic_cards, classic_deck, classic_help
from unox.rules.editions.classic import ClassicRules
from unox.rules.errors import RuleError
from unox.rules.ruleset import Effect, FirstEffect, RequestField, TableOps

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from random import Random

    from unox.rules.cards import Card
    from unox.rules.game import Game

ITEMS = ("mushroom", "banana", "green_shell", "lightning", "bomb")
# what a table may call an item: the English names and the Italian sheet's
ITEM_WORDS = {
    **{item: item for item in ITEMS},
    "green shell": "green_shell", "green-shell": "green_shell", "shell": "green_shell",
    "fungo": "mushroom", "buccia di banana": "banana", "conchiglia verde": "green_shell",
    "conchiglia": "green_shell", "fulmine": "lightning", "bomba": "bomb",
}
ITEM_WILD_KINDS = frozenset({"item_wild"})
COUNTS_AS_COLOR = frozenset({"wild", "item_wild"})  # MK-A1 (D19)
BANANA, SHELL, BOMB = 2, 1, 2  # cards drawn: MK-I3, MK-I4, MK-I6 (lightning: 1 each, MK-I5)
SCORING_VARIANTS = frozenset({"scoring", "elimination", "partners", "rotation"})  # MK-G1: points are kept


def items_by_code(deck: Iterable[str]) -> dict[str, str]:
    """DECISION (the sheet prints items but gives no list): the deck's 55 different codes, in deck order
    (R0-R9, R+2, RR, RS, then Y, G, B alike, then W, W+4, WI), take the items in turn: R0 mushroom,
    R1 banana, R2 green shell, R3 lightning, R4 bomb, R5 mushroom ... Both copies of a code show the same
    item (dealt mode cannot tell copies apart); each item is on 21 to 24 of the 112 cards."""
    return {code: ITEMS[i % len(ITEMS)] for i, code in enumerate(dict.fromkeys(deck))}


DECK = tuple(classic_deck(CLASSIC_COLORS, {"WI": 4}))  # MK-D1 (D17): 108 + 4 Item Wild
ITEM_OF = items_by_code(DECK)


class MarioKartRules(ClassicRules):
    """Classic's effects, with MK-S4's first card, MK-A1's challenge, and the Item Wild's item (MK-I1-I7)."""

    name = "mario-kart"
    title = "UNO Mario Kart"
    cardset = CardSet(CLASSIC_COLORS, classic_cards(CLASSIC_COLORS, {"WI": "item_wild"}),
                      classic_help(CLASSIC_COLORS, {"WI": "Item Wild"}))
    deck = DECK
    game_kinds = ITEM_WILD_KINDS
    colorless_kinds = ITEM_WILD_KINDS  # D21: the covered Item Wild names no colour
    first_covered = True  # MK-S4: an ignored first card stays on the pile; the next is turned up on it
    variants = (*ClassicRules.variants, "scoring")
    item_of = ITEM_OF  # the item on each card, for a front end that reports a card turned up (MK-I1)
    requests = {
        "item": {
            "player": RequestField("player", hint='the Item Wild\'s player, e.g. "player":"Bob"'),
            "fired": RequestField("count", hint='the item card the launcher fired: "fired":1'),
            "card": RequestField("text", False, 'physical table: the card turned up, e.g. "card":"G5"'),
            "item": RequestField("text", False, 'physical table: the item on it, e.g. "item":"banana"'),
        },
        "choose": {
            "player": RequestField("player", hint='the Item Wild\'s player, e.g. "player":"Bob"'),
            "target": RequestField("player", False, 'green shell: who draws 1, e.g. "target":"Cy"'),
            "color": RequestField("text", False, 'a wild item card, or a bomb: "color":"red"'),
        },
    }

    def effect_table(self) -> dict[str, Effect]:
        return {**super().effect_table(), "item_wild": self.play_item_wild}

    def first_table(self) -> dict[str, FirstEffect]:
        ignored = self.first_ignored
        return {**super().first_table(), "draw2": ignored, "reverse": ignored, "skip": ignored,
                "wild_draw4": ignored, "item_wild": self.first_number}

    def play_item_wild(self, t: TableOps, seat: int, target: int | None) -> None:
        """MK-I1: the turn stays with its player until the item has acted (`item`, then maybe `choose`)."""
        t.set_turn(seat)

    def first_ignored(self, t: TableOps, dealer: int) -> bool:
        """MK-S4 (D18): a first Draw Two, Reverse, Skip or Wild Draw Four is ignored and covered."""
        return False

    def first_dealer(self, players: Sequence[str], rng: Random) -> str:
        """MK-S1: the players choose the dealer. Dealt mode (bots): a seeded draw of lots."""
        return players[rng.randrange(len(players))]

    def hand_is_game(self, variant: str | None) -> bool:
        """MK-G1 (D23): the first out wins, unless points are kept (`--variant scoring`, or a variant that
        scores: elimination, partners, rotation)."""
        return variant not in SCORING_VARIANTS

    def challenge_guilty(self, hand: list[Card], played: Card, color: str) -> bool:
        """MK-A1 (D19): a Wild or Item Wild in hand counts as a card of the colour; a Wild Draw Four not."""
        return any(c.color == color or c.kind in COUNTS_AS_COLOR for c in hand if c is not played)

    # --- the Item Wild -----------------------------------------------------------------------------------

    def after_play(self, game: Game, player: str, card: Card) -> None:
        """MK-I1: the launcher fires the item card next. A wild is never a wrong card: no take-back."""
        game._undo = None
        game.extra["turned"] = False
        game.pending = {"cmd": "item", "player": player, "out": False,  # the item card is still to come
                        "why": "Item Wild: the launcher fires 1 card, its item acts (MK-I1, DL3)"}

    def fire_due(self, game: Game, cmd: str, fields: dict[str, Any]) -> int:
        """DL3: 1 when the item card is due and not yet out; a report of the card (card, item) fires
        nothing. Dealt mode with an empty launcher: 0 (reload first; `item` says so)."""
        pending = game.pending
        if cmd != "item" or "card" in fields or "item" in fields or pending is None:
            return 0
        if pending["cmd"] != "item" or pending["player"] != fields.get("player") or game.extra.get("turned"):
            return 0
        return 0 if game.cards.dealt and game.cards.launcher == 0 else 1

    def choice_steps(self) -> list[tuple[str, str, str]]:
        return [
            ("play", "item", "Item Wild, no colour, waits for item (MK-I1)"),
            ("item", "item", "item fired at a launcher table, then its card and item reported (DL3)"),
            ("item", "choose", "green shell, bomb or a wild item card waits for choose (MK-I4, MK-I6, D21)"),
            ("item", "play", "mushroom, the same player again (MK-I2)"),
            ("item", "drawing", "banana, the player before owes 2; lightning, the others 1 (MK-I3, MK-I5)"),
            ("choose", "drawing", "the green shell's target or the bomb's player owes draws (MK-I4, MK-I6)"),
            ("choose", "play", "the colour named for a wild item card (D21)"),
        ]

    def state_extra(self, game: Game) -> dict[str, Any]:
        """`item`: the last item card turned this hand, `{"player":P,"card":C,"item":I}`, else null."""
        return {"item": game.extra.get("item")}

    def narrate(self, request: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> str | None:
        """The table's line for the Item Wild: the item card turned up (MK-I1) and the choice its item
        needed."""
        if request.get("cmd") not in ("item", "choose"):
            return None
        player, turned = request.get("player"), after.get("item") or {}
        if request.get("cmd") == "choose":
            if request.get("target"):
                return f"{player}'s green shell hits {request['target']} (MK-I4)."
            return f"{player} names {after.get('color')}."
        if turned and turned != before.get("item"):
            item = str(turned.get("item", "")).replace("_", " ")
            return f"{player}'s Item Wild turns up {turned.get('card')}: {item} (MK-I1)."
        if after.get("pending") and after["pending"].get("cmd") == "item":
            return f"{player}'s item card is out: say which card and item it is."
        return f"{player}'s Item Wild finds no card to turn up: no item acts."

    def call(self, game: Game, cmd: str, fields: dict[str, Any]) -> None:
        if cmd == "item":
            self._item(game, fields)
        else:
            self._choose(game, fields)

    def _item(self, game: Game, fields: dict[str, Any]) -> None:
        """MK-I1/DL3: the item card fired (`fired` 1) and reported (`card`, `item`; the engine knows them in
        dealt mode). A physical table with a launcher fires first, then reports with `fired` 0."""
        player, fired = fields["player"], fields["fired"]
        pending_for(game, "item", player)
        card, item = self._check_item(game, fields.get("card"), fields.get("item"), fired)
        cards = game.cards
        if fired == 0 and not game.extra.get("turned"):  # no card anywhere to turn: no item acts
            self._wait_choice(game, player, None, ["color"])
            return
        if fired:
            if cards.dealt:
                card = cards.turn_up(None)
                item = ITEM_OF[card.code]
            else:
                cards.launcher = max(0, cards.launcher - 1)
                cards.pile += 1
        if card is None:  # physical, fired before it is known: the table reports it next
            game.extra["turned"] = True
            game.pending = {"cmd": "item", "player": player, "out": True,  # a front end asks which now
                            "why": "the item card is out: say which card it is (MK-I1)"}
            return
        game.extra["turned"] = False
        game.top, game.color = card, card.color
        game.extra["item"] = {"player": player, "card": card.code, "item": item}
        if cards.dealt and cards.launcher == 0 and cards.pile > 1:
            cards.reload()  # C-R1: at once, as after a draw
        needs = (["target"] if item == "green_shell" else []) + (
            ["color"] if card.color is None or item == "bomb" else [])
        if needs:
            self._wait_choice(game, player, item, needs)
            return
        self._act(game, player, item, None)

    def _check_item(self, game: Game, code: Any, word: Any, fired: Any) -> tuple[Card | None, str | None]:
        """Everything `item` needs, checked before anything changes; returns the card and item reported."""
        cards, turned = game.cards, game.extra.get("turned")
        if cards.dealt and (code is not None or word is not None):
            raise RuleError("bad_item", "dealt mode: the engine turns the card and knows its item; leave "
                            "card and item out")
        if (code is None) != (word is None):
            raise RuleError("bad_item", 'report the item card with both card and item, e.g. "card":"G5",'
                            '"item":"banana"')
        if not isinstance(fired, int) or isinstance(fired, bool) or fired < 0 or fired > 1:
            raise RuleError("bad_fired", f"an Item Wild turns up one card: fired 1 (or 0), not {fired!r}")
        if turned:
            if fired:
                raise RuleError("bad_fired", "the item card is already out: report it with card and item, "
                                "fired 0")
            if code is None:
                raise RuleError("bad_item", 'the item card is out: say which it is, e.g. "card":"G5",'
                                '"item":"banana"')
        elif fired == 0:
            if code is not None:
                raise RuleError("bad_item", "the item card has not come out yet: fire it first (send item "
                                "without card and item), then report it")
            if cards.launcher or cards.pile > 1:
                raise RuleError("bad_fired", "the item card must come out of the launcher: fire 1 (reload "
                                "first if the launcher is empty)")
        elif cards.dealt and cards.launcher == 0:
            raise RuleError("bad_fired", "the launcher is empty: reload it, then fire the item card")
        if code is None:
            return None, None
        try:
            card = self.parse_card(code)
        except CardError as exc:
            raise RuleError("bad_card", str(exc)) from exc
        item = ITEM_WORDS.get(word.strip().lower()) if isinstance(word, str) else None
        if item is None:
            raise RuleError("bad_item", f"unknown item {word!r}: use mushroom, banana, green_shell, "
                            "lightning or bomb")
        return card, item

    @staticmethod
    def _wait_choice(game: Game, player: str, item: str | None, needs: list[str]) -> None:
        what = {"green_shell": "green shell: name who draws 1 (MK-I4)",
                "bomb": "bomb: name the colour (MK-I6)",
                None: "no card to turn: name the colour"}.get(item, "a wild item card: name the colour (D21)")
        game.pending = {"cmd": "choose", "player": player, "why": what, "item": item, "needs": needs}

    def _choose(self, game: Game, fields: dict[str, Any]) -> None:
        """The choice the item needs: the green shell's victim, the colour (a wild item card, a bomb)."""
        player, target, color = fields["player"], fields.get("target"), fields.get("color")
        pending = pending_for(game, "choose", player)
        needs = pending["needs"]
        if "target" in needs:
            if target is None:
                raise RuleError("missing_target", 'the green shell hits another player: name them, e.g. '
                                '"target":"Cy"')
            game.seat_of(target)
            if target == player:
                raise RuleError("bad_target", "the green shell hits another player, not its own: name one")
        elif target is not None:
            raise RuleError("bad_target", f"{pending['why']}: no target is chosen, leave it out")
        letter = game.color
        if "color" in needs:
            if color is None:
                raise RuleError("missing_color", f"{pending['why']}: name the colour, e.g. \"color\":\"red\"")
            try:
                letter = self.parse_color(color)
            except CardError as exc:
                raise RuleError("bad_color", str(exc)) from exc
        elif color is not None:
            raise RuleError("unexpected_color", f"{game.top.code if game.top else 'the card'} is not wild: "
                            "the colour stands; leave color out")
        game.color = letter
        self._act(game, player, pending["item"], target)

    @staticmethod
    def _act(game: Game, player: str, item: str | None, target: str | None) -> None:
        """The item acts (MK-I2-MK-I7); after banana, green shell or bomb (or none) the next player plays."""
        order = game.order
        seat = order.index[player]
        game.pending = None
        order.set_turn(order.seat_after(seat))
        if item == "mushroom":  # MK-I2: another turn
            order.set_turn(seat)
        elif item == "banana":  # MK-I3 (D22): the seat before, in the direction of play, had or lost a turn
            order.owe(order.seat_after(seat, -1), BANANA)
        elif item == "green_shell":  # MK-I4
            order.owe(order.index[target], SHELL)  # type: ignore[index]
        elif item == "lightning":  # MK-I5: the others from the next on, then another turn
            for step in range(1, order.seats):
                order.owe(order.seat_after(seat, step), 1)
            order.set_turn(seat)
        elif item == "bomb":  # MK-I6; MK-I7: a last card's player who draws has not gone out
            order.owe(seat, BOMB)
            if game.went_out == player:
                game.went_out = None
        game.end_hand_if_out()  # MK-I7: once its draws are done


def pending_for(game: Game, cmd: str, player: str) -> dict[str, Any]:
    """The pending choice `cmd` of `player`, or the refusal saying what is due instead."""
    pending = game.pending
    if pending is None:
        raise RuleError("no_item_due", f"{player} has no Item Wild waiting for {cmd}: play one first")
    if pending["player"] == player and pending["cmd"] == cmd:
        return pending
    raise RuleError("pending_choice", f"{pending['player']} must first send {pending['cmd']} "
                    f"({pending['why']}), before any {cmd}")


RULES = MarioKartRules()
