"""Classic UNO (seed 004) through the table protocol: one test per rule ID of docs/rules.md (C-...,
DL...), named after it. Physical tables report what happened; dealt tables let the engine check what it
knows."""

from __future__ import annotations

from collections import Counter

import pytest
from unox.rules.editions import get_rules
from unox.rules.setup import pick_dealer

from .kit import accept, dealt_table, give, hand, physical_table, refuse, send

CLASSIC = get_rules("classic")
AFTER_FLIP = 108 - 4 * 7 - 1  # four players


def started(first="G7", color=None, **options):
    return physical_table("classic", first=first, color=color, **options)


# --- the deck and set-up ----------------------------------------------------------------------------------


def test_C_D1_the_deck_is_108_cards_with_one_zero_per_colour():
    counts = Counter(CLASSIC.deck)
    assert len(CLASSIC.deck) == 108
    for color in "RYGB":
        assert counts[f"{color}0"] == 1
        assert all(counts[f"{color}{n}"] == 2 for n in range(1, 10))
        assert counts[f"{color}+2"] == counts[f"{color}R"] == counts[f"{color}S"] == 2
    assert counts["W"] == counts["W+4"] == 4
    table = started()
    assert table.state()["launcher"]["cards"] == AFTER_FLIP
    refuse(table, "bad_card", cmd="play", player="Bob", card="GH")  # Extreme's Hit 2 is not a classic card


def test_C_S1_the_highest_number_deals_and_action_cards_count_zero():
    assert pick_dealer({"Ann": "R+2", "Bob": "G3", "Cy": "W+4"}, CLASSIC).dealer == "Bob"
    assert pick_dealer({"Ann": "RS", "Bob": "G0", "Cy": "W"}, CLASSIC).redraw == ("Ann", "Bob", "Cy")


def test_C_S2_seven_cards_each_and_the_rest_in_the_launcher():
    table = physical_table("classic")
    state = accept(table, cmd="deal", dealer="Ann")
    assert state["hands"] == {p: 7 for p in ("Ann", "Bob", "Cy", "Dee")}
    state = accept(table, cmd="flip", card="Y4")
    assert state["launcher"]["cards"] == AFTER_FLIP and state["discard"] == 1 and state["rules"] == "classic"


def test_C_S3_the_player_on_the_left_starts_and_play_goes_left():
    state = started().state()
    assert state["turn"] == "Bob" and state["direction"] == "left"


def test_C_S4_a_first_draw_two_makes_the_left_player_draw_2_and_lose_the_turn():
    state = started("R+2").state()
    assert state["owed"] == [{"player": "Bob", "draws": 2}] and state["plays_next"] == "Cy"


def test_C_S4_a_first_reverse_lets_the_dealer_start_going_right():
    state = started("YR").state()
    assert state["turn"] == "Ann" and state["direction"] == "right"


def test_C_S4_a_first_skip_skips_the_left_player():
    assert started("BS").state()["turn"] == "Cy"


def test_C_S4_a_first_wild_lets_the_left_player_name_the_colour_and_play():
    state = started("W", color="blue").state()
    assert state["turn"] == "Bob" and state["color"] == "blue"


def test_C_S4_a_first_wild_draw_four_goes_back_and_no_one_draws():
    table = physical_table("classic")
    accept(table, cmd="deal", dealer="Ann")
    state = accept(table, cmd="flip", card="W+4", color="red")
    assert state["phase"] == "flip" and state["owed"] == [] and state["launcher"]["cards"] == AFTER_FLIP + 1
    state = accept(table, cmd="flip", card="G2")
    assert state["turn"] == "Bob" and state["launcher"]["cards"] == AFTER_FLIP


# --- a turn -------------------------------------------------------------------------------------------------


def test_C_T1_a_card_matches_by_colour_number_or_symbol_and_a_wild_goes_on_anything():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="G2")  # colour
    accept(table, cmd="play", player="Cy", card="R2")  # number
    accept(table, cmd="play", player="Dee", card="RS")  # colour
    accept(table, cmd="play", player="Bob", card="YS")  # symbol (Ann, then Cy skipped)
    refuse(table, "illegal_card", cmd="play", player="Dee", card="R+2")
    state = accept(table, cmd="play", player="Dee", card="W", color="yellow")  # may name the colour in force
    assert state["color"] == "yellow" and state["turn"] == "Ann"


