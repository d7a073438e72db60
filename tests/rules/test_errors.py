"""Refusals: every error code leaves the game exactly as it was, and has a message telling what to do."""

import re
from pathlib import Path

import pytest
from unox.rules.errors import ERROR_CODES, RuleError
from unox.rules.extreme import extreme_deck
from unox.rules.game import Game
from unox.rules.setup import pick_dealer
from unox.rules.stacking import stacked_deck

HERE = Path(__file__).parent


def test_every_error_code_is_asserted_by_some_test():
    editions = HERE.parent / "editions"
    source = "\n".join(p.read_text() for p in [*HERE.glob("test_*.py"), *editions.rglob("test_*.py")])
    asserted = set(re.findall(r'unchanged\(\w+, "(\w+)"\)', source))
    asserted |= set(re.findall(r'code == "(\w+)"', source))
    asserted |= set(re.findall(r'refuse\([^,]+, "(\w+)"', source))  # tests/editions, through the protocol
    assert set(ERROR_CODES) - asserted == set()


def test_unregistered_codes_cannot_be_raised():
    with pytest.raises(ValueError):
        RuleError("no_such_code", "x")


def test_bad_card_refused(physical, unchanged):
    game = physical(first="G7")
    with unchanged(game, "bad_card"):
        game.play("Bob", "G0")
    with unchanged(game, "bad_card"):
        game.play("Bob", "purple")


def test_bad_card_at_flip_and_flip_needs_a_card_in_physical_mode(physical, unchanged):
    game = physical(first=None)
    with unchanged(game, "bad_card"):
        game.flip("Q1")
    with unchanged(game, "bad_card"):
        game.flip()
    with unchanged(game, "unexpected_color"):
        game.flip("G7", color="red")
    with unchanged(game, "bad_color"):
        game.flip("W", color="mauve")


def test_unknown_player_everywhere(physical, unchanged):
    game = physical(first="G7")
    with unchanged(game, "unknown_player"):
        game.play("Zed", "G3")
    with unchanged(game, "unknown_player"):
        game.press("Zed", 0)
    with unchanged(game, "unknown_player"):
        game.uno("Zed")
    with unchanged(game, "unknown_player"):
        game.catch("Zed", by="Ann")
    with unchanged(game, "unknown_player"):
        game.penalty("Zed", "advice")


def test_player_out_refused_after_G3_drop(unchanged):
    game = Game(["Ann", "Bob", "Cy"], scoring="g3", target=10)
    game.deal("Ann")
    game.flip("G7")
    while game.phase != "hand_over":
        player = game.presser()
        if player == "Bob":
            game.play(player, "G3")
        else:
            game.press(player, 0)
    game.score({"Ann": 5, "Bob": 0, "Cy": 11})
    game.deal("Ann")
    game.flip("G7")
    with unchanged(game, "player_out"):
        game.press("Cy", 0)
    with unchanged(game, "player_out"):
        game.play("Bob", "GT", target="Cy")


def test_bad_fired(physical, dealt, unchanged):
    game = physical(first="G7")
    for bad in (-1, 1.5, True, "3", None):
        with unchanged(game, "bad_fired"):
            game.press("Bob", bad)
    d = dealt()
    with unchanged(d, "bad_fired"):
        d.press("Bob", d.launcher_cards + 1)


def test_wrong_phase_for_each_call(physical, unchanged):
    game = Game(["Ann", "Bob"])
    with unchanged(game, "wrong_phase"):
        game.flip("G7")
    with unchanged(game, "wrong_phase"):
        game.play("Ann", "G7")
    with unchanged(game, "wrong_phase"):
        game.press("Ann", 0)
    with unchanged(game, "wrong_phase"):
        game.reload()
    with unchanged(game, "wrong_phase"):
        game.uno("Ann")
    with unchanged(game, "wrong_phase"):
        game.catch("Ann", by="Bob")
    with unchanged(game, "wrong_phase"):
        game.penalty("Ann", "advice")
    game.deal("Ann")
    with unchanged(game, "wrong_phase"):
        game.deal("Ann")
    assert game.presser() is None


def test_missing_dealer_in_physical_mode(unchanged):
    game = Game(["Ann", "Bob"])
    with unchanged(game, "missing_dealer"):
        game.deal()


def test_bad_deck_refused(unchanged):
    game = Game(["Ann", "Bob"], mode="dealt")
    with unchanged(game, "bad_deck"):
        game.deal("Ann", stack=extreme_deck()[:-1])
    with unchanged(game, "bad_deck"):
        game.deal("Ann", stack=extreme_deck()[:-1] + ["G0"])
    physical = Game(["Ann", "Bob"])
    with unchanged(physical, "bad_deck"):
        physical.deal("Ann", stack=extreme_deck())


def test_not_in_launcher_refused(unchanged):
    game = Game(["Ann", "Bob"], mode="dealt")
    game.deal("Ann", stack=stacked_deck(["Ann", "Bob"], "Ann", {"Ann": ["W"] * 4}))
    with unchanged(game, "not_in_launcher"):
        game.flip("W", color="red")


def test_dealt_flip_of_a_wild_needs_a_colour(unchanged):
    game = Game(["Ann", "Bob"], mode="dealt")
    game.deal("Ann", stack=stacked_deck(["Ann", "Bob"], "Ann", flip=["WA"]))
    with unchanged(game, "missing_color"):
        game.flip()
    game.flip(color="blue")
    assert game.state()["color"] == "blue"


def test_dealt_flip_ignores_a_colour_for_a_coloured_card(unchanged):
    game = Game(["Ann", "Bob"], mode="dealt")
    game.deal("Ann", stack=stacked_deck(["Ann", "Bob"], "Ann", flip=["G5"]))
    with unchanged(game, "bad_color"):
        game.flip(color="teal")
    game.flip(color="blue")  # the caller cannot know the card in advance
    assert game.state()["color"] == "green"


def test_bad_draw(physical):
    with pytest.raises(RuleError) as info:
        pick_dealer({"Ann": "Z9"})
    assert info.value.code == "bad_draw"


@pytest.mark.parametrize(
    "players, options",
    [(["Ann"], {}), (["Ann", "Ann"], {}), ([f"P{i}" for i in range(11)], {}), (["Ann", ""], {}),
     ("AnnBob", {}), (["Ann", "Bob"], {"mode": "virtual"}), (["Ann", "Bob"], {"scoring": "g4"}),
     (["Ann", "Bob"], {"target": 0}), (["Ann", "Bob"], {"target": "500"})],
)
def test_bad_setup(players, options):
    with pytest.raises(RuleError) as info:
        Game(players, **options)
    assert info.value.code == "bad_setup"


def test_hand_needs_dealt_mode(physical, unchanged):
    game = physical()
    with unchanged(game, "wrong_phase"):
        game.hand("Bob")
