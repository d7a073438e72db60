"""Simulated dealt-mode games: repeatable by seed, tallies that add up, the launcher model (R1/R2)."""

import json
import os
import random
import subprocess
import sys

import pytest
from unox.bots import HeuristicBot
from unox.profiles import get_profile
from unox.rules.game import Game
from unox.simulation import BOT_CHOICES, GameRecord, Match, play_game, seat_bots, simulate

ALWAYS_13 = {"fast": {"fire_hazard": [1.0], "cards": {"min": 13, "max": 13, "means": 13}}}


def test_same_seed_same_result():
    first = simulate(4, 3, bot="mix", seed=21)
    assert simulate(4, 3, bot="mix", seed=21) == first
    assert simulate(4, 3, bot="mix", seed=22) != first


def test_same_seed_same_result_across_processes_and_hash_seeds():
    outputs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        argv = [sys.executable, "-m", "unox", "sim", "--games", "2", "--players", "3", "--bot", "mix",
                "--seed", "5", "--json"]
        outputs.add(subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout)
    assert len(outputs) == 1


def test_tallies_add_up():
    records: list[GameRecord] = []
    summary = simulate(6, 4, bot="mix", seed=3, on_game=records.append)
    assert len(records) == summary["games"] == 6
    assert sum(summary["wins_by_seat"].values()) == 6
    assert sum(summary["wins_by_bot"].values()) == 6
    assert summary["seats_by_bot"] == {"heuristic": 12, "random": 12}
    assert summary["hands"] == sum(r.hands for r in records) >= 6
    assert summary["cards_fired"] == sum(r.cards_fired for r in records)
    presses = sum(r.presses for r in records)
    assert summary["presses_per_hand_mean"] == pytest.approx(presses / summary["hands"])
    for record in records:
        assert record.turns >= record.plays and record.presses >= record.turns - record.plays
        assert record.actions >= record.plays + record.presses


def test_G1_winner_reached_the_target_and_game_options_pass_through(monkeypatch):
    import unox.simulation

    games: list[Game] = []

    class Watched(Game):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            games.append(self)

    monkeypatch.setattr(unox.simulation, "Game", Watched)
    record = play_game(8, ["heuristic"] * 3, target=120)
    (game,) = games
    assert game.target == 120 and game.phase == "game_over"
    assert record.winner == f"P{record.winner_seat}" == game.winner
    scores = game.state()["scores"]
    assert scores[record.winner] >= 120  # G1: the first to reach the target wins
    assert all(points < 120 for name, points in scores.items() if name != record.winner)
    summary = simulate(2, 3, bot="heuristic", seed=8, scoring="g2", target=150)
    assert (summary["scoring"], summary["target"]) == ("g2", 150)


def test_U1_heuristic_bots_always_call_uno_so_nobody_is_caught():
    assert simulate(5, 4, bot="heuristic", seed=4)["catches"] == 0


def test_U2_players_who_forget_uno_get_caught():
    assert simulate(5, 4, bot="mix", seed=4)["catches"] > 0


def test_heuristic_beats_random():
    summary = simulate(20, 4, bot="mix", seed=9)
    assert summary["wins_by_bot"]["heuristic"] >= 15


def test_R1_R2_launcher_is_reloaded_only_when_the_profile_wants_more_than_it_holds():
    game = Game(["A", "B", "C", "D", "E", "F"], mode="dealt", rng=random.Random(3))
    held_at_reload = []
    reload = game.reload

    def spy() -> None:
        held = game.launcher_cards
        reload()  # raises nothing_to_reload when the pile holds only its top card
        held_at_reload.append(held)

    game.reload = spy
    bots = {p: HeuristicBot(random.Random(i)) for i, p in enumerate(game.players)}
    profile = get_profile("fast", rng=random.Random(3), config={"profiles": ALWAYS_13})
    record = Match(game, bots, profile, GameRecord(3, ["heuristic"] * 6)).run()
    assert record.reloads == len(held_at_reload) > 0
    assert all(held < 13 for held in held_at_reload)
    assert game.phase == "game_over"


def test_mix_alternates_bots_and_moves_them_a_seat_every_game():
    assert seat_bots("mix", 3, 0) == ["random", "heuristic", "random"]
    assert seat_bots("mix", 3, 1) == ["heuristic", "random", "heuristic"]
    assert seat_bots("heuristic", 2, 5) == ["heuristic", "heuristic"]
    with pytest.raises(ValueError, match="use one of random, heuristic, mix"):
        seat_bots("smart", 2, 0)
    assert BOT_CHOICES == ("random", "heuristic", "mix")


def test_no_seed_draws_one_and_reports_it_so_the_run_can_be_repeated():
    summary = simulate(1, 2, bot="heuristic")
    assert simulate(1, 2, bot="heuristic", seed=summary["seed"]) == summary


def test_json_summary_from_the_command(capsys):
    from unox.cli.main import main

    assert main(["sim", "--games", "3", "--players", "5", "--bot", "heuristic", "--seed", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert summary == simulate(3, 5, bot="heuristic", seed=2)
    assert err == ""