def test_C_T1_a_wild_goes_on_anything_even_when_another_card_could_be_played():
    table = dealt_table("classic", hands={"Bob": ["G1", "W", "R3", "R4", "R5", "R6", "R8"]})
    assert {p.card for p in table.game.legal_plays("Bob")} == {"G1", "W"}
    accept(table, cmd="play", player="Bob", card="W", color="red")


def test_C_T2_a_player_who_does_not_play_draws_1_and_may_play_it_at_once():
    table = dealt_table("classic", hands={"Bob": ["R1", "R2", "R3", "R4", "R5", "R6", "R8"]}, then=["G5"])
    state = accept(table, cmd="draw", player="Bob", fired=1)
    assert state["hands"]["Bob"] == 8 and state["drawn"] == "Bob" and state["turn"] == "Bob"
    assert [p.card for p in table.game.legal_plays("Bob")] == ["G5"]
    state = accept(table, cmd="play", player="Bob", card="G5")
    assert state["turn"] == "Cy" and state["top"] == "G5" and state["drawn"] is None


def test_C_T2_a_drawn_card_that_cannot_be_played_is_kept_and_the_turn_passes():
    table = dealt_table("classic", hands={"Bob": ["R1", "R2", "R3", "R4", "R5", "R6", "R8"]}, then=["Y5"])
    accept(table, cmd="draw", player="Bob", fired=1)
    assert table.game.legal_plays("Bob") == []
    state = accept(table, cmd="pass", player="Bob")
    assert state["turn"] == "Cy" and state["hands"]["Bob"] == 8 and "Y5" in hand(table, "Bob")


def test_C_T2_D1_physical_play_after_the_draw_is_optional():
    table = started()
    accept(table, cmd="draw", player="Bob", fired=1)
    state = accept(table, cmd="pass", player="Bob")
    assert state["turn"] == "Cy" and state["hands"]["Bob"] == 8


def test_C_T3_a_player_may_decline_a_playable_card_but_then_plays_only_the_card_drawn():
    table = dealt_table("classic", hands={"Bob": ["G1", "R2", "R3", "R4", "R5", "R6", "R8"]}, then=["G5"])
    accept(table, cmd="draw", player="Bob", fired=1)
    refuse(table, "only_drawn_card", cmd="play", player="Bob", card="G1")
    accept(table, cmd="play", player="Bob", card="G5")


def test_C_T4_one_draw_per_turn_and_no_pass_without_a_draw():
    table = started()
    refuse(table, "must_draw_first", cmd="pass", player="Bob")
    accept(table, cmd="draw", player="Bob", fired=1)
    refuse(table, "already_drew", cmd="draw", player="Bob", fired=1)
    refuse(table, "not_owed", cmd="draw", player="Cy", fired=1)
    refuse(table, "not_your_turn", cmd="pass", player="Cy")


# --- action cards ---------------------------------------------------------------------------------------


def test_C_A1_draw_two_the_next_player_draws_2_and_loses_the_turn():
    table = started("R4")
    refuse(table, "illegal_card", cmd="play", player="Bob", card="G+2")
    state = accept(table, cmd="play", player="Bob", card="R+2")
    assert state["owed"] == [{"player": "Cy", "draws": 2}] and state["step"] == "drawing"
    refuse(table, "owes_draws", cmd="play", player="Cy", card="G+2")  # it cannot be passed on
    refuse(table, "not_your_turn", cmd="play", player="Dee", card="R5")
    state = accept(table, cmd="draw", player="Cy", fired=2)
    assert state["turn"] == "Dee" and state["hands"]["Cy"] == 9
    accept(table, cmd="play", player="Dee", card="G+2")  # on another Draw Two
    assert table.state()["owed"] == [{"player": "Ann", "draws": 2}]


