"""What a bot decides at a dealt-mode table, and the defaults every bot shares.

A bot never changes the game itself: it answers questions and the simulation (or a table) makes the calls,
so a bot cannot cheat past the rules engine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from unox.rules.cards import COLOR_NAMES, COLORS

if TYPE_CHECKING:
    from unox.rules.cards import Card
    from unox.rules.game import Game
    from unox.rules.plays import Play

COLOR_WORDS = tuple(COLOR_NAMES[c] for c in COLORS)
CHALLENGE_HAND = 5  # a Wild Draw Four played from this many cards or more is challenged


class Bot:
    """A player's decisions: which play (None = press, T2/T3), colours, targets, UNO and catches."""

    name = "bot"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng if rng is not None else random.Random()

    def choose(self, game: Game, player: str, *, may_press: bool = True) -> Play | None:
        """A legal play from `game.legal_plays(player)`, or None to press instead (only if `may_press`)."""
        raise NotImplementedError

    def choose_color(self, game: Game, player: str) -> str:
        """The colour to name for a wild (also for a wild turned up first, S4): the colour held most."""
        rules = game.rules
        return most_held_color(game.hand(player), self.rng, rules.colors, rules.color_names)

    def choose_target(self, game: Game, player: str) -> str:
        """Whom to swap hands with (Trade Hands, A5): the other player holding the fewest cards."""
        return fewest_cards(game.state(), player)

    def answer(self, game: Game, player: str, pending: Mapping[str, Any]) -> dict[str, Any]:
        """The fields of the request an edition's special card waits for (`game.pending`): one per name in
        its `needs` (a `target` player, a `color`); a Casting Call turn (CC-A1) needs none, its share
        (CC-A2) is asked of `choose_share` by the edition. `fired` is left out: whoever sends it fires what
        the edition says is due (`fire_due`)."""
        fields: dict[str, Any] = {}
        for name in pending.get("needs", ()):
            if name == "target":
                fields["target"] = self.choose_target(game, player)
            elif name == "color":
                fields["color"] = self.choose_color(game, player)
        return fields

    def calls_uno(self, game: Game, player: str) -> bool:
        """Whether to call UNO when playing the second-to-last card (U1)."""
        return True

    def catches(self, game: Game, player: str, victim: str) -> bool:
        """Whether `player` catches `victim`, who did not call UNO (U2)."""
        return True

    def challenges(self, game: Game, player: str) -> bool:
        """Whether the victim of a Wild Draw Four challenges it (C-A7): when its player holds many cards,
        so a guilty one is likely; a wrong challenge costs 2 more."""
        culprit = game.challenged_player
        return culprit is not None and game.cards.hand_size(culprit) >= CHALLENGE_HAND

    def choose_share(self, game: Game, player: str) -> str | None:
        """Casting Call (CC-A2): the opponent who gets every turned card (the leader), or None to deal
        them out when the leader is a partner."""
        state = game.state()
        partners = {p for pair in state.get("teams") or () if player in pair for p in pair}
        players = state["players"]
        seat = players.index(player)
        around = [players[(seat + i) % len(players)] for i in range(1, len(players))]
        opponents = [p for p in around if p not in partners]
        if not opponents:
            return None
        hands = state["hands"]
        return min(opponents, key=lambda p: hands[p])  # the nearest seat on a tie

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def most_held_color(
    cards: Iterable[Card], rng: random.Random, colors: Sequence[str] = COLORS,
    names: Mapping[str, str] = COLOR_NAMES,
) -> str:
    """The colour word of the colour most held (the first of the edition's colours on a tie); any colour
    if none. Default colours R, Y, G, B."""
    held = Counter(c.color for c in cards if c.color is not None)
    if not held:
        return rng.choice([names[c] for c in colors])
    best = max(held.values())
    return names[next(c for c in colors if held[c] == best)]


def fewest_cards(state: dict, player: str) -> str:
    """The leader as seen by `player`: the other player with the fewest cards, the nearest seat on a tie."""
    players = state["players"]
    hands = state["hands"]
    seat = players.index(player)
    others = [players[(seat + i) % len(players)] for i in range(1, len(players))]
    return min(others, key=lambda p: hands[p])


def next_player(state: dict, player: str) -> str:
    """The player after `player` in the direction of play."""
    players = state["players"]
    step = 1 if state["direction"] == "left" else -1
    return players[(players.index(player) + step) % len(players)]
