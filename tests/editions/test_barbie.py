"""Barbie UNO (seed 000) through the table protocol: one test or more per BA- rule ID of docs/rules.md,
named after it, plus the decisions its sheet leaves to classic (two players, UNO penalty). Physical tables
report what happened; dealt tables let the engine check what it knows (hands, gifts, no declining)."""

from __future__ import annotations

import json
from collections import Counter

from unox.rules.editions import get_rules
from unox.rules.setup import pick_dealer

from .kit import accept, dealt_table, give, hand, physical_table, refuse, send, unox

BARBIE = get_rules("barbie")
AFTER_FLIP = 112 - 4 * 7 - 1  # four players
PINKS = ["P1", "P2", "P3", "P4", "P5", "P6", "P8"]


def started(first="T7", color=None, **options):
    return physical_table("barbie", first=first, color=color, **options)


def beachcomber(table, player="Bob", color="pink"):
    return accept(table, cmd="play", player=player, card="WB", color=color)


# --- the deck and set-up -----------------------------------------------------------------------------------


def test_BA_D1_the_deck_is_112_cards_in_four_colours_with_4_beachcombers():
    counts = Counter(BARBIE.deck)
    assert len(BARBIE.deck) == 112
    for color in "TPGO":
        assert counts[f"{color}0"] == 1 and all(counts[f"{color}{n}"] == 2 for n in range(1, 10))
        assert counts[f"{color}+2"] == counts[f"{color}R"] == counts[f"{color}S"] == 2
    assert counts["W"] == counts["W+4"] == counts["WB"] == 4
    table = started()
    assert table.state()["launcher"]["cards"] == AFTER_FLIP
    refuse(table, "bad_card", cmd="play", player="Bob", card="R5")  # no red in Barbie UNO
    refuse(table, "bad_color", cmd="play", player="Bob", card="W", color="red")
    assert accept(table, cmd="play", player="Bob", card="W", color="turquoise")["color"] == "turquoise"
    assert accept(table, cmd="play", player="Cy", card="W", color="O")["color"] == "orange"


def test_BA_S1_the_card_of_highest_point_value_deals():
    assert pick_dealer({"Ann": "T9", "Bob": "P+2", "Cy": "G5"}, BARBIE).dealer == "Bob"  # 20 beats 9
    assert pick_dealer({"Ann": "T9", "Bob": "P+2", "Cy": "WB"}, BARBIE).dealer == "Cy"  # 50
    assert pick_dealer({"Ann": "W", "Bob": "W+4", "Cy": "O1"}, BARBIE).redraw == ("Ann", "Bob")
    classic = get_rules("classic")
    assert pick_dealer({"Ann": "R9", "Bob": "R+2"}, classic).dealer == "Ann"  # classic counts numbers only


def test_BA_S4_a_first_wild_wild_draw_four_or_beachcomber_goes_back_and_another_is_turned_up():
    table = physical_table("barbie")
    accept(table, cmd="deal", dealer="Ann")
    for wild in ("W", "W+4", "WB"):  # no colour is named: the card goes back at once (D9)
        state = accept(table, cmd="flip", card=wild)
        assert state["phase"] == "flip" and state["owed"] == [] and state["top"] is None
        assert state["launcher"]["cards"] == AFTER_FLIP + 1 and state["discard"] == 0
    state = accept(table, cmd="flip", card="G2")
    assert state["turn"] == "Bob" and state["top"] == "G2" and state["launcher"]["cards"] == AFTER_FLIP


def test_BA_S4_a_first_reverse_lets_the_dealer_start_and_a_first_draw_two_costs_the_left_player_2():
    state = started("PR").state()
    assert state["turn"] == "Ann" and state["direction"] == "right"
    state = started("O+2").state()
    assert state["owed"] == [{"player": "Bob", "draws": 2}] and state["plays_next"] == "Cy"


def test_BA_S4_dealt_mode_turns_up_cards_until_one_that_stays():
    table = dealt_table("barbie", flip=("WB", "W", "T7"))
    state = table.state()
    assert state["top"] == "T7" and state["turn"] == "Bob" and state["discard"] == 1
    assert state["launcher"]["cards"] == AFTER_FLIP  # the two wilds went back in