def test_C_A2_reverse_turns_the_direction_only_on_its_colour_or_a_reverse():
    table = started("G7")
    refuse(table, "illegal_card", cmd="play", player="Bob", card="RR")
    state = accept(table, cmd="play", player="Bob", card="GR")
    assert state["direction"] == "right" and state["turn"] == "Ann"
    state = accept(table, cmd="play", player="Ann", card="YR")
    assert state["direction"] == "left" and state["turn"] == "Bob"


def test_C_A3_skip_the_next_player_loses_the_turn():
    table = started("G7")
    refuse(table, "illegal_card", cmd="play", player="Bob", card="RS")
    assert accept(table, cmd="play", player="Bob", card="GS")["turn"] == "Dee"


def test_C_A4_wild_names_the_next_colour():
    table = started("G7")
    refuse(table, "missing_color", cmd="play", player="Bob", card="W")
    refuse(table, "bad_color", cmd="play", player="Bob", card="W", color="purple")
    assert accept(table, cmd="play", player="Bob", card="W", color="red")["color"] == "red"


def test_C_A5_wild_draw_four_the_next_player_draws_4_and_loses_the_turn():
    table = started("G7")
    state = accept(table, cmd="play", player="Bob", card="W+4", color="blue")
    assert state["owed"] == [{"player": "Cy", "draws": 4}] and state["plays_next"] == "Dee"
    assert state["challenge"] == {"player": "Cy", "against": "Bob"}
    state = accept(table, cmd="draw", player="Cy", fired=4)
    assert state["turn"] == "Dee" and state["color"] == "blue" and state["challenge"] is None


def test_C_A6_an_illegal_wild_draw_four_stands_unless_challenged_and_only_the_colour_counts():
    held_colour = dealt_table("classic", hands={"Bob": ["W+4", "G1", "R3", "R4", "R5", "R6", "R8"]})
    accept(held_colour, cmd="play", player="Bob", card="W+4", color="red")  # stands
    assert held_colour.state()["owed"] == [{"player": "Cy", "draws": 4}]
    accept(held_colour, cmd="challenge", player="Cy")
    assert held_colour.state()["owed"] == [{"player": "Bob", "draws": 4}]  # guilty: G1 matched green
    same_number = dealt_table("classic", hands={"Bob": ["W+4", "R7", "W", "Y+2", "R5", "R6", "R8"]})
    accept(same_number, cmd="play", player="Bob", card="W+4", color="red")
    accept(same_number, cmd="challenge", player="Cy")
    assert same_number.state()["owed"] == [{"player": "Cy", "draws": 6}]  # R7 and W do not count


def test_C_A7_a_guilty_player_draws_4_and_the_challenger_plays():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="W+4", color="blue")
    refuse(table, "nothing_to_challenge", cmd="challenge", player="Dee", guilty=True)
    refuse(table, "bad_challenge", cmd="challenge", player="Cy")
    state = accept(table, cmd="challenge", player="Cy", guilty=True)
    assert state["owed"] == [{"player": "Bob", "draws": 4}] and state["plays_next"] == "Cy"
    assert state["color"] == "blue"  # D3: the colour named stands
    state = accept(table, cmd="draw", player="Bob", fired=4)
    assert state["turn"] == "Cy" and state["hands"]["Bob"] == 10


def test_C_A7_a_wrong_challenger_draws_6_and_loses_the_turn():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="W+4", color="blue")
    state = accept(table, cmd="challenge", player="Cy", guilty=False)
    assert state["owed"] == [{"player": "Cy", "draws": 6}] and state["plays_next"] == "Dee"
    refuse(table, "bad_fired", cmd="draw", player="Cy", fired=7)
    state = accept(table, cmd="draw", player="Cy", fired=6)
    assert state["turn"] == "Dee" and state["hands"]["Cy"] == 13


def test_C_A7_D2_drawing_accepts_the_four_and_closes_the_challenge():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="W+4", color="blue")
    accept(table, cmd="draw", player="Cy", fired=1)
    refuse(table, "nothing_to_challenge", cmd="challenge", player="Cy", guilty=True)
    assert table.state()["owed"] == [{"player": "Cy", "draws": 3}]


