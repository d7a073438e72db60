"""A bot that plays to go out: sheds its highest points, keeps wilds for when nothing else goes, and aims
Hit cards, Skips, Reverses and Trade Hands at the leader (the player holding the fewest cards). It always
calls UNO and always catches a player who forgot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from unox.bots.base import Bot, fewest_cards, most_held_color, next_player
from unox.rules.cards import parse_card

if TYPE_CHECKING:
    from unox.rules.game import Game
    from unox.rules.plays import Play

# How much a card is worth playing beyond the points it sheds.
WILD_PENALTY = 60  # a wild is kept unless it is the only play, or it hits a leader about to go out
ATTACK_BONUS = 25  # Hit 2 / Skip / Reverse on a next player who leads; a Hit wild on a leader about to go out
DANGER_CARDS = 2  # a leader with this many cards or fewer is worth spending a wild on
PRESS_CARDS = 2  # about what one press brings (RULES: about 2 cards per press)
ATTACK_KINDS = frozenset({"hit2", "draw2", "skip", "reverse"})
NEXT_HIT_WILDS = frozenset({"wild_hit_fire", "wild_draw4"})  # wilds that hit the next player
ANY_HIT_WILDS = frozenset({"wild_all_hit", "casting_call"})  # wilds that hit the leader wherever they sit


class HeuristicBot(Bot):
    """Greedy, one move deep: picks the play with the best score (see `score`); presses only when stuck."""

    name = "heuristic"
    _parse = staticmethod(parse_card)  # the edition's parse_card, set by `choose` (default Extreme's)

    def choose(self, game: Game, player: str, *, may_press: bool = True) -> Play | None:
        plays = game.legal_plays(player)
        if not plays:
            return None
        state = game.state()
        hand = game.hand(player)
        self._parse = game.rules.parse_card
        plays = self._without_bluffs(game, plays, hand)
        leader = fewest_cards(state, player)
        context = (state["hands"], leader, next_player(state, player), len(hand))
        # dict, not set: a set of strings iterates in a per-process order, and ties must break the same way
        best = max(dict.fromkeys(p.card for p in plays), key=lambda code: self.score(code, hand, context))
        too_many = state["hands"][leader] > len(hand) + PRESS_CARDS
        if may_press and too_many and self._parse(best).kind == "trade":
            return None  # trading would leave more cards than a press brings on average
        return self._complete(game, player, best, plays, leader)

    def score(self, code: str, hand: list, context: tuple) -> float:
        """Points shed, plus a bonus for hurting the leader, minus a penalty for spending a wild early.

        Trade Hands scores by the cards it sheds: worth it when the leader holds at least 2 fewer cards
        than we do, else played only when nothing else goes.
        """
        hands, leader, nxt, size = context
        card = self._parse(code)
        if size == 1:
            return 1000.0  # the last card: go out
        kind = card.kind
        if kind == "trade":
            gain = size - hands[leader]
            return 30.0 + 10 * gain if gain >= 2 else -100.0 + gain
        points = float(card.points)
        if kind == "discard_all":
            points = float(sum(c.points for c in hand if c.color == card.color))
        if kind == "beachcomber":  # Barbie (BA-A1): it gives away the best card of each colour besides
            return points + gift_value(hand)
        if card.color is None:  # a wild is spent early only to stop a leader about to go out
            hits_leader = kind in ANY_HIT_WILDS or (kind in NEXT_HIT_WILDS and nxt == leader)
            in_danger = hits_leader and hands[leader] <= DANGER_CARDS
            return points + ATTACK_BONUS if in_danger else points - WILD_PENALTY
        if kind in ATTACK_KINDS and nxt == leader:
            points += ATTACK_BONUS
        return points

    def _complete(self, game: Game, player: str, code: str, plays: list[Play], leader: str) -> Play:
        """The Play for the chosen card, with the colour held most and the leader as the trade target."""
        options = [p for p in plays if p.card == code]
        if options[0].color is not None:
            color = self._color_after(game, player, code)
            return next((p for p in options if p.color == color), options[0])
        if options[0].target is not None:
            return next((p for p in options if p.target == leader), options[0])
        return options[0]

    def _color_after(self, game: Game, player: str, code: str) -> str:
        """The colour held most among the cards left after playing `code`."""
        hand = game.hand(player)
        hand.remove(game.rules.parse_card(code))
        rules = game.rules
        return most_held_color(hand, self.rng, rules.colors, rules.color_names)

    def _without_bluffs(self, game: Game, plays: list[Play], hand: list) -> list[Play]:
        """C-A6: no Wild Draw Four while holding the colour in force, unless nothing else goes."""
        rules = game.rules
        if not rules.challengeable:
            return plays
        honest = [p for p in plays if rules.parse_card(p.card).kind not in rules.challengeable
                  or not rules.challenge_guilty(hand, rules.parse_card(p.card), game.color)]
        return honest or plays


GIFT_CARD_BONUS = 10  # a card given away with a Beachcomber is a card nearer to going out


def gift_value(hand: list) -> float:
    """What a Beachcomber's gift sheds: the highest card of each colour held, plus a bonus per card."""
    best: dict[str, int] = {}
    for card in hand:
        if card.color is not None:
            best[card.color] = max(best.get(card.color, 0), card.points)
    return float(sum(best.values()) + GIFT_CARD_BONUS * len(best)) - WILD_PENALTY
