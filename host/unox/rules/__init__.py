"""The rules of play, pure: no I/O. Events go in (deal, flip, play, press ...); state comes out."""

from unox.rules.cards import COLOR_NAMES, Card, CardError, parse_card, parse_color
from unox.rules.errors import RuleError
from unox.rules.game import Game
from unox.rules.ruleset import Play

__all__ = ["COLOR_NAMES", "Card", "CardError", "Game", "Play", "RuleError", "parse_card", "parse_color"]
