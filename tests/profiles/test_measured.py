"""The `measured` profile against the real unit of docs/rules.md, "The launcher as players know it".

The expected figures are typed in from the table in docs/rules.md, not taken from the code.
"""

import json
import random

import pytest
from unox.cli.main import main
from unox.profiles import get_profile

# RULES: presses since the last firing -> (share of firings, mean cards in that firing)
RULES_TABLE = {1: (0.1796, 4.66), 2: (0.4087, 5.39), 3: (0.2415, 4.72), 4: (0.0929, 5.07), 5: (0.0774, 7.20)}




def _cli_stats(capsys, name, presses, seed):
    assert main(["profile", name, "--presses", str(presses), "--seed", str(seed), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_measured_gap_shares_within_one_point_of_the_real_unit(capsys):
    stats = _cli_stats(capsys, "measured", 100_000, 11)
    for gap, (share, _) in RULES_TABLE.items():
        assert abs(stats["fire_gaps"][str(gap)] - share) < 0.01, (gap, stats["fire_gaps"])


def test_measured_never_more_than_five_presses_without_firing(capsys):
    stats = _cli_stats(capsys, "measured", 100_000, 12)
    assert stats["longest_gap"] == 5
    assert set(stats["fire_gaps"]) == {"1", "2", "3", "4", "5"}
    assert sum(stats["fire_gaps"].values()) == pytest.approx(1.0)


def test_measured_cards_per_firing_1_to_13_with_mean_about_5(capsys):
    stats = _cli_stats(capsys, "measured", 100_000, 13)
    assert 4.7 <= stats["cards_per_fire_mean"] <= 5.4
    assert stats["cards_per_fire_min"] >= 1
    assert stats["cards_per_fire_max"] <= 13


def test_measured_mean_cards_per_gap_close_to_the_table(capsys):
    stats = _cli_stats(capsys, "measured", 100_000, 14)
    for gap, (_, mean) in RULES_TABLE.items():
        assert abs(stats["cards_by_gap_mean"][str(gap)] - mean) < 0.3, (gap, stats["cards_by_gap_mean"])


def test_measured_about_40_percent_of_presses_fire_about_2_cards_a_press(capsys):
    stats = _cli_stats(capsys, "measured", 100_000, 15)
    mean_gap = sum(gap * share for gap, (share, _) in RULES_TABLE.items())
    assert stats["fire_rate"] == pytest.approx(1 / mean_gap, abs=0.01)
    assert stats["cards_per_press_mean"] == pytest.approx(stats["fire_rate"] * stats["cards_per_fire_mean"])
    assert 1.8 <= stats["cards_per_press_mean"] <= 2.4


def test_measured_is_the_default_profile():
    assert get_profile(rng=random.Random(1)).name == "measured"
