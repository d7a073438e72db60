"""Every edition's game ends, for 2 to 10 players, whatever the seed and the bots (dealt mode, bots on both
sides of every rule: Wild Draw Four legality, challenges, draws and passes). A new edition module is covered
as soon as it exists: the editions come from `rule_names()`."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from unox.rules.editions import rule_names
from unox.simulation import play_game, seat_bots

EDITIONS = rule_names()


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(2, 10),
    rules=st.sampled_from(EDITIONS),
    bot=st.sampled_from(["heuristic", "mix"]),
    scoring=st.sampled_from(["g1", "g2", "g3"]),
)
def test_every_editions_game_ends_with_one_winner(seed, players, rules, bot, scoring):
    record = play_game(seed, seat_bots(bot, players, seed % 2), ruleset=rules, scoring=scoring, target=200)
    assert 1 <= record.winner_seat <= players
    assert record.hands >= 1 and record.turns > 0


@settings(max_examples=12)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 10), rules=st.sampled_from(EDITIONS))
def test_every_editions_game_of_uniform_random_bots_ends(seed, players, rules):
    record = play_game(seed, ["random"] * players, ruleset=rules, target=100)
    assert 1 <= record.winner_seat <= players


def test_DL1_in_simulation_every_draw_is_exactly_what_is_due_and_no_card_is_lost():
    """Each draw gives what the rules make due whenever the launcher and the pile hold that many."""
    import random

    from unox.bots import make_bot
    from unox.profiles import get_profile
    from unox.rules.game import Game
    from unox.simulation import GameRecord, Match

    names = ["P1", "P2", "P3", "P4"]
    game = Game(names, mode="dealt", rng=random.Random(3), ruleset="classic", target=100)
    bots = {n: make_bot("heuristic", random.Random(i)) for i, n in enumerate(names)}
    draws = []
    real_draw = game.draw

    def draw(player, fired):
        due, there = game.draw_due(player), game.launcher_cards + max(0, game.cards.pile - 1)
        real_draw(player, fired)
        draws.append((due, fired, there))
        held = sum(len(h) for h in game.cards.hands.values())
        assert held + game.cards.launcher + game.cards.pile == 108

    game.draw = draw
    Match(game, bots, get_profile("measured", rng=random.Random(1)), GameRecord(0, ["heuristic"] * 4)).run()
    assert len(draws) > 20
    assert all(fired == due for due, fired, there in draws if there >= due)
    assert all(fired <= due for due, fired, _ in draws)


def test_unox_sim_rules_classic_reports_the_usual_statistics():
    out = subprocess.run(
        [sys.executable, "-m", "unox", "sim", "--rules", "classic", "--games", "3", "--players", "3",
         "--bot", "heuristic", "--seed", "1", "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    import json

    summary = json.loads(out)
    assert summary["rules"] == "classic" and summary["games"] == 3 and summary["hands"] >= 3
    assert sum(summary["wins_by_seat"].values()) == 3


@settings(max_examples=20)
@given(seed=st.integers(0, 2**64 - 1), rules=st.sampled_from(EDITIONS), data=st.data())
def test_every_editions_variants_end(seed, rules, data):
    from unox.rules.editions import get_rules

    variant = data.draw(st.sampled_from(get_rules(rules).variants))
    players = {"two-player": 2, "rotation": 4, "partners": data.draw(st.sampled_from([4, 6, 8, 10]))}.get(
        variant, data.draw(st.integers(2, 10)))
    record = play_game(seed, ["heuristic"] * players, ruleset=rules, variant=variant, target=200)
    assert 1 <= record.winner_seat <= players
