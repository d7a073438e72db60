"""The heuristic bot plays to go out: sheds points, saves wilds, aims at the leader, calls UNO."""

import random

from unox.bots import HeuristicBot
from unox.rules.cards import parse_card
from unox.rules.extreme import EXTREME, playable
from unox.rules.plays import Play

BOT = HeuristicBot(random.Random(0))
# Cy discards all greens with GD (A4) and is left with one card: the leader.
CY_LEADS = ["GD", "G2", "G3", "G4", "G5", "G6", "Y5"]
CY_PLAIN = ["G2", "R3", "R4", "Y4", "B5", "B6", "Y5"]


def test_T1_sheds_the_highest_points_first(stacked):
    game = stacked({"Bob": ["G1", "G9", "G4", "R2", "R3", "Y2", "Y3"]})
    assert BOT.choose(game, "Bob") == Play("G9")


def test_A4_discard_all_counts_every_card_it_sheds(stacked):
    game = stacked({"Bob": ["G9", "GD", "G4", "G3", "R2", "Y2", "Y3"]})
    assert BOT.choose(game, "Bob") == Play("GD", count=3)


def test_A6_saves_a_wild_while_another_card_goes(stacked):
    game = stacked({"Bob": ["W", "G1", "R2", "R3", "Y2", "Y3", "B2"]})
    assert BOT.choose(game, "Bob") == Play("G1")


def test_A6_plays_the_wild_when_needed_naming_the_colour_it_holds_most(stacked):
    game = stacked({"Bob": ["W", "R2", "R3", "R4", "Y2", "Y3", "B2"]})
    assert BOT.choose(game, "Bob") == Play("W", "red")


def _bob_faces_cy(stacked, cy, bob):
    plays = [("Bob", "G1"), ("Cy", cy[0]), ("Dee", "G8"), ("Ann", "G8")]
    return stacked({"Bob": ["G1", *bob], "Cy": cy, "Dee": ["G8"], "Ann": ["G8"]}, plays=plays)


def test_A8_aims_hit_fire_at_a_leader_about_to_go_out(stacked):
    game = _bob_faces_cy(stacked, CY_LEADS, ["G9", "WF", "R2", "R3", "Y2", "Y3"])
    assert game.state()["hands"]["Cy"] == 1
    assert BOT.choose(game, "Bob").card == "WF"


def test_A8_keeps_hit_fire_when_the_leader_is_far_from_out(stacked):
    game = _bob_faces_cy(stacked, CY_PLAIN, ["G9", "WF", "R2", "R3", "Y2", "Y3"])
    assert game.state()["hands"]["Cy"] == 6
    assert BOT.choose(game, "Bob") == Play("G9")


class Position:
    """A table the bot looks at through `legal_plays`, `hand` and `state`, as on a real Game; the legal
    plays come from the rules' own `playable`. Top: RD with red in force; Bob to play."""

    rules = EXTREME
    color = "R"

    def __init__(self, hand, sizes):
        self.cards = [parse_card(c) for c in hand]
        self.sizes = sizes

    def legal_plays(self, player):
        top = parse_card("RD")
        return [Play(c.code, count=0 if c.kind == "discard_all" else None)
                for c in self.cards if playable(c, top, "R")]

    def hand(self, player):
        return list(self.cards)

    def state(self):
        return {"players": ["Ann", "Bob", "Cy", "Dee"], "direction": "left", "hands": dict(self.sizes)}


def test_A1_aims_hit_2_at_the_leader():
    hand = ["RH", "YD", "B2", "B3", "B4", "B5"]
    # Cy plays after Bob: with Cy the leader the Hit 2 goes on Cy; else the 30-point Discard All sheds more
    cy_leads = Position(hand, {"Ann": 7, "Bob": 6, "Cy": 2, "Dee": 7})
    dee_leads = Position(hand, {"Ann": 7, "Bob": 6, "Cy": 7, "Dee": 2})
    assert [p.card for p in cy_leads.legal_plays("Bob")] == ["RH", "YD"]
    assert BOT.choose(cy_leads, "Bob") == Play("RH")
    assert BOT.choose(dee_leads, "Bob") == Play("YD", count=0)


def test_A5_trades_hands_with_the_leader(stacked):
    plays = [("Bob", "G1"), ("Cy", "GD"), ("Dee", "G8"), ("Ann", "B8")]
    game = stacked({"Bob": ["G1", "BT", "R2", "R3", "Y2", "Y3", "Y4"], "Cy": CY_LEADS, "Dee": ["G8"],
                    "Ann": ["B8"]}, plays=plays)
    assert BOT.choose(game, "Bob") == Play("BT", target="Cy")


def test_A5_presses_rather_than_trade_for_a_much_bigger_hand(stacked):
    bob = ["GD", "G2", "G3", "G4", "G5", "BT", "Y5"]
    plays = [("Bob", "GD"), ("Cy", "G8"), ("Dee", "G8"), ("Ann", "B8")]
    game = stacked({"Bob": bob, "Cy": ["G8"], "Dee": ["G8"], "Ann": ["B8"]}, plays=plays)
    assert game.state()["hands"]["Bob"] == 2 and [p.card for p in game.legal_plays("Bob")] == ["BT"] * 3
    assert BOT.choose(game, "Bob") is None


def test_A5_trades_rather_than_press_when_hands_are_even(stacked):
    game = stacked({"Bob": ["BT", "R2", "R3", "R4", "R5", "R6", "Y2"]}, flip="B7")
    assert BOT.choose(game, "Bob") == Play("BT", target="Cy")


def test_U3_goes_out_with_the_last_card(stacked):
    bob = ["GD", "G2", "G3", "G4", "G5", "G6", "W"]
    plays = [("Bob", "GD"), ("Cy", "G8"), ("Dee", "G8"), ("Ann", "G9")]
    game = stacked({"Bob": bob, "Cy": ["G8"], "Dee": ["G8"], "Ann": ["G9"]}, plays=plays)
    assert game.state()["hands"]["Bob"] == 1
    assert BOT.choose(game, "Bob").card == "W"


def test_U1_always_calls_uno_and_catches(stacked):
    game = stacked({})
    assert BOT.calls_uno(game, "Bob") and BOT.catches(game, "Cy", "Bob")


def test_S4_colour_for_a_wild_turned_up_first_is_the_colour_held_most(stacked):
    game = stacked({"Bob": ["Y1", "Y2", "Y3", "R1", "B2", "G3", "W"]})
    assert BOT.choose_color(game, "Bob") == "yellow"
