"""Issue 13, item 16: `unox sim` plays on a fast core wherever one plays the rules exactly (random bots, G1,
no variant: classic, and Extreme with its presses and the eject profile), and that is the game
`bench/engine.py` times. The cores' calls are the ones `Game` accepts: every game `unox sim` plays here is
replayed on `Game`, call by call, to the same end."""

from __future__ import annotations

import random

import pytest
from unox.rules import fastcore, fastextreme
from unox.rules.editions import get_rules
from unox.rules.game import Game
from unox.simulation import simulate

from tests.editions.test_fastcore import Logged
from tests.editions.test_fastextreme import Logged as LoggedExtreme
from tests.editions.test_fastextreme import replay as replay_extreme

CLASSIC = get_rules("classic")


def replay(core: Logged, seed: int) -> Game:
    """Every call the core logged, made on `Game` (C-T1-C-T4, C-A1-C-A7, C-U1-C-U3, C-R1, C-G1)."""
    names = [f"P{s + 1}" for s in range(core.n)]
    rng = random.Random(seed)
    game = Game(names, mode="dealt", rng=random.Random(rng.getrandbits(64)), ruleset="classic",
                target=core.target)
    words = CLASSIC.color_words
    for name, *args in core.log:
        if name == "deal":
            game.deal()
        elif name == "flip":
            game.flip(None, words[args[0]])
        elif name == "play":
            seat, card, color = args
            code = core.codes[card]
            game.play(names[seat], code, words[color] if code.startswith("W") else None)
        elif name == "draw":
            game.draw(names[args[0]], args[1])
        elif name == "pass_turn":
            game.pass_turn(names[args[0]])
        elif name == "challenge_now":
            game.challenge(game.challenge_open)
        elif name == "uno":
            game.uno(names[args[0]])
        elif name == "catch":
            game.catch(names[args[0]], next(p for p in names if p != names[args[0]]))
        elif name == "reload":
            game.reload()
    return game


@pytest.fixture
def on_the_core(monkeypatch):
    """Every game the simulation plays on the fast classic core, logged and dealt as `Game` deals."""
    played = []
    real = fastcore.play_random_game

    def logged(rules, players, seed, target=500, **options):
        options.update(core=Logged, same_shuffle=True)
        core = real(rules, players, seed, target, **options)
        played.append((core, seed))
        return core

    monkeypatch.setattr(fastcore, "play_random_game", logged)
    return played


@pytest.fixture
def on_the_extreme_core(monkeypatch):
    """Every game the simulation plays on the fast Extreme core, logged and dealt as `Game` deals."""
    played = []
    real = fastextreme.play_random_game

    def logged(rules, players, seed, next_count, target=500, **options):
        options.update(core=LoggedExtreme, same_shuffle=True)
        core = real(rules, players, seed, next_count, target, **options)
        played.append((core, seed))
        return core

    monkeypatch.setattr(fastextreme, "play_random_game", logged)
    return played


@pytest.mark.parametrize(("players", "profile"), [(2, "measured"), (4, "brutal"), (5, "gentle")])
def test_sim_extreme_random_games_run_on_the_fast_core_and_replay_on_game(on_the_extreme_core, players,
                                                                          profile):
    """Presses, the eject profile's counts and R1/R2 reloads included: each call is one `Game` accepts."""
    summary = simulate(3, players, bot="random", seed=players, profile=profile, target=300)
    assert len(on_the_extreme_core) == 3
    for core, seed in on_the_extreme_core:
        game = replay_extreme(core, seed)
        assert game.phase == "game_over" and game.winner == f"P{core.winner + 1}"
        assert game.state()["scores"] == {f"P{s + 1}": core.scores[s] for s in range(players)}
    assert summary["hands"] == sum(core.hand_number for core, _ in on_the_extreme_core)
    assert summary["cards_fired"] == sum(core.fired for core, _ in on_the_extreme_core)
    presses = sum(core.presses for core, _ in on_the_extreme_core)
    assert summary["presses_per_hand_mean"] == pytest.approx(presses / summary["hands"])


@pytest.mark.parametrize("players", [2, 4, 7])
def test_sim_classic_random_games_run_on_the_fast_core_and_replay_on_game(on_the_core, players):
    summary = simulate(3, players, bot="random", seed=players, ruleset="classic", target=200)
    assert len(on_the_core) == 3
    winners = []
    for core, seed in on_the_core:
        game = replay(core, seed)
        assert game.phase == "game_over" and game.winner == f"P{core.winner + 1}"
        assert game.state()["scores"] == {f"P{s + 1}": core.scores[s] for s in range(players)}
        winners.append(core.winner + 1)
    assert sum(summary["wins_by_seat"].values()) == 3
    assert summary["hands"] == sum(core.hand_number for core, _ in on_the_core)
    assert summary["cards_fired"] == sum(core.fired for core, _ in on_the_core)


@pytest.mark.parametrize("options", [{"scoring": "g2"}, {"variant": "partners"}, {"ruleset": "barbie"},
                                     {"ruleset": "extreme", "scoring": "g3"},
                                     {"ruleset": "extreme", "variant": "elimination"}])
def test_what_the_fast_cores_do_not_play_stays_on_game(on_the_core, on_the_extreme_core, options):
    players = 4
    summary = simulate(1, players, bot="random", seed=1, **{"ruleset": "classic", "target": 100, **options})
    assert summary["games"] == 1 and on_the_core == [] and on_the_extreme_core == []


@pytest.mark.parametrize("rules", ["classic", "extreme"])
def test_heuristic_bots_stay_on_game(on_the_core, on_the_extreme_core, rules):
    simulate(1, 3, bot="mix", seed=1, ruleset=rules, target=100)
    simulate(1, 3, bot="heuristic", seed=1, ruleset=rules, target=100)
    assert on_the_core == [] and on_the_extreme_core == []
