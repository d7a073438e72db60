"""The Extreme ruleset's old address: it lives in `unox.rules.editions.extreme` with the other editions."""

from unox.rules.editions.extreme import EXTREME, ExtremeRules, extreme_deck, playable
from unox.rules.ruleset import TableOps

__all__ = ["EXTREME", "ExtremeRules", "TableOps", "extreme_deck", "playable"]
