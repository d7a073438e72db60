"""A play: checking one before anything changes, and listing the legal ones (dealt mode).

`Play` is a NamedTuple in the order of `Game.play`'s arguments, so `game.play(player, *play)` plays it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from unox.rules.cards import Card, CardError
from unox.rules.errors import RuleError
from unox.rules.ruleset import Play
from unox.rules.words import counted

if TYPE_CHECKING:
    from unox.rules.ruleset import Ruleset
    from unox.rules.tracking import DealtCards, PhysicalCards
    from unox.rules.turns import TurnOrder


class Game(Protocol):
    """What checking a play reads of the game (`unox.rules.game.Game`), so this module does not import it."""

    stage: str
    rules: Ruleset
    cards: DealtCards | PhysicalCards
    order: TurnOrder
    top: Card | None
    color: str | None
    pending: dict[str, Any] | None
    _drawn: str | None
    _drawn_card: Card | None

    def seat_of(self, player: str) -> int: ...

__all__ = ["Play", "legal_plays", "resolve_play"]


def resolve_play(
    game: Game, player: str, code: str | Card, color: str | None, target: str | None, count: int | None
) -> tuple[Card, str | None, int | None, int]:
    """Checks a play by the player whose turn it is; raises RuleError and changes nothing when refused.

    Returns (card, the colour in force afterwards, the Trade Hands partner's seat, other Discard All cards).
    """
    rules = game.rules
    card = rules.cards.get(code) if type(code) is str else None
    if card is None:
        try:
            card = rules.parse_card(code)
        except CardError as exc:
            raise RuleError("bad_card", str(exc)) from exc
    cards = game.cards
    if cards.dealt and card not in cards.hands[player]:
        raise RuleError("not_in_hand", f"{player} does not hold {card.code}: play a card from your hand")
    top, in_force = game.top, game.color
    assert top is not None and in_force is not None
    if not rules.playable(card, top, in_force):
        verb = "draw" if rules.draws else "press the launcher"
        raise RuleError(
            "illegal_card",
            f"{card.code} cannot go on {top.code} with {rules.color_names[in_force]} in force: play a card "
            f"of that colour, the same number or symbol, or a wild, or {verb}",
        )
    size = cards.hand_size(player)
    refusal = rules.refusal(card, size)
    if refusal is not None:
        raise RuleError(*refusal)
    if color is None and target is None and count is None and card.color is not None \
            and card.kind not in rules.option_kinds:
        return card, card.color, None, 0  # the common case: a coloured card with no options
    return (
        card,
        _resolve_color(game, card, color),
        _resolve_target(game, player, card, target),
        _resolve_count(game, player, card, count, size),
    )


def _resolve_color(game: Game, card: Card, color: str | None) -> str | None:
    rules = game.rules
    if card.kind in rules.colorless_kinds:
        if color is not None:
            raise RuleError("unexpected_color",
                            f"{card.code} names no colour when played: play it without one")
        return None
    if card.color is None:
        if color is None:
            words = "/".join(rules.color_words)
            raise RuleError("missing_color", f"{card.code} is wild: name the colour ({words})")
        try:
            return rules.parse_color(color)
        except CardError as exc:
            raise RuleError("bad_color", str(exc)) from exc
    if color is not None:
        try:
            same = rules.parse_color(color) == card.color
        except CardError as exc:
            raise RuleError("bad_color", str(exc)) from exc
        if not same:
            raise RuleError("unexpected_color", f"{card.code} is not wild: play it without naming a colour")
    return card.color


def _resolve_target(game: Game, player: str, card: Card, target: str | None) -> int | None:
    if card.kind not in game.rules.target_kinds:
        if target is not None:
            what = "only Trade Hands takes" if game.rules.target_kinds else f"{card.code} takes no"
            raise RuleError("bad_target", f"{what} a target: play {card.code} without one")
        return None
    if target is None:
        raise RuleError("missing_target", f"{card.code} is Trade Hands: name the player to swap hands with")
    seat = game.seat_of(target)
    if target == player:
        raise RuleError("bad_target", "you cannot trade hands with yourself: name another player")
    return seat


def _resolve_count(game: Game, player: str, card: Card, count: int | None, size: int) -> int:
    if card.kind not in game.rules.count_kinds:
        if count not in (None, 0):
            what = "only Discard All takes" if game.rules.count_kinds else f"{card.code} takes no"
            raise RuleError("bad_count", f"{what} a count: play {card.code} without one")
        return 0
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 0):
        raise RuleError("bad_count", "count is how many other cards of that colour went down: a number >= 0")
    rules = game.rules
    if game.cards.dealt:
        held = game.cards.color_count(player, card.color) - 1
        if count is not None and count != held:
            name = rules.color_name(card.color)
            raise RuleError("bad_count", f"{player} holds {counted(held, f'other {name} card')} (A4): "
                            f"all of them go down, so give count {held} or leave it out")
        return held
    count = count or 0
    if count > size - 1:
        raise RuleError("bad_count", f"{player} holds only {counted(size, 'card')}: the count of other "
                        f"{rules.color_name(card.color)} cards can be at most {size - 1}")
    return count


def legal_plays(game: Game, player: str) -> list[Play]:
    """Dealt mode: every distinct legal play for `player` now (empty unless it is their turn to play).

    The match is T1 inlined (wild, colour in force, or same face): this is the hot spot of every simulation.
    `test_legal_plays_are_exactly_the_plays_the_engine_accepts` keeps it equal to the check `play` makes.
    """
    order = game.order
    if game.stage != "turn" or order.owed or order.players[order.turn] != player:
        return []
    hand = game.cards.hands[player]
    color, face = game.color, game.top.face
    rules = game.rules
    if game._drawn is not None or game.pending is not None:
        return _plays_after_draw(game, player)
    matching = [c for c in hand if c.color is None or c.color == color or c.face == face]
    plays: list[Play] = []
    table, special = rules.plays_by_card, rules.option_kinds
    for card in dict.fromkeys(matching):  # distinct cards, in hand order
        if card.kind not in special:
            plays += table[card]
        elif rules.refusal(card, len(hand)) is not None:
            continue
        elif card.kind == "trade":
            plays.extend(Play(card.code, None, p) for p in order.players if p != player)
        else:
            plays.append(Play(card.code, None, None, sum(1 for c in hand if c.color == card.color) - 1))
    return plays


def _plays_after_draw(game: Game, player: str) -> list[Play]:
    """C-T2: after the turn's draw, only the card drawn, if it goes; nothing while a choice is pending."""
    card = game._drawn_card
    if game.pending is not None or card is None or game._drawn != player:
        return []
    if not game.rules.playable(card, game.top, game.color):  # type: ignore[arg-type]
        return []
    return list(game.rules.plays_by_card[card])
