"""UNO Casting Call (seed 001) through the table protocol: one or more tests per rule ID of docs/rules.md
(CC-..., with D13-D16), named after it. Physical tables say which card came out of the launcher; dealt tables
let the engine turn the launcher's next cards and check every card's whereabouts."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from unox.bots import make_bot
from unox.rules.editions import get_rules
from unox.table.journal import Journal
from unox.table.runtime import Table

from .kit import accept, dealt_table, give, hand, physical_table, refuse, send, unox

CC = get_rules("casting-call")
AFTER_FLIP = 112 - 4 * 7 - 1  # four players


def started(first="G7", **options):
    return physical_table("casting-call", first=first, **options)


def casting(table, player="Bob", color="red"):
    """`player` (whose turn it is) plays a Casting Call."""
    return accept(table, cmd="play", player=player, card="WC", color=color)


def turn_all(table, cards, player="Bob"):
    """A physical table: `player` turns up `cards`, one request each; the last state."""
    state = None
    for card in cards:
        state = accept(table, cmd="turn", player=player, card=card, fired=1)
    return state


def all_cards(table) -> Counter:
    """Dealt mode: every card the engine knows of (hands, launcher, pile, turned), by code."""
    game = table.game
    codes = [c.code for h in game.cards.hands.values() for c in h]
    codes += [c.code for c in game.cards.stack] + [c.code for c in game.cards.piled]
    codes += (game.pending or {}).get("turned", [])
    return Counter(codes)


# --- the deck and the first card ------------------------------------------------------------------------


def test_CC_D1_the_deck_is_the_108_classic_cards_and_4_casting_calls():
    counts = Counter(CC.deck)
    classic = Counter(get_rules("classic").deck)
    assert len(CC.deck) == 112 and counts["WC"] == 4
    assert counts - Counter({"WC": 4}) == classic
    assert CC.cards["WC"].color is None and CC.cards["WC"].kind == "casting_call"
    table = started()
    assert table.state()["launcher"]["cards"] == AFTER_FLIP and table.state()["rules"] == "casting-call"
    refuse(table, "bad_card", cmd="play", player="Bob", card="WB")  # Barbie's Beachcomber is not in it


def test_CC_S4_D13_a_first_casting_call_goes_back_into_the_launcher_and_another_is_turned_up():
    table = physical_table("casting-call")
    accept(table, cmd="deal", dealer="Ann")
    state = accept(table, cmd="flip", card="WC", color="red")
    assert state["phase"] == "flip" and state["pending"] is None
    assert state["launcher"]["cards"] == AFTER_FLIP + 1
    state = accept(table, cmd="flip", card="G7")
    assert state["phase"] == "turn" and state["turn"] == "Bob" and state["top"] == "G7"


def test_CC_S4_D13_dealt_mode_the_casting_call_goes_under_the_stack():
    table = dealt_table("casting-call", flip=("WC", "Y4"), color="blue")
    state = table.state()
    assert state["top"] == "Y4" and state["turn"] == "Bob" and state["discard"] == 1
    assert table.game.cards.stack[0].code == "WC" and all_cards(table) == Counter(CC.deck)


# --- CC-A1: a wild, then cards turned up until one matches -----------------------------------------------


def test_CC_A1_casting_call_is_a_wild_that_goes_on_anything_and_its_player_names_the_colour():
    table = started("B5")
    refuse(table, "missing_color", cmd="play", player="Bob", card="WC")
    state = casting(table, color="yellow")
    assert state["top"] == "WC" and state["color"] == "yellow" and state["hands"]["Bob"] == 6
    assert state["pending"] == {"cmd": "turn", "player": "Bob", "why": state["pending"]["why"], "turned": [],
                                "out": False}  # issue 25: a front end fires first while out is false
    assert "CC-A1" in state["pending"]["why"]


def test_CC_A1_cards_are_turned_up_one_at_a_time_until_one_matches_an_earlier_one_by_number():
    table = started()
    casting(table)
    for i, card in enumerate(["R5", "G3", "B+2"]):
        state = accept(table, cmd="turn", player="Bob", card=card, fired=1)
        assert state["pending"]["cmd"] == "turn" and len(state["pending"]["turned"]) == i + 1
        assert state["launcher"]["cards"] == AFTER_FLIP - i - 1  # each one fired from the launcher (DL3)
    state = accept(table, cmd="turn", player="Bob", card="Y3", fired=1)  # matches G3, turned before it
    assert state["pending"]["cmd"] == "share" and state["pending"]["turned"] == ["R5", "G3", "B+2", "Y3"]
    refuse(table, "pending_choice", cmd="turn", player="Bob", card="Y9", fired=1)  # no more turning


def test_CC_A1_D14_a_match_by_colour_or_by_symbol_with_any_earlier_card():
    for cards in (["R5", "G3", "B+2", "R9"], ["R5", "GS", "B+2", "YS"], ["R+2", "G3", "B4", "Y+2"]):
        table = started()
        casting(table)
        assert turn_all(table, cards[:3])["pending"]["cmd"] == "turn"
        assert turn_all(table, cards[3:])["pending"]["cmd"] == "share", cards


def test_CC_A1_D14_a_wild_matches_only_a_wild_of_the_same_kind():
    table = started()
    casting(table)
    state = turn_all(table, ["W", "W+4", "WC", "R1", "G2"])  # no two alike: wilds of three kinds
    assert state["pending"]["cmd"] == "turn"
    state = accept(table, cmd="turn", player="Bob", card="W+4", fired=1)
    assert state["pending"]["cmd"] == "share" and len(state["pending"]["turned"]) == 6


def test_CC_A1_while_cards_are_turned_every_other_move_waits():
    table = started()
    casting(table)
    accept(table, cmd="turn", player="Bob", card="R5", fired=1)
    refuse(table, "pending_choice", cmd="play", player="Cy", card="R7")
    refuse(table, "pending_choice", cmd="draw", player="Cy", fired=1)
    refuse(table, "pending_choice", cmd="pass", player="Cy")
    refuse(table, "pending_choice", cmd="turn", player="Cy", card="R6", fired=1)  # only Bob turns
    refuse(table, "pending_choice", cmd="share", player="Bob", to="Cy")  # not before a match
    assert table.game.draw_due("Cy") == 0  # the launcher's button would fire nothing for anyone


def test_CC_A1_turn_and_share_are_refused_with_no_casting_call_waiting():
    table = started()
    refuse(table, "choice_not_due", cmd="turn", player="Bob", card="R5", fired=1)
    refuse(table, "choice_not_due", cmd="share", player="Bob", deal=True)
    classic = physical_table("classic", first="G7")
    refuse(classic, "unknown_cmd", cmd="turn", player="Bob", card="R5", fired=1)


def test_CC_A1_a_physical_table_names_each_card_and_fires_one_at_a_time():
    table = started()
    casting(table)
    refuse(table, "bad_card", cmd="turn", player="Bob", card="Q9", fired=1)
    refuse(table, "bad_fired", cmd="turn", player="Bob", card="R5", fired=2)
    refuse(table, "bad_fired", cmd="turn", player="Bob", card="R5", fired=-1)
    refuse(table, "bad_turned_card", cmd="turn", player="Bob", fired=0)  # the launcher still holds cards
    refuse(table, "bad_turned_card", cmd="turn", player="Bob", card="R5", fired=0)
    refuse(table, "bad_request", cmd="turn", player="Bob", card="R5")  # no launcher: say what it fired
    # issue 25 item 9: at a table the card comes out first (fired 1, no card), then it is named (fired 0)
    launcher = table.state()["launcher"]["cards"]
    state = accept(table, cmd="turn", player="Bob", fired=1)
    assert state["pending"]["out"] is True and state["pending"]["turned"] == []
    assert state["launcher"]["cards"] == launcher - 1
    refuse(table, "bad_turned_card", cmd="turn", player="Bob", fired=1)  # it is out: say which it is
    refuse(table, "bad_turned_card", cmd="turn", player="Bob", card="R5", fired=1)
    state = accept(table, cmd="turn", player="Bob", card="R5", fired=0)
    assert state["pending"]["turned"] == ["R5"] and state["pending"]["out"] is False
    assert state["launcher"]["cards"] == launcher - 1
    state = accept(table, cmd="turn", player="Bob", card="B5", fired=1)  # both at once still works
    assert state["pending"]["cmd"] == "share" and state["pending"]["turned"] == ["R5", "B5"]


def test_CC_A1_dealt_mode_the_engine_turns_the_launchers_next_cards():
    table = dealt_table("casting-call", then=["B1", "Y2", "B+2"])
    give(table, "Bob", ["WC", "G1", "G2"])
    casting(table)
    refuse(table, "bad_turned_card", cmd="turn", player="Bob", card="B1", fired=1)  # the engine knows
    refuse(table, "bad_fired", cmd="turn", player="Bob", fired=0)  # the launcher holds cards: turn one
    launcher = table.state()["launcher"]["cards"]
    assert accept(table, cmd="turn", player="Bob", fired=1)["pending"]["turned"] == ["B1"]
    accept(table, cmd="turn", player="Bob", fired=1)
    state = accept(table, cmd="turn", player="Bob", fired=1)  # B+2 matches B1 by colour
    assert state["pending"] == {"cmd": "share", "player": "Bob", "why": state["pending"]["why"],
                                "turned": ["B1", "Y2", "B+2"]}
    assert state["launcher"]["cards"] == launcher - 3 and all_cards(table) == Counter(CC.deck)


def test_CC_A1_C_R1_an_empty_launcher_is_reloaded_between_turned_cards():
    table = started()
    accept(table, cmd="play", player="Bob", card="G3")
    accept(table, cmd="play", player="Cy", card="G4")
    table.game.order.turn = table.game.order.index["Dee"]
    table.game.cards.launcher = 1  # the table's count: one card left inside
    casting(table, "Dee")
    accept(table, cmd="turn", player="Dee", card="R5", fired=1)
    refuse(table, "bad_turned_card", cmd="turn", player="Dee", fired=0)  # empty: reload, then turn on
    state = accept(table, cmd="reload")
    assert state["launcher"]["cards"] == 3 and state["top"] == "WC" and state["pending"]["cmd"] == "turn"
    state = accept(table, cmd="turn", player="Dee", card="R9", fired=1)
    assert state["pending"]["cmd"] == "share" and state["launcher"]["cards"] == 2


def test_CC_A1_when_no_card_is_left_anywhere_the_cards_turned_so_far_are_shared():
    table = physical_table("casting-call", players=("Ann", "Bob"), first="G7")
    game = table.game
    game.cards.launcher, game.cards.sizes["Ann"] = 1, 110 - 7  # every other card is in Ann's hand
    casting(table)
    accept(table, cmd="reload")  # the Casting Call's own pile: G7 goes back in
    assert accept(table, cmd="turn", player="Bob", card="R5", fired=1)["pending"]["cmd"] == "turn"
    accept(table, cmd="turn", player="Bob", card="Y1", fired=1)
    lines: list[str] = []
    table.listeners.append(lines.append)
    state = accept(table, cmd="turn", player="Bob", fired=0)  # nothing left to turn up
    assert lines == ["Every card is in a hand, nothing is left to turn up (2 turned)."]
    assert state["pending"]["cmd"] == "share" and state["pending"]["turned"] == ["R5", "Y1"]
    assert accept(table, cmd="share", player="Bob", deal=True)["hands"]["Ann"] == 105


def test_CC_A1_DL3_with_the_simulated_launcher_each_turned_card_is_fired_and_counted(sim, tmp_path):
    launcher = sim(f"seed=4&cards={AFTER_FLIP}&jam=0&double=0&stuck=0")
    journal = Journal(tmp_path / "cc.db")
    table = started(launcher=launcher, journal=journal)
    casting(table)
    ejected = launcher.device.model.ejected
    assert send(table, cmd="draw", player="Cy")["ok"] is False  # a draw fires nothing while Bob turns
    # issue 25 item 9: as at a table, the card comes out first (no card named: the launcher fires 1) ...
    reply = send(table, cmd="turn", player="Bob")
    assert reply["ok"] and reply["launcher"] == {"requested": 1, "fired": 1, "fault": None}
    assert launcher.device.model.ejected == ejected + 1 and reply["state"]["pending"]["out"] is True
    reply = send(table, cmd="turn", player="Bob", card="R5")  # ... then it is named: nothing more fired
    assert reply["ok"] and launcher.device.model.ejected == ejected + 1
    assert reply["state"]["pending"]["turned"] == ["R5"]
    assert reply["state"]["launcher"]["cards"] == AFTER_FLIP - 1
    for i, card in enumerate(["G3", "B+2", "Y3"], start=1):
        reply = send(table, cmd="turn", player="Bob", card=card)  # named as it fires: the launcher fires 1
        assert reply["ok"] and reply["launcher"] == {"requested": 1, "fired": 1, "fault": None}
        assert launcher.device.model.ejected == ejected + i + 1  # exactly one more, counted by the beam
        assert reply["state"]["launcher"]["cards"] == AFTER_FLIP - i - 1
        assert reply["state"]["pending"]["turned"][-1] == card  # the table reports which card it is
    assert send(table, cmd="turn", player="Bob", card="R1")["ok"] is False  # matched: nothing more fired
    assert launcher.device.model.ejected == ejected + 4
    accept(table, cmd="share", player="Bob", to="Dee")
    turns = [r for _, r in journal.rows() if r["cmd"] == "turn"]
    assert turns == [{"cmd": "turn", "player": "Bob", "fired": 1},
                     {"cmd": "turn", "player": "Bob", "card": "R5", "fired": 0},
                     *({"cmd": "turn", "player": "Bob", "card": c, "fired": 1} for c in ["G3", "B+2", "Y3"])]


def test_CC_A1_DL3_the_table_tells_which_card_came_out():
    table = started()
    lines: list[str] = []
    table.listeners.append(lines.append)
    casting(table)
    turn_all(table, ["R5", "R9"])
    accept(table, cmd="share", player="Bob", to="Cy")
    assert "Bob turns up R5 from the launcher (CC-A1)." in lines
    assert any(line.startswith("Bob turns up R9") and "matches" in line for line in lines)
    assert "Bob gives R5, R9 to Cy (CC-A2)." in lines


# --- CC-A2: the turned cards are shared out -------------------------------------------------------------


def test_CC_A2_all_the_turned_cards_go_to_one_other_player_and_the_next_player_plays():
    table = started()
    casting(table)
    turn_all(table, ["R5", "G3", "Y5"])
    state = accept(table, cmd="share", player="Bob", to="Dee")
    assert state["hands"] == {"Ann": 7, "Bob": 6, "Cy": 7, "Dee": 10}
    assert state["turn"] == "Cy" and state["pending"] is None  # the next player, not skipped
    turned = ["R5", "G3", "Y5"]
    assert state["casting_call"] == {"player": "Bob", "turned": turned, "given": {"Dee": turned}}
    accept(table, cmd="play", player="Cy", card="R7")


def test_CC_A2_D15_dealt_one_at_a_time_to_the_others_from_the_next_player_in_the_direction_of_play():
    table = dealt_table("casting-call", then=["R1", "G2", "B3", "Y4", "R+2"])
    give(table, "Bob", ["GR", "WC", "G5"])
    accept(table, cmd="play", player="Bob", card="GR")  # play goes right: Ann, Dee, Cy
    table.game.order.turn = table.game.order.index["Bob"]  # Bob plays again (as after a two-player Reverse)
    before = {p: hand(table, p) for p in ("Ann", "Cy", "Dee")}
    casting(table)
    for _ in range(5):
        state = accept(table, cmd="turn", player="Bob", fired=1)
    state = accept(table, cmd="share", player="Bob", deal=True)
    given = {"Ann": ["R1", "Y4"], "Dee": ["G2", "R+2"], "Cy": ["B3"]}
    assert state["casting_call"]["given"] == given  # shares differ by at most one
    for player, cards in given.items():
        assert hand(table, player) == before[player] + cards
    assert state["turn"] == "Ann" and all_cards(table) == Counter(CC.deck)


def test_CC_A2_a_share_names_one_other_player_or_deals():
    table = started()
    casting(table)
    turn_all(table, ["R5", "R6"])
    refuse(table, "bad_share", cmd="share", player="Bob")
    refuse(table, "bad_share", cmd="share", player="Bob", deal=False)
    refuse(table, "bad_share", cmd="share", player="Bob", to="Cy", deal=True)
    refuse(table, "bad_share", cmd="share", player="Bob", to="Bob")
    refuse(table, "unknown_player", cmd="share", player="Bob", to="Zed")
    refuse(table, "pending_choice", cmd="share", player="Cy", to="Dee")  # only Bob shares
    assert accept(table, cmd="share", player="Bob", to="Ann", deal=False)["hands"]["Ann"] == 9


def test_CC_A2_C_2P_with_two_players_dealing_gives_the_other_player_everything():
    table = physical_table("casting-call", players=("Ann", "Bob"), first="G7", variant="two-player")
    casting(table)
    turn_all(table, ["R5", "Y2", "B7", "G7"])
    state = accept(table, cmd="share", player="Bob", deal=True)
    assert state["hands"] == {"Ann": 11, "Bob": 6} and state["turn"] == "Ann"


def test_CC_A2_C_U2_a_catch_during_the_turning_is_drawn_once_the_cards_are_shared():
    table = dealt_table("casting-call", then=["R1", "R2"])
    give(table, "Bob", ["WC", "G5"])
    casting(table)
    assert table.state()["uno"] == ["Bob"]
    state = accept(table, cmd="catch", player="Bob", by="Dee")
    assert state["owed"] == [{"player": "Bob", "draws": 2}] and state["pending"]["cmd"] == "turn"
    refuse(table, "pending_choice", cmd="draw", player="Bob", fired=2)  # the Casting Call first
    accept(table, cmd="turn", player="Bob", fired=1)
    accept(table, cmd="turn", player="Bob", fired=1)
    state = accept(table, cmd="share", player="Bob", to="Cy")
    assert state["owed"] == [{"player": "Bob", "draws": 2}] and state["step"] == "drawing"
    assert accept(table, cmd="draw", player="Bob", fired=2)["turn"] == "Cy"


def test_CC_A1_C_P2_a_casting_call_taken_back_before_any_card_is_turned_turns_nothing():
    table = started()
    casting(table)
    state = accept(table, cmd="penalty", player="Bob", kind="wrong_card")
    assert state["pending"] is None and state["top"] == "G7" and state["hands"]["Bob"] == 7
    other = started()
    casting(other)
    accept(other, cmd="turn", player="Bob", card="R5", fired=1)
    refuse(other, "nothing_to_take_back", cmd="penalty", player="Bob", kind="wrong_card")


# --- CC-A3: the last card -------------------------------------------------------------------------------


def test_CC_A3_a_last_casting_call_still_turns_and_gives_and_those_cards_count_in_the_scoring():
    table = dealt_table("casting-call", then=["R+2", "W", "R3"])
    game = table.game
    give(table, "Bob", ["WC"])
    state = casting(table)
    assert state["went_out"] == "Bob" and state["phase"] == "turn" and state["pending"]["cmd"] == "turn"
    for _ in range(3):
        accept(table, cmd="turn", player="Bob", fired=1)
    held = {p: sum(c.points for c in game.cards.hands[p]) for p in ("Ann", "Cy", "Dee")}
    state = accept(table, cmd="share", player="Bob", to="Cy")
    assert state["phase"] in ("deal", "game_over") and state["last_hand"]["went_out"] == "Bob"
    assert state["last_hand"]["points"]["Cy"] == held["Cy"] + 20 + 50 + 3
    assert state["last_hand"]["gained"] == {"Bob": sum(held.values()) + 73}


def test_CC_A3_a_physical_last_casting_call_ends_the_hand_after_the_share():
    table = started()
    table.game.cards.sizes["Bob"] = 1
    casting(table)
    state = turn_all(table, ["B2", "B5"])
    assert state["phase"] == "turn"
    state = accept(table, cmd="share", player="Bob", deal=True)
    assert state["phase"] == "hand_over" and state["hands"] == {"Ann": 7, "Bob": 0, "Cy": 8, "Dee": 8}


# --- CC-G1: scoring, challenge and penalties as classic (D16) ---------------------------------------------


def test_CC_G1_a_casting_call_left_in_a_hand_scores_50():
    assert CC.cards["WC"].points == 50
    table = dealt_table("casting-call", hands={"Cy": ["WC", "WC", "R5"]})
    give(table, "Bob", ["G1"])
    state = accept(table, cmd="play", player="Bob", card="G1")
    assert state["last_hand"]["points"]["Cy"] == 50 + 50 + 5 + sum(
        c.points for c in table.game.cards.hands["Cy"] if c.code not in ("WC", "R5"))


def test_CC_G1_D16_the_wild_draw_four_challenge_and_the_penalties_are_classics():
    assert CC.penalties == {"advice": 2, "wrong_card": 2, "uno": 2} and CC.challenge_draws == (4, 2)
    table = started()
    accept(table, cmd="play", player="Bob", card="W+4", color="red")
    state = accept(table, cmd="challenge", player="Cy", guilty=False)
    assert state["owed"] == [{"player": "Cy", "draws": 6}]
    state = accept(table, cmd="penalty", player="Ann", kind="advice")
    assert state["owed"][-1] == {"player": "Ann", "draws": 2}


# --- bots ---------------------------------------------------------------------------------------------------


def test_CC_A2_the_heuristic_bot_gives_everything_to_the_leader_and_never_to_its_partner():
    table = dealt_table("casting-call", variant="partners")
    game = table.game
    bot = make_bot("heuristic", random.Random(1))
    game.cards.hands["Dee"] = game.cards.hands["Dee"][:2]  # Dee, Bob's partner, leads
    game.cards.hands["Cy"] = game.cards.hands["Cy"][:4]
    assert bot.choose_share(game, "Bob") == "Cy"
    give(table, "Bob", ["WC", "G1", "G2"])
    casting(table)
    assert game.rules.bot_requests(game, bot, "Bob") == [{"cmd": "turn", "player": "Bob"}]


def test_CC_A2_the_random_bot_shares_every_way_there_is():
    table = dealt_table("casting-call")
    bot = make_bot("random", random.Random(2))
    choices = {bot.choose_share(table.game, "Bob") for _ in range(200)}
    assert choices == {"Ann", "Cy", "Dee", None}


# --- the commands, as a user meets them -------------------------------------------------------------------


def test_CC_A1_DL3_unox_table_with_the_sim_launcher_fires_one_card_per_turn():
    lines = [
        {"cmd": "deal", "dealer": "Ann"},
        {"cmd": "flip"},  # DL3: the launcher fires the first card, then the table says which
        {"cmd": "flip", "card": "G7"},
        {"cmd": "play", "player": "Bob", "card": "WC", "color": "red"},
        {"cmd": "turn", "player": "Bob", "card": "R5"},
        {"cmd": "turn", "player": "Bob", "card": "G5"},
        {"cmd": "share", "player": "Bob", "deal": True},
    ]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    done = unox("table", "--rules", "casting-call", "--players", "Ann,Bob,Cy,Dee",
                "--launcher", f"sim:?seed=1&cards={AFTER_FLIP + 1}", stdin=stdin)  # the first card inside
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(reply["ok"] for reply in replies), replies
    assert replies[1]["launcher"] == {"requested": 1, "fired": 1, "fault": None}  # the first card
    assert [r.get("launcher") for r in replies[4:6]] == [{"requested": 1, "fired": 1, "fault": None}] * 2
    assert [r["state"]["launcher"]["cards"] for r in replies[3:]] == [AFTER_FLIP, AFTER_FLIP - 1,
                                                                     AFTER_FLIP - 2, AFTER_FLIP - 2]
    final = replies[-1]["state"]
    assert final["casting_call"]["given"] == {"Cy": ["R5"], "Dee": ["G5"]} and final["turn"] == "Cy"


def test_CC_A2_unox_sim_rules_casting_call_reports_the_usual_statistics_and_the_special_cards():
    done = unox("sim", "--rules", "casting-call", "--games", "4", "--players", "4", "--bot", "mix",
                "--seed", "2", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["rules"] == "casting-call" and summary["games"] == 4 and summary["hands"] >= 4
    assert sum(summary["wins_by_seat"].values()) == 4 and summary["specials"] > 0
    assert summary["cards_fired"] > 0 and summary["turns_per_hand_mean"] > 0
    text = unox("sim", "--rules", "casting-call", "--games", "2", "--players", "3", "--seed", "2").stdout
    assert "casting-call rules" in text and "special cards: " in text


def test_CC_A2_unox_demo_rules_casting_call_turns_and_shares_in_a_whole_game():
    done = unox("demo", "--rules", "casting-call", "--plain", "--seed", "1", "--players", "4")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "UNO Casting Call, " in out.splitlines()[0] and "Game over:" in out
    turned = [line for line in out.splitlines() if " turns up " in line]
    shared = [line for line in out.splitlines() if " gives " in line and "(CC-A2)" in line]
    assert turned and shared and len(turned) >= len(shared)
    assert out.count("plays WC") == len(shared)  # every Casting Call played is turned and shared


def test_DL2_a_dealt_table_with_a_launcher_fires_no_more_than_the_engine_holds(sim):
    """The demo's table: dealt mode knows what is inside, so a draw owed beyond it fires only that many,
    and with nothing left anywhere the rest is not owed (a launcher holding stray cards fires none)."""
    game = dealt_table("casting-call").game
    stack = game.cards.stack
    game.cards.hands["Ann"] += stack[:-1]
    del stack[:-1]  # one card left inside, the pile holds only its top card
    launcher = sim("seed=3&cards=10&jam=0&double=0&stuck=0")
    table = Table(game, launcher=launcher)
    accept(table, cmd="penalty", player="Bob", kind="advice")
    reply = send(table, cmd="draw", player="Bob")
    assert reply["ok"] and reply["launcher"]["requested"] == 1 and launcher.device.model.ejected == 1
    assert reply["state"]["owed"] == [{"player": "Bob", "draws": 1}]
    reply = send(table, cmd="draw", player="Bob")
    assert reply["ok"] and "launcher" not in reply and reply["state"]["owed"] == []
    assert launcher.device.model.ejected == 1


def test_CC_A1_the_table_prompt_names_who_must_turn_or_share():
    table = started()
    casting(table)
    assert table.prompt().startswith('Bob sends {"cmd":"turn"}: Casting Call (CC-A1)')
    turn_all(table, ["R5", "R6"])
    assert table.prompt().startswith('Bob sends {"cmd":"share"}: Casting Call (CC-A2)')
    assert table.state()["turn"] == "Bob" and table.state()["plays_next"] == "Cy"


def test_CC_A2_C_G3_a_player_out_of_the_game_gets_no_share():
    table = physical_table("casting-call", players=("Ann", "Bob", "Cy"), scoring="g3", target=50, first="G7")
    table.game.cards.sizes["Bob"] = 1
    accept(table, cmd="play", player="Bob", card="G1")
    accept(table, cmd="score", points={"Ann": 70, "Bob": 0, "Cy": 10})  # Ann is out of the game
    accept(table, cmd="deal", dealer="Bob")
    state = accept(table, cmd="flip", card="G7")
    casting(table, state["turn"])
    turn_all(table, ["R5", "R6"], player=state["turn"])
    refuse(table, "player_out", cmd="share", player=state["turn"], to="Ann")
    state = accept(table, cmd="share", player=state["turn"], deal=True)
    assert set(state["casting_call"]["given"]) == {"Bob", "Cy"} - {state["casting_call"]["player"]}


@settings(max_examples=15)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 10), bot=st.sampled_from(["heuristic", "mix"]))
def test_CC_A2_every_casting_call_game_ends_and_no_turned_card_is_ever_lost(seed, players, bot):
    """Bots play whole games in dealt mode; after every turn and share all 112 cards are somewhere."""
    from unox.profiles import get_profile
    from unox.rules.game import Game
    from unox.simulation import GameRecord, Match, seat_bots

    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    deck_rng = random.Random(rng.getrandbits(64))
    game = Game(names, mode="dealt", rng=deck_rng, ruleset="casting-call", target=200)
    kinds = seat_bots(bot, players, seed % 2)
    bots = {n: make_bot(k, random.Random(rng.getrandbits(64))) for n, k in zip(names, kinds, strict=True)}
    calls = Counter()
    real_call = game.edition_call

    def edition_call(cmd, fields):
        real_call(cmd, fields)
        calls[cmd] += 1
        calls["settled"] += game.pending is None
        held = sum(len(h) for h in game.cards.hands.values()) + len((game.pending or {}).get("turned", []))
        assert held + game.cards.launcher + game.cards.pile == 112

    game.edition_call = edition_call
    record = Match(game, bots, get_profile("measured", rng=rng), GameRecord(seed, kinds)).run()
    assert 1 <= record.winner_seat <= players and record.specials == calls["settled"]
    assert calls["turn"] >= calls["share"] >= calls["settled"] - calls["turn"]


def test_CC_A1_a_table_resumes_mid_turning_from_its_journal_and_undo_takes_back_one_card(tmp_path):
    table = started(journal=Journal(tmp_path / "cc.db"))
    casting(table)
    turn_all(table, ["R5", "G3"])
    before = table.state()
    table.close()
    resumed = Table.resume(tmp_path / "cc.db")
    assert resumed.state() == before and before["pending"]["turned"] == ["R5", "G3"]
    state = resumed.handle({"cmd": "undo"})["state"]
    assert state["pending"]["turned"] == ["R5"] and state["launcher"]["cards"] == AFTER_FLIP - 1
    state = accept(resumed, cmd="turn", player="Bob", card="Y5", fired=1)
    assert state["pending"]["cmd"] == "share"
    resumed.close()


def test_CC_A1_C_R1_the_demo_launcher_gets_the_cards_the_engine_reloads_after_a_turned_card(sim):
    """A turned card empties the dealt launcher and the engine reloads the pile at once: the simulated
    hopper is loaded with exactly those cards, the one fired taken into account."""
    from unox.ui.session import Session

    table = dealt_table("casting-call")
    game = table.game
    give(table, "Bob", ["G1", "G2", "G3"])
    give(table, "Cy", ["WC", "G4", "G5"])
    accept(table, cmd="play", player="Bob", card="G1")
    game.cards.hands["Ann"] += game.cards.stack[:-1]
    del game.cards.stack[:-1]  # one card left inside
    launcher = sim("seed=5&cards=1&jam=0&double=0&stuck=0")
    session = Session(Table(game, launcher=launcher), launcher=launcher, sim=True)
    session.request({"cmd": "play", "player": "Cy", "card": "WC", "color": "red"})
    state = session.request({"cmd": "turn", "player": "Cy"})["state"]
    assert state["launcher"]["cards"] == 2 and state["discard"] == 1  # G7 and G1 went back in
    assert launcher.device.model.hopper == 2 and launcher.device.model.ejected == 1


def test_CC_A1_the_heuristic_bot_spends_a_casting_call_early_only_on_a_leader_about_to_go_out():
    table = dealt_table("casting-call")
    game = table.game
    give(table, "Bob", ["WC", "G9", "R3", "R4"])
    bot = make_bot("heuristic", random.Random(3))
    assert bot.choose(game, "Bob").card == "G9"  # everyone holds 7: keep the wild
    game.cards.hands["Dee"] = game.cards.hands["Dee"][:2]  # Dee, two seats on, is about to go out
    assert bot.choose(game, "Bob").card == "WC"


def crash_during_a_turned_card(path) -> int:
    """A journalled Casting Call table: Bob's turned card R5 has its fire intent written, and the table dies
    before the outcome. Returns the fire id."""
    from unox.launcher.script import ScriptLauncher

    table = started(launcher=ScriptLauncher(), journal=Journal(path))
    casting(table)
    fire_id = table.journal.begin_fire("Bob", 1, {"cmd": "turn", "player": "Bob", "card": "R5"})
    table.journal.close()  # the process dies here: no outcome written
    return fire_id


def test_CC_A1_DL3_a_turned_card_the_table_died_in_is_settled_from_the_launchers_memory(tmp_path):
    from unox.launcher.base import FireResult
    from unox.launcher.script import ScriptLauncher

    path = tmp_path / "cc.db"
    fire_id = crash_during_a_turned_card(path)
    launcher = ScriptLauncher()
    launcher.remembered[fire_id] = FireResult(1, 1, None)
    table = Table.resume(path, launcher=launcher)
    state = table.state()
    assert "unsettled" not in state and state["pending"]["turned"] == ["R5"]
    assert launcher.fires == []  # never fired again
    assert table.journal.entries()[-1] == {"cmd": "turn", "player": "Bob", "card": "R5", "fired": 1}
    assert table.journal.fires()[-1]["settled_by"] == "device"


def test_CC_A1_DL3_a_turned_card_nobody_can_count_is_settled_by_the_operator_exactly_once(tmp_path):
    from unox.launcher.script import ScriptLauncher

    path = tmp_path / "cc.db"
    crash_during_a_turned_card(path)
    launcher = ScriptLauncher()  # rebooted: it remembers nothing
    table = Table.resume(path, launcher=launcher)
    assert table.state()["unsettled"]["cmd"] == "turn" and "Bob's turn" in table.prompt()
    refuse(table, "unsettled", cmd="turn", player="Bob", card="R6")
    refuse(table, "bad_fired", cmd="settle", fired=2)  # one card at a time (DL3)
    reply = send(table, cmd="settle", fired=1)
    assert reply["ok"] and reply["state"]["pending"]["turned"] == ["R5"] and launcher.fires == []
    state = table.state()
    table.close()
    assert Table.resume(path).state() == state