def test_C_A7_dealt_mode_the_engine_decides_and_refuses_a_reported_outcome():
    table = dealt_table("classic", hands={"Bob": ["W+4", "R1", "R3", "R4", "R5", "R6", "R8"]})
    accept(table, cmd="play", player="Bob", card="W+4", color="red")
    refuse(table, "bad_challenge", cmd="challenge", player="Cy", guilty=True)
    state = accept(table, cmd="challenge", player="Cy")
    assert state["owed"] == [{"player": "Cy", "draws": 6}]  # no green card: not guilty


# --- UNO and going out -------------------------------------------------------------------------------


def test_C_U1_C_U2_a_player_caught_without_uno_draws_2():
    table = dealt_table("classic")
    give(table, "Bob", ["G1", "G2"])
    accept(table, cmd="play", player="Bob", card="G1")
    assert table.state()["uno"] == ["Bob"]
    state = accept(table, cmd="catch", player="Bob", by="Dee")
    assert state["owed"] == [{"player": "Bob", "draws": 2}]


def test_C_U2_the_catch_window_closes_when_the_next_player_draws():
    table = dealt_table("classic")
    give(table, "Bob", ["G1", "G2"])
    accept(table, cmd="play", player="Bob", card="G1")
    assert table.state()["uno"] == ["Bob"]
    accept(table, cmd="draw", player="Cy", fired=1)
    refuse(table, "catch_window_closed", cmd="catch", player="Bob", by="Dee")


def test_C_U2_calling_uno_before_the_catch_is_safe():
    table = dealt_table("classic")
    give(table, "Bob", ["G1", "G2"])
    accept(table, cmd="play", player="Bob", card="G1")
    accept(table, cmd="uno", player="Bob")
    refuse(table, "called_uno", cmd="catch", player="Bob", by="Dee")


def test_C_U3_a_last_draw_two_still_makes_the_next_player_draw_and_those_cards_count():
    cy = ["R1"] * 2 + ["Y1"] * 2 + ["B1"] * 2 + ["B2"]
    table = dealt_table("classic", hands={"Cy": cy}, then=["W", "W"])
    give(table, "Bob", ["G+2"])  # Bob's last card
    accept(table, cmd="play", player="Bob", card="G+2")
    assert table.state()["phase"] == "turn"
    state = accept(table, cmd="draw", player="Cy", fired=2)
    assert state["went_out"] == "Bob"
    assert state["last_hand"]["points"]["Cy"] == 2 * 1 + 2 * 1 + 2 * 1 + 2 + 2 * 50


def test_C_U3_D5_a_last_wild_draw_four_may_be_challenged_and_if_guilty_does_not_go_out():
    table = started("G7")
    table.game.cards.sizes["Bob"] = 1  # physical: Bob holds his last card, a Wild Draw Four
    state = accept(table, cmd="play", player="Bob", card="W+4", color="red")
    assert state["went_out"] == "Bob" and state["phase"] == "turn"  # the 4 are drawn first
    state = accept(table, cmd="challenge", player="Cy", guilty=True)
    assert state["went_out"] is None and state["owed"] == [{"player": "Bob", "draws": 4}]
    state = accept(table, cmd="draw", player="Bob", fired=4)
    assert state["phase"] == "turn" and state["turn"] == "Cy" and state["hands"]["Bob"] == 4


def test_C_U3_a_last_wild_draw_four_not_challenged_ends_the_hand_after_the_draws():
    table = started("G7")
    table.game.cards.sizes["Bob"] = 1
    accept(table, cmd="play", player="Bob", card="W+4", color="red")
    assert accept(table, cmd="draw", player="Cy", fired=4)["phase"] == "hand_over"


# --- penalties and the draw pile ----------------------------------------------------------------------


def test_C_P1_advice_costs_the_adviser_2_draws():
    state = accept(started(), cmd="penalty", player="Dee", kind="advice")
    assert state["owed"] == [{"player": "Dee", "draws": 2}]


def test_C_P2_a_wrong_card_is_taken_back_with_2_draws_and_play_passes_on():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="G3")
    state = accept(table, cmd="penalty", player="Bob", kind="wrong_card")
    assert state["top"] == "G7" and state["hands"]["Bob"] == 7
    assert state["owed"] == [{"player": "Bob", "draws": 2}] and state["plays_next"] == "Cy"