# --- a turn -------------------------------------------------------------------------------------------------


def test_BA_T1_a_player_holding_a_playable_card_must_play_it():
    table = dealt_table("barbie", flip=("T7",), hands={"Bob": ["T1", "P2", "P3", "P4", "P5", "P6", "P8"]})
    refuse(table, "must_play", cmd="draw", player="Bob", fired=1)
    state = accept(table, cmd="play", player="Bob", card="T1")
    assert state["turn"] == "Cy"


def test_BA_T1_a_drawn_card_that_can_be_played_is_played():
    table = dealt_table("barbie", flip=("T7",), hands={"Bob": PINKS}, then=["T5"])
    accept(table, cmd="draw", player="Bob", fired=1)
    refuse(table, "must_play", cmd="pass", player="Bob")
    assert accept(table, cmd="play", player="Bob", card="T5")["turn"] == "Cy"


def test_BA_T1_a_drawn_card_that_cannot_be_played_is_kept():
    table = dealt_table("barbie", flip=("T7",), hands={"Bob": PINKS}, then=["O5"])
    accept(table, cmd="draw", player="Bob", fired=1)
    state = accept(table, cmd="pass", player="Bob")
    assert state["turn"] == "Cy" and "O5" in hand(table, "Bob")


def test_BA_T1_classic_still_lets_a_player_decline():
    table = dealt_table("classic", hands={"Bob": ["G1", "R2", "R3", "R4", "R5", "R6", "R8"]}, then=["G5"])
    accept(table, cmd="draw", player="Bob", fired=1)
    accept(table, cmd="pass", player="Bob")


# --- the Beachcomber ---------------------------------------------------------------------------------------


def test_BA_A1_the_beachcomber_names_a_colour_then_gives_up_to_one_card_per_colour_to_one_player():
    table = started("T7")
    state = beachcomber(table)
    assert state["color"] == "pink" and state["top"] == "WB"
    assert state["pending"] == {"cmd": "gift", "player": "Bob", "why": "Beachcomber (BA-A1)"}
    assert table.prompt() == 'Bob sends {"cmd":"gift"}: Beachcomber (BA-A1).'
    refuse(table, "pending_choice", cmd="play", player="Cy", card="P5")
    refuse(table, "pending_choice", cmd="draw", player="Cy", fired=1)
    refuse(table, "pending_choice", cmd="gift", player="Cy", to="Dee", cards=["T1"])  # Bob's gift waits
    refuse(table, "bad_gift", cmd="gift", player="Bob", to="Dee", cards=["T1", "W"])
    refuse(table, "bad_gift", cmd="gift", player="Bob", to="Dee", cards=["T1", "T2"])
    refuse(table, "bad_target", cmd="gift", player="Bob", to="Bob", cards=["T1"])
    refuse(table, "missing_target", cmd="gift", player="Bob", cards=["T1"])
    refuse(table, "bad_card", cmd="gift", player="Bob", to="Dee", cards=["R1"])
    state = accept(table, cmd="gift", player="Bob", to="Dee", cards=["T3", "P5", "G1", "O+2"])
    assert state["hands"] == {"Ann": 7, "Bob": 2, "Cy": 7, "Dee": 11}
    assert state["pending"] is None and state["turn"] == "Cy" and state["color"] == "pink"
    refuse(table, "nothing_to_give", cmd="gift", player="Bob", to="Dee", cards=["T4"])


def test_BA_A1_a_gift_may_be_nothing_and_then_the_next_player_plays():
    table = started("T7")
    beachcomber(table)
    state = accept(table, cmd="gift", player="Bob", cards=[])
    assert state["hands"]["Bob"] == 6 and state["turn"] == "Cy" and state["pending"] is None


def test_BA_A1_a_physical_gift_gives_at_most_the_cards_held():
    table = started("T7", players=("Ann", "Bob"))
    for card in ("T1", "T2", "T3", "T4", "T5"):
        accept(table, cmd="play", player="Bob", card=card)
        accept(table, cmd="play", player="Ann", card=card)
    accept(table, cmd="uno", player="Bob")
    beachcomber(table)  # Bob holds 1 card
    error = refuse(table, "bad_gift", cmd="gift", player="Bob", to="Ann", cards=["T6", "P6"])
    assert "Bob holds only 1 card: give at most" in error["message"]  # not "1 cards"


