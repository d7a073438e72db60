"""Random bots play hands of the length people play (issue 13, item 17): a uniformly random legal card when
one goes, a press or a draw only when none does (T2, RLCard's random policy).

Pressing as one more uniform option made hands of thousands of turns (Extreme 12,207 a hand, classic 1,587,
Mario Kart about 2,000), since every press grows the hand it was meant to empty. The bound: RLCard's random
agents take 49 turns a classic hand at 4 players; a mean of 5 times that (245) still leaves room for each
edition's extra cards (Hit 4, Wild Hit All, Mario Kart's items, UNO catches and C-A7 challenges) and is ten
times under what the old policy played.
"""

from __future__ import annotations

import pytest
from unox.rules.editions import rule_names
from unox.simulation import simulate

RLCARD_RANDOM_TURNS = 49  # a classic hand of RLCard's random agents at 4 players
BOUND = 5 * RLCARD_RANDOM_TURNS
MIN_HANDS = 30


@pytest.mark.parametrize("edition", rule_names())
def test_T2_random_bots_hands_end_in_a_human_length(edition):
    games, summary = 0, None
    while summary is None or summary["hands"] < MIN_HANDS:  # Mario Kart's games are one hand each
        games += 10
        summary = simulate(games, 4, bot="random", seed=13, ruleset=edition)
    assert summary["turns_per_hand_mean"] < BOUND, (edition, summary["hands"], summary["turns_per_hand_mean"])

