"""Bots for dealt-mode games: `random` (the baseline) and `heuristic` (plays to go out)."""

from __future__ import annotations

import random

from unox.bots.base import Bot
from unox.bots.heuristic import HeuristicBot
from unox.bots.random_bot import RandomBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}
BOT_NAMES = tuple(BOTS)

__all__ = ["BOTS", "BOT_NAMES", "Bot", "HeuristicBot", "RandomBot", "make_bot"]


def make_bot(name: str, rng: random.Random | None = None) -> Bot:
    """A bot by name; ValueError listing the names for an unknown one."""
    try:
        return BOTS[name](rng)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; use one of {', '.join(BOT_NAMES)}") from None