def test_BA_A1_in_dealt_mode_the_engine_checks_the_hand_and_moves_the_cards():
    table = dealt_table("barbie", hands={"Bob": ["WB", "T1", "T2", "P3", "G4", "O5", "W"]})
    beachcomber(table, color="green")
    refuse(table, "not_in_hand", cmd="gift", player="Bob", to="Cy", cards=["T9"])
    cy_before = hand(table, "Cy")
    state = accept(table, cmd="gift", player="Bob", to="Cy", cards=["T2", "P3", "O5"])
    assert sorted(hand(table, "Bob")) == sorted(["T1", "G4", "W"])
    assert sorted(hand(table, "Cy")) == sorted([*cy_before, "T2", "P3", "O5"])
    assert state["hands"]["Cy"] == 10 and state["turn"] == "Cy"


def test_BA_A1_a_wrong_beachcomber_taken_back_leaves_no_gift_due():
    table = started("T7")
    beachcomber(table)
    state = accept(table, cmd="penalty", player="Bob", kind="wrong_card")
    assert state["pending"] is None and state["top"] == "T7" and state["hands"]["Bob"] == 7
    refuse(table, "nothing_to_give", cmd="gift", player="Bob", to="Cy", cards=["T1"])


def test_BA_A1_with_no_coloured_card_left_in_dealt_mode_no_gift_is_asked():
    table = dealt_table("barbie", hands={"Bob": ["WB", "W"]})
    give(table, "Bob", ["WB", "W", "W+4"])
    state = beachcomber(table)
    assert state["pending"] is None and state["turn"] == "Cy"


def test_BA_A2_giving_away_the_last_cards_goes_out_when_uno_was_called_before_the_gift():
    table = dealt_table("barbie", flip=("T7",))
    give(table, "Bob", ["WB", "T3", "P5"])
    beachcomber(table)
    accept(table, cmd="uno", player="Bob")  # before the gift leaves one card
    state = accept(table, cmd="gift", player="Bob", to="Cy", cards=["T3", "P5"])
    assert state["last_hand"]["went_out"] == "Bob" and state["phase"] in ("deal", "game_over")
    assert state["last_hand"]["points"]["Cy"] > 0 and state["last_hand"]["points"]["Bob"] == 0


def test_BA_A2_without_uno_the_gift_costs_2_draws_and_the_player_is_not_out():
    table = started("T7")
    for card in ("T1", "T2", "T3", "T4"):  # Bob comes down to 3 cards
        for player in ("Bob", "Cy", "Dee", "Ann"):
            accept(table, cmd="play", player=player, card=card)
    beachcomber(table)
    state = accept(table, cmd="gift", player="Bob", to="Dee", cards=["T9", "P9"])
    assert state["hands"]["Bob"] == 0 and state["went_out"] is None and state["phase"] == "turn"
    assert state["owed"] == [{"player": "Bob", "draws": 2}] and state["plays_next"] == "Cy"
    refuse(table, "catch_window_closed", cmd="catch", player="Bob", by="Cy")  # no catch is needed (D12)
    state = accept(table, cmd="draw", player="Bob", fired=2)
    assert state["hands"]["Bob"] == 2 and state["turn"] == "Cy"


def test_BA_A2_uno_called_with_the_beachcomber_itself_counts_for_the_gift_of_the_last_card():
    table = dealt_table("barbie", flip=("T7",))
    give(table, "Bob", ["WB", "T3"])
    accept(table, cmd="uno", player="Bob")
    beachcomber(table)
    state = accept(table, cmd="gift", player="Bob", to="Cy", cards=["T3"])
    assert state["last_hand"]["went_out"] == "Bob"


def test_BA_A2_a_player_caught_before_the_gift_draws_only_the_catch():
    table = dealt_table("barbie", flip=("T7",))
    give(table, "Bob", ["WB", "T3"])
    beachcomber(table)
    accept(table, cmd="catch", player="Bob", by="Dee")
    state = accept(table, cmd="gift", player="Bob", to="Cy", cards=["T3"])
    assert state["owed"] == [{"player": "Bob", "draws": 2}] and state["went_out"] is None


