"""The simulation's side of a turn: first-card rules (S4), bots that break the rules, UNO calls (U1/U2)."""

import random

import pytest
from unox.bots import Bot, HeuristicBot, RandomBot
from unox.profiles import get_profile
from unox.rules.game import Game
from unox.rules.plays import Play
from unox.rules.stacking import stacked_deck
from unox.simulation import GameRecord, Match, SimulationError

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


class Scripted(Bot):
    """Presses whenever allowed, names blue, and remembers what it was asked."""

    def __init__(self):
        super().__init__(random.Random(0))
        self.asked_color = 0
        self.may_press: list[bool] = []

    def choose(self, game, player, *, may_press=True):
        self.may_press.append(may_press)
        plays = game.legal_plays(player)
        return None if may_press or not plays else plays[0]

    def choose_color(self, game, player):
        self.asked_color += 1
        return "blue"


def match(flip, hands=None, bots=None):
    game = Game(PLAYERS, mode="dealt", rng=random.Random(1))
    game.deal("Ann", stack=stacked_deck(PLAYERS, "Ann", hands or {}, flip))
    bots = bots or {p: Scripted() for p in PLAYERS}
    profile = get_profile("measured", rng=random.Random(1))
    return Match(game, bots, profile, GameRecord(1, ["scripted"] * 4))


def test_S4_wild_turned_up_first_the_player_on_the_dealers_left_names_the_colour():
    m = match(["W"])
    m.flip()
    assert m.game.state()["color"] == "blue"
    assert m.bots["Bob"].asked_color == 1
    assert all(m.bots[p].asked_color == 0 for p in ("Ann", "Cy", "Dee"))


def test_S4_trade_hands_turned_up_first_goes_back_and_the_next_card_is_turned_up():
    m = match(["RT", "G7"])
    m.flip()
    assert m.game.phase == "flip"
    m.flip()
    assert m.game.state()["top"] == "G7" and m.game.phase == "turn"


def test_S4_discard_all_first_the_player_on_the_left_may_not_press_while_holding_a_match():
    m = match(["GD"], hands={"Bob": ["G1", "R2", "R3", "R4", "R5", "Y2", "Y3"]})
    m.flip()
    m.turn(m.game.presser())
    assert m.bots["Bob"].may_press == [False]
    assert m.game.state()["top"] == "G1"
    m.turn(m.game.presser())
    assert m.bots["Cy"].may_press == [True]


def test_a_bot_whose_play_is_refused_stops_the_game_with_its_name():
    class Cheat(Scripted):
        def choose(self, game, player, *, may_press=True):
            return Play("WF", "red")  # not in the hand

    m = match(["G7"], hands={"Bob": ["G1", "R2", "R3", "R4", "R5", "Y2", "Y3"]},
              bots={p: Cheat() for p in PLAYERS})
    m.flip()
    with pytest.raises(SimulationError, match="Cheat chose .*WF.*refused: not_in_hand"):
        m.turn("Bob")


def test_U1_a_bot_that_calls_uno_on_its_second_to_last_card_is_safe():
    bots = {p: HeuristicBot(random.Random(2)) for p in PLAYERS}
    m = match(["G7"], hands={"Bob": ["GD", "G2", "G3", "G4", "G5", "G6", "Y5"]}, bots=bots)
    m.flip()
    m.turn("Bob")  # Discard All: 6 cards down, 1 left
    assert m.game.state()["hands"]["Bob"] == 1 and m.game.state()["uno"] == []
    assert m.record.catches == 0


def test_U2_a_bot_that_forgets_uno_is_caught_by_the_next_one_who_notices():
    class Forgetful(Scripted):
        def choose(self, game, player, *, may_press=True):
            return next(p for p in game.legal_plays(player) if p.card == "GD")

        def calls_uno(self, game, player):
            return False

    blind = RandomBot(random.Random(4), catch_chance=0.0)
    bots = {"Ann": HeuristicBot(random.Random(5)), "Bob": Forgetful(), "Cy": blind,
            "Dee": HeuristicBot(random.Random(6))}
    m = match(["G7"], hands={"Bob": ["GD", "G2", "G3", "G4", "G5", "G6", "Y5"]}, bots=bots)
    m.flip()
    m.turn("Bob")
    assert m.record.catches == 1
    assert m.game.state()["owed"] == [{"player": "Bob", "presses": 2}]
