"""A bot that picks uniformly among its legal plays and pressing: the baseline, and the benchmark's player."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from unox.bots.base import Bot

if TYPE_CHECKING:
    from unox.rules.game import Game
    from unox.rules.plays import Play


class RandomBot(Bot):
    """A uniformly random legal card when one goes, a press (or draw) only when none does (T2): the policy
    of RLCard's random agent, whose "draw" is legal only then, so hands last as long as people play them.
    Forgets UNO and misses catches half the time.

    `press_chance`: the chance of pressing anyway when a card goes (T3); 0.0 by default. Pressing as one more
    uniform option made hands of thousands of turns, as every press grows the hand.
    """

    name = "random"

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        press_chance: float = 0.0,
        uno_chance: float = 0.5,
        catch_chance: float = 0.5,
    ):
        super().__init__(rng)
        self.press_chance = press_chance
        self.uno_chance = uno_chance
        self.catch_chance = catch_chance

    def choose(self, game: Game, player: str, *, may_press: bool = True) -> Play | None:
        plays = game.legal_plays(player)
        if not plays:
            return None
        # int(random() * n) rather than randrange: a third of the cost, and the bias is below 2 ** -40
        rng = self.rng
        if may_press and self.press_chance and rng.random() < self.press_chance:
            return None
        return plays[int(rng.random() * len(plays))]

    def choose_color(self, game: Game, player: str) -> str:
        return self.rng.choice(game.rules.color_words)

    def choose_target(self, game: Game, player: str) -> str:
        return self.rng.choice([p for p in game.state()["players"] if p != player])

    def choose_share(self, game: Game, player: str) -> str | None:
        """CC-A2: any other player, or dealing out (None), with equal chances."""
        others = [p for p in game.state()["players"] if p != player]
        pick = int(self.rng.random() * (len(others) + 1))
        return others[pick] if pick < len(others) else None

    def calls_uno(self, game: Game, player: str) -> bool:
        return self.rng.random() < self.uno_chance

    def catches(self, game: Game, player: str, victim: str) -> bool:
        return self.rng.random() < self.catch_chance

    def challenges(self, game: Game, player: str) -> bool:
        """C-A7: a coin toss."""
        return self.rng.random() < 0.5