def test_BA_A2_a_gift_that_leaves_one_card_without_uno_can_be_caught():
    table = dealt_table("barbie", flip=("T7",))
    give(table, "Bob", ["WB", "T3", "P5", "G1"])
    beachcomber(table)
    state = accept(table, cmd="gift", player="Bob", to="Cy", cards=["T3", "P5"])
    assert state["uno"] == ["Bob"]
    state = accept(table, cmd="catch", player="Bob", by="Ann")
    assert state["owed"] == [{"player": "Bob", "draws": 2}]


def test_BA_A2_uno_is_not_due_for_someone_without_a_gift():
    table = started("T7")
    beachcomber(table)
    refuse(table, "uno_not_due", cmd="uno", player="Dee")


def test_BA_G1_a_beachcomber_left_in_a_hand_scores_50():
    assert BARBIE.cards["WB"].points == 50
    table = dealt_table("barbie", flip=("T7",))
    give(table, "Bob", ["T3"])
    give(table, "Cy", ["WB"])
    give(table, "Dee", ["P+2", "O4"])
    give(table, "Ann", ["G0"])
    accept(table, cmd="uno", player="Bob")
    state = accept(table, cmd="play", player="Bob", card="T3")
    assert state["last_hand"]["went_out"] == "Bob" and state["last_hand"]["gained"]["Bob"] == 50 + 24


# --- what the sheet leaves to classic ---------------------------------------------------------------------


def test_BA_two_players_rule_3_a_draw_two_gives_the_turn_back_after_the_draw():
    table = started("T7", players=("Ann", "Bob"), variant="two-player")
    state = accept(table, cmd="play", player="Bob", card="T+2")
    assert state["owed"] == [{"player": "Ann", "draws": 2}] and state["plays_next"] == "Bob"
    assert accept(table, cmd="draw", player="Ann", fired=2)["turn"] == "Bob"


def test_BA_uno_penalty_is_2_draws():
    table = started("T7")
    for card in ("T1", "T2", "T3", "T4", "T5"):
        for player in ("Bob", "Cy", "Dee", "Ann"):
            accept(table, cmd="play", player=player, card=card)
    accept(table, cmd="play", player="Bob", card="T6")
    state = accept(table, cmd="catch", player="Bob", by="Cy")
    assert state["owed"] == [{"player": "Bob", "draws": 2}]


def test_BA_partners_score_the_opponents_cards_not_their_own():
    table = dealt_table("barbie", flip=("T7",), variant="partners")
    assert table.state()["teams"] == [["Ann", "Cy"], ["Bob", "Dee"]]
    give(table, "Bob", ["T3"])
    give(table, "Dee", ["P9"])
    give(table, "Ann", ["G1", "O2"])
    give(table, "Cy", ["WB"])
    accept(table, cmd="uno", player="Bob")
    state = accept(table, cmd="play", player="Bob", card="T3")
    assert state["last_hand"]["gained"] == {"Bob": 53, "Dee": 53}  # Ann's 3 and Cy's 50, not Dee's 9


def test_BA_last_card_draw_two_the_drawn_cards_count_for_the_winner():
    table = dealt_table("barbie", flip=("T7",), then=["P9", "O8"])
    give(table, "Bob", ["T+2"])
    give(table, "Cy", ["G1"])
    accept(table, cmd="uno", player="Bob")
    state = accept(table, cmd="play", player="Bob", card="T+2")
    assert state["phase"] == "turn" and state["owed"] == [{"player": "Cy", "draws": 2}]
    state = accept(table, cmd="draw", player="Cy", fired=2)
    assert state["last_hand"]["went_out"] == "Bob" and state["last_hand"]["points"]["Cy"] == 1 + 9 + 8


def test_BA_empty_pile_the_top_card_stays_and_the_rest_is_reloaded():
    table = started("T7")
    for player, card in (("Bob", "T1"), ("Cy", "T2"), ("Dee", "T3")):
        accept(table, cmd="play", player=player, card=card)
    state = accept(table, cmd="reload")
    assert state["discard"] == 1 and state["top"] == "T3" and state["launcher"]["cards"] == AFTER_FLIP + 3