def test_C_P3_uno_not_called_costs_2_and_an_illegal_wild_draw_four_4():
    assert CLASSIC.penalties["uno"] == 2 and CLASSIC.challenge_draws[0] == 4
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="W+4", color="red")
    assert accept(table, cmd="challenge", player="Cy", guilty=True)["owed"] == [{"player": "Bob", "draws": 4}]


def test_C_R1_a_reload_keeps_the_top_card_and_what_was_owed_stays_owed():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="G+2")
    state = accept(table, cmd="draw", player="Cy", fired=1)  # DL2: the launcher ran dry after one
    assert state["owed"] == [{"player": "Cy", "draws": 1}]
    state = accept(table, cmd="reload")
    assert state["discard"] == 1 and state["top"] == "G+2" and state["owed"] == [{"player": "Cy", "draws": 1}]
    assert accept(table, cmd="draw", player="Cy", fired=1)["owed"] == []


# --- the launcher as an exact-count dealer ----------------------------------------------------------


def test_DL1_a_draw_gives_exactly_what_is_due_and_no_more():
    table = started("G7")
    refuse(table, "bad_fired", cmd="draw", player="Bob", fired=2)  # a turn's draw is 1
    refuse(table, "bad_fired", cmd="draw", player="Bob", fired=-1)
    accept(table, cmd="play", player="Bob", card="W+4", color="red")
    refuse(table, "bad_fired", cmd="draw", player="Cy", fired=5)


def test_DL2_a_shortfall_stays_owed_and_the_owing_player_does_nothing_else_first():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="W+4", color="red")
    state = accept(table, cmd="draw", player="Cy", fired=3)
    assert state["owed"] == [{"player": "Cy", "draws": 1}] and state["hands"]["Cy"] == 10
    refuse(table, "owes_draws", cmd="play", player="Cy", card="R1")
    refuse(table, "owes_draws", cmd="pass", player="Dee")


def test_DL2_an_empty_launcher_on_the_turns_draw_leaves_the_draw_owed():
    table = started("G7")
    state = accept(table, cmd="draw", player="Bob", fired=0)
    assert state["owed"] == [{"player": "Bob", "draws": 1}] and state["drawn"] is None
    state = accept(table, cmd="draw", player="Bob", fired=1)
    assert state["owed"] == [] and state["drawn"] == "Bob"


def test_DL2_owed_draws_are_settled_in_order():
    table = started("G7")
    accept(table, cmd="penalty", player="Dee", kind="advice")
    accept(table, cmd="penalty", player="Ann", kind="advice")
    refuse(table, "draw_out_of_order", cmd="draw", player="Ann", fired=1)
    refuse(table, "not_owed", cmd="draw", player="Bob", fired=1)
    accept(table, cmd="draw", player="Dee", fired=2)
    assert table.state()["owed"] == [{"player": "Ann", "draws": 2}]


# --- scoring -------------------------------------------------------------------------------------------


def test_C_G1_the_player_out_scores_the_others_cards_at_classic_values():
    values = {code: CLASSIC.cards[code].points for code in ("R0", "R7", "R+2", "RR", "RS", "W", "W+4")}
    assert values == {"R0": 0, "R7": 7, "R+2": 20, "RR": 20, "RS": 20, "W": 50, "W+4": 50}
    table = dealt_table("classic", hands={"Cy": ["R+2", "W+4", "R7"]})
    game = table.game
    give(table, "Bob", ["G1"])
    state = accept(table, cmd="play", player="Bob", card="G1")
    expected = sum(c.points for p in ("Ann", "Cy", "Dee") for c in game.cards.hands[p])
    assert state["scores"]["Bob"] == expected and state["last_hand"]["gained"] == {"Bob": expected}


def test_C_G2_each_player_adds_their_own_points_and_the_lowest_wins_at_the_target():
    table = physical_table("classic", players=("Ann", "Bob"), scoring="g2", target=50, first="G7")
    table.game.cards.sizes["Ann"] = 1
    accept(table, cmd="play", player="Bob", card="G1")
    accept(table, cmd="play", player="Ann", card="G2")
    state = accept(table, cmd="score", points={"Ann": 0, "Bob": 60})
    assert state["winner"] == "Ann" and state["scores"] == {"Ann": 0, "Bob": 60}


