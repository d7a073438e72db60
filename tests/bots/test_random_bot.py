"""The random bot: a uniformly random legal play, a press only when none goes (T2), repeatable by seed."""

import random
from collections import Counter

import pytest
from unox.bots import BOT_NAMES, RandomBot, make_bot

HAND = ["G1", "G2", "Y9", "R9", "B8", "RS", "Y3"]  # on G7: G1 and G2 go, nothing else


def test_T1_random_bot_picks_uniformly_among_legal_plays(stacked):
    game = stacked({"Bob": HAND})
    legal = game.legal_plays("Bob")
    bot = RandomBot(random.Random(1))
    picks = Counter(bot.choose(game, "Bob") for _ in range(30_000))
    assert set(picks) == set(legal)  # never None: no press while a card goes (RLCard's random policy)
    for count in picks.values():
        assert count / 30_000 == pytest.approx(1 / len(legal), abs=0.015)


def test_T3_random_bot_presses_a_playable_hand_only_with_its_press_chance(stacked):
    game = stacked({"Bob": HAND})
    bot = RandomBot(random.Random(2), press_chance=0.25)
    picks = Counter(bot.choose(game, "Bob") for _ in range(30_000))
    assert picks[None] / 30_000 == pytest.approx(0.25, abs=0.015)


def test_T2_random_bot_presses_when_nothing_goes(stacked):
    game = stacked({"Bob": ["Y9", "R9", "B8", "RS", "Y3", "B2", "B3"]})
    assert game.legal_plays("Bob") == []
    assert RandomBot(random.Random(3)).choose(game, "Bob") is None


def test_S4_random_bot_plays_when_it_may_not_press(stacked):
    game = stacked({"Bob": HAND})
    bot = RandomBot(random.Random(4))
    assert all(bot.choose(game, "Bob", may_press=False) is not None for _ in range(500))


def test_the_default_presses_only_when_stuck_like_rlcard(stacked):
    game = stacked({"Bob": HAND})
    bot = RandomBot(random.Random(5))
    assert all(bot.choose(game, "Bob") is not None for _ in range(500))


def test_same_seed_same_choices(stacked):
    game = stacked({"Bob": HAND})
    a, b = RandomBot(random.Random(7)), RandomBot(random.Random(7))
    assert [a.choose(game, "Bob") for _ in range(50)] == [b.choose(game, "Bob") for _ in range(50)]


def test_random_colour_and_target_are_valid(stacked):
    game = stacked({"Bob": HAND})
    bot = RandomBot(random.Random(8))
    assert {bot.choose_color(game, "Bob") for _ in range(200)} == {"red", "yellow", "green", "blue"}
    assert {bot.choose_target(game, "Bob") for _ in range(200)} == {"Ann", "Cy", "Dee"}


def test_make_bot_by_name_and_unknown_name():
    assert [make_bot(n).name for n in BOT_NAMES] == list(BOT_NAMES)
    with pytest.raises(ValueError, match="use one of random, heuristic"):
        make_bot("clever")