# --- bots: unox sim and unox demo -------------------------------------------------------------------------


def test_BA_A1_unox_sim_rules_barbie_bots_play_beachcombers_and_give():
    done = unox("sim", "--rules", "barbie", "--games", "4", "--players", "3", "--bot", "mix", "--seed", "5",
                "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["rules"] == "barbie" and summary["games"] == 4
    assert sum(summary["wins_by_seat"].values()) == 4 and summary["hands"] >= 4
    assert summary["choices"] > 0 and summary["challenges"] > 0  # gifts and Wild Draw Four challenges
    text = unox("sim", "--rules", "barbie", "--games", "2", "--players", "2", "--variant", "two-player",
                "--seed", "5", "--silent")
    assert text.returncode == 0, text.stderr
    assert "barbie rules (two-player)" in text.stdout and "special choices:" in text.stdout


def test_BA_A1_unox_demo_rules_barbie_shows_a_whole_game_with_gifts():
    done = unox("demo", "--rules", "barbie", "--plain", "--seed", "1", "--players", "3")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Barbie UNO" in out.splitlines()[0]
    assert "plays WB, colour " in out and "(BA-A1)." in out and "Game over:" in out
    assert "presses" not in out


def test_bots_play_every_barbie_variant_to_the_end():
    from unox.simulation import play_game

    for players, variant in ((2, "two-player"), (4, "partners"), (4, "rotation"), (3, "elimination")):
        bots = ["random", "heuristic"] * (players // 2) + ["random"] * (players % 2)
        record = play_game(players * 11, bots, ruleset="barbie", variant=variant, target=200)
        assert record.winner and record.plays > 0 and record.choices > 0, variant


def test_BA_A1_the_protocol_docs_hold_a_barbie_session_with_a_gift():
    from .test_protocol_docs import SESSIONS

    sessions = dict(SESSIONS)
    assert '"cmd":"gift"' in sessions["barbie"] and '"cmd":"flip","fired":1' in sessions["barbie"]


def test_BA_A1_the_heuristic_bot_plays_a_beachcomber_and_gives_its_best_card_of_each_colour():
    import random

    from unox.bots import make_bot

    table = dealt_table("barbie", flip=("T7",))
    give(table, "Bob", ["WB", "T1", "T8", "P9", "G6", "O+2"])
    give(table, "Dee", ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "G1"])
    bot = make_bot("heuristic", random.Random(1))
    play = bot.choose(table.game, "Bob")
    assert play.card == "WB"
    accept(table, cmd="play", player="Bob", **{k: v for k, v in play._asdict().items() if v is not None})
    requests = table.game.rules.bot_requests(table.game, bot, "Bob")
    gift = {"cmd": "gift", "player": "Bob", "to": "Dee", "cards": ["T8", "P9", "G6", "O+2"]}
    assert requests == [{"cmd": "uno", "player": "Bob"}, gift]  # one card left: UNO first (BA-A2)
    accept(table, **requests[0])
    state = accept(table, **requests[1])
    assert hand(table, "Bob") == ["T1"] and state["hands"]["Dee"] == 13 and state["uno"] == []
    assert send(table, cmd="catch", player="Bob", by="Cy")["error"]["code"] == "called_uno"


def test_BA_A1_a_gift_is_journalled_undone_and_resumed(tmp_path):
    from unox.table.journal import Journal
    from unox.table.runtime import Table

    path = tmp_path / "barbie.db"
    table = started("T7", journal=Journal(path))
    beachcomber(table)
    accept(table, cmd="gift", player="Bob", to="Cy", cards=["T1", "G2"])
    state = accept(table, cmd="undo")
    assert state["pending"]["player"] == "Bob" and state["hands"] == {"Ann": 7, "Bob": 6, "Cy": 7, "Dee": 7}
    accept(table, cmd="gift", player="Bob", to="Dee", cards=["O3"])
    table.journal.close()
    resumed = Table.resume(path)
    state = resumed.state()
    assert state["pending"] is None and state["hands"] == {"Ann": 7, "Bob": 5, "Cy": 7, "Dee": 8}
    assert state["turn"] == "Cy" and state["color"] == "pink"