def test_C_G3_elimination_a_player_reaching_the_target_is_out():
    table = physical_table("classic", players=("Ann", "Bob", "Cy"), scoring="g3", target=50, first="G7")
    table.game.cards.sizes["Bob"] = 1
    accept(table, cmd="play", player="Bob", card="G1")
    state = accept(table, cmd="score", points={"Ann": 70, "Bob": 0, "Cy": 10})
    assert state["dropped"] == ["Ann"] and state["players"] == ["Bob", "Cy"]


# --- two players ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["GR", "GS"])
def test_C_2P1_C_2P2_reverse_and_skip_give_their_player_another_turn(card):
    table = physical_table("classic", players=("Ann", "Bob"), first="G7")
    assert accept(table, cmd="play", player="Bob", card=card)["turn"] == "Bob"


@pytest.mark.parametrize(("card", "draws"), [("G+2", 2), ("W+4", 4)])
def test_C_2P3_after_the_opponent_draws_it_is_the_players_turn_again(card, draws):
    table = physical_table("classic", players=("Ann", "Bob"), first="G7")
    accept(table, cmd="play", player="Bob", card=card, **({"color": "red"} if card == "W+4" else {}))
    state = accept(table, cmd="draw", player="Ann", fired=draws)
    assert state["turn"] == "Bob"


# --- the protocol of a draw edition -------------------------------------------------------------------


def test_a_classic_table_has_no_presses_and_extreme_has_no_draws():
    refuse(started(), "not_in_rules", cmd="press", player="Bob", fired=1)
    extreme = physical_table("extreme", first="G7")
    assert send(extreme, cmd="draw", player="Bob", fired=1)["error"]["code"] == "unknown_cmd"
    assert "rules" in extreme.state() and extreme.state()["rules"] == "extreme"


# --- the launcher deals (DL4) ------------------------------------------------------------------------


def test_DL4_the_launcher_deals_7_to_each_player_in_seat_order_before_the_flip():
    table = physical_table("classic")
    state = accept(table, cmd="deal", dealer="Ann", launcher=True)
    assert state["owed"] == [{"player": p, "draws": 7} for p in ("Bob", "Cy", "Dee", "Ann")]
    assert state["hands"] == {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0} and state["launcher"]["cards"] == 108
    assert state["turn"] == "Bob"
    refuse(table, "owes_draws", cmd="flip", card="G7")
    refuse(table, "draw_out_of_order", cmd="draw", player="Cy", fired=7)
    refuse(table, "bad_fired", cmd="draw", player="Bob", fired=8)
    accept(table, cmd="draw", player="Bob", fired=5)  # a jam: the rest stays owed
    for player, fired in (("Bob", 2), ("Cy", 7), ("Dee", 7), ("Ann", 7)):
        state = accept(table, cmd="draw", player=player, fired=fired)
    assert state["hands"] == {"Ann": 7, "Bob": 7, "Cy": 7, "Dee": 7} and state["launcher"]["cards"] == 80
    assert accept(table, cmd="flip", card="G7")["turn"] == "Bob"


def test_DL4_in_dealt_mode_the_launcher_deals_the_same_hands_as_the_dealer():
    import random

    from unox.rules.game import Game

    by_hand, by_launcher = (Game(["Ann", "Bob", "Cy"], mode="dealt", rng=random.Random(4), ruleset="classic")
                            for _ in range(2))
    by_hand.deal("Ann")
    by_launcher.deal("Ann", by_launcher=True)
    for player in ("Bob", "Cy", "Ann"):
        by_launcher.draw(player, 7)
    assert {p: by_hand.hand(p) for p in by_hand.players} == {p: by_launcher.hand(p) for p in by_hand.players}


def test_DL4_extreme_deals_by_hand():
    extreme = physical_table("extreme")
    assert send(extreme, cmd="deal", dealer="Ann", launcher=True)["error"]["code"] == "bad_request"
