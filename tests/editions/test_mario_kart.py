"""UNO Mario Kart (seed 003) through the table protocol: one test or more per rule ID of docs/rules.md
(MK-..., decisions D17-D23), named after it. Physical tables report the item card the launcher fired; dealt
tables let the engine turn it and know its item."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from unox.rules.editions import get_rules
from unox.rules.editions.mario_kart import ITEM_OF, ITEMS

from .kit import accept, dealt_table, give, hand, physical_table, refuse, send, unox

MK = get_rules("mario-kart")
AFTER_DEAL = 112 - 4 * 7  # four players: the launcher's cards once the hands are dealt
AFTER_FLIP = AFTER_DEAL - 1  # and once the first card is up (the kit's launcher fires it, DL3)


def started(first="G7", color=None, **options):
    return physical_table("mario-kart", first=first, color=color, **options)


def with_item(item: str, *, wild: bool = False, not_in=()) -> str:
    """A card code showing `item` (dealt mode), coloured unless `wild`, and not one of `not_in`."""
    return next(code for code, it in ITEM_OF.items()
                if it == item and (MK.cards[code].color is None) == wild and code not in not_in)


def item_wild_table(item: str, *, wild: bool = False, hands=None, **options):
    """Dealt: Bob holds an Item Wild on G7, and the launcher's next card shows `item`."""
    card = with_item(item, wild=wild)
    hands = {"Bob": ["WI", "G1", "R3", "R4", "R5", "R6", "R8"], **(hands or {})}
    return dealt_table("mario-kart", hands=hands, then=[card], **options), card


# --- the deck and set-up ----------------------------------------------------------------------------------


def test_MK_D1_the_deck_is_classics_108_and_4_item_wilds():
    counts = Counter(MK.deck)
    assert len(MK.deck) == 112 and counts["WI"] == 4
    assert counts - Counter({"WI": 4}) == Counter(get_rules("classic").deck)
    assert MK.cards["WI"].color is None and MK.cards["WI"].points == 50
    assert started().state()["launcher"]["cards"] == AFTER_FLIP


def test_MK_D1_every_card_shows_one_item_the_deck_order_takes_them_in_turn():
    """The documented decision: the different codes in deck order take the five items in turn."""
    codes = list(dict.fromkeys(MK.deck))
    assert len(codes) == 55 and set(ITEM_OF) == set(codes)
    assert [ITEM_OF[c] for c in ("R0", "R1", "R2", "R3", "R4", "R5")] == [*ITEMS, "mushroom"]
    assert all(ITEM_OF[code] == ITEMS[i % 5] for i, code in enumerate(codes))
    per_item = Counter(ITEM_OF[code] for code in MK.deck)
    assert set(per_item) == set(ITEMS) and all(21 <= n <= 24 for n in per_item.values())


def test_MK_S1_the_players_choose_the_dealer(monkeypatch):
    table = physical_table("mario-kart")
    refuse(table, "bad_request", cmd="deal")
    state = accept(table, cmd="deal", dealer="Cy")
    assert state["dealer"] == "Cy"
    assert accept(table, cmd="flip", card="G7")["turn"] == "Dee"
    import unox.rules.setup as setup

    def no_draw(*args, **kwargs):
        raise AssertionError("Mario Kart draws no cards for the deal")

    monkeypatch.setattr(setup, "choose_dealer", no_draw)
    from unox.rules.game import Game

    dealers = set()
    for seed in range(30):
        game = Game(["Ann", "Bob", "Cy", "Dee"], mode="dealt", ruleset="mario-kart", rng=random.Random(seed))
        game.deal()
        dealers.add(game.dealer)
    assert dealers == {"Ann", "Bob", "Cy", "Dee"}  # a draw of lots: every seat may deal


@pytest.mark.parametrize("action", ["R+2", "YR", "BS", "W+4"])
def test_MK_S4_a_first_action_card_is_ignored_and_the_next_card_is_turned_up_on_it(action):
    table = physical_table("mario-kart")
    accept(table, cmd="deal", dealer="Ann")
    extra = {"color": "red"} if action == "W+4" else {}
    state = accept(table, cmd="flip", card=action, **extra)
    assert state["phase"] == "flip" and state["owed"] == [] and state["top"] is None
    assert state["discard"] == 1 and state["launcher"]["cards"] == AFTER_FLIP  # it stays on the pile
    state = accept(table, cmd="flip", card="G5")
    assert state["top"] == "G5" and state["discard"] == 2 and state["launcher"]["cards"] == AFTER_FLIP - 1
    assert state["turn"] == "Bob" and state["direction"] == "left" and state["owed"] == []


def test_MK_S4_dealt_mode_the_ignored_card_stays_under_the_next():
    table = dealt_table("mario-kart", flip=("RS", "G7"))
    state = table.state()
    assert state["top"] == "G7" and state["discard"] == 2 and state["turn"] == "Bob"
    assert [c.code for c in table.game.cards.piled] == ["RS", "G7"]


def test_MK_S4_D18_a_first_item_wild_the_left_player_names_the_colour_and_no_item_acts():
    state = started("WI", color="yellow").state()
    assert state["turn"] == "Bob" and state["color"] == "yellow" and state["owed"] == []
    assert state["pending"] is None and state["item"] is None


def test_MK_S4_D18_a_first_plain_wild_is_classic():
    state = started("W", color="blue").state()
    assert state["turn"] == "Bob" and state["color"] == "blue"


# --- Wild Draw Four ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("wild", ["W", "WI"])
def test_MK_A1_a_wild_or_item_wild_in_hand_counts_as_a_card_of_the_colour(wild):
    table = dealt_table("mario-kart", hands={"Bob": ["W+4", wild, "R3", "R4", "R5", "R6", "R8"]})
    accept(table, cmd="play", player="Bob", card="W+4", color="red")
    state = accept(table, cmd="challenge", player="Cy")
    assert state["owed"] == [{"player": "Bob", "draws": 4}] and state["plays_next"] == "Cy"


def test_MK_A1_another_wild_draw_four_or_a_same_number_does_not_count():
    table = dealt_table("mario-kart", hands={"Bob": ["W+4", "W+4", "R7", "R4", "R5", "R6", "R8"]})
    accept(table, cmd="play", player="Bob", card="W+4", color="red")
    state = accept(table, cmd="challenge", player="Cy")
    assert state["owed"] == [{"player": "Cy", "draws": 6}]


def test_MK_A2_a_wrong_challenger_draws_6_instead_and_loses_the_turn_the_colour_stands():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="W+4", color="blue")
    state = accept(table, cmd="challenge", player="Cy", guilty=False)
    assert state["owed"] == [{"player": "Cy", "draws": 6}] and state["plays_next"] == "Dee"
    state = accept(table, cmd="draw", player="Cy", fired=6)
    assert state["turn"] == "Dee" and state["color"] == "blue"


def test_MK_A2_D3_a_guilty_player_draws_4_and_the_challenger_plays_the_colour_stands():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="W+4", color="blue")
    state = accept(table, cmd="challenge", player="Cy", guilty=True)
    assert state["owed"] == [{"player": "Bob", "draws": 4}] and state["plays_next"] == "Cy"
    state = accept(table, cmd="draw", player="Bob", fired=4)
    assert state["turn"] == "Cy" and state["color"] == "blue"


def test_MK_A2_drawing_accepts_the_four():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="W+4", color="blue")
    accept(table, cmd="draw", player="Cy", fired=4)
    refuse(table, "nothing_to_challenge", cmd="challenge", player="Cy", guilty=True)
    assert table.state()["turn"] == "Dee"


# --- the Item Wild ----------------------------------------------------------------------------------------


def test_MK_I1_the_item_wild_goes_on_anything_names_no_colour_and_waits_for_its_item_card():
    table = started("R3")
    refuse(table, "unexpected_color", cmd="play", player="Bob", card="WI", color="green")
    state = accept(table, cmd="play", player="Bob", card="WI")
    assert state["top"] == "WI" and state["color"] is None and state["turn"] == "Bob"
    assert state["pending"]["cmd"] == "item" and state["pending"]["player"] == "Bob"
    refuse(table, "pending_choice", cmd="play", player="Bob", card="R4")
    refuse(table, "pending_choice", cmd="draw", player="Bob", fired=1)
    refuse(table, "pending_choice", cmd="choose", player="Bob", color="red")
    refuse(table, "pending_choice", cmd="item", player="Cy", fired=1, card="G5", item="banana")
    state = accept(table, cmd="item", player="Bob", fired=1, card="Y5", item="banana")
    assert state["top"] == "Y5" and state["color"] == "yellow" and state["pending"] is None
    assert state["item"] == {"player": "Bob", "card": "Y5", "item": "banana"}
    assert state["launcher"]["cards"] == AFTER_FLIP - 1 and state["discard"] == 3
    refuse(table, "no_item_due", cmd="item", player="Bob", fired=1, card="G5", item="banana")
    state = accept(table, cmd="draw", player="Ann", fired=2)  # the banana (MK-I3)
    refuse(table, "illegal_card", cmd="play", player="Cy", card="R4")  # play matches the item card now
    assert accept(table, cmd="play", player="Cy", card="Y7")["top"] == "Y7"


def test_MK_I1_only_the_item_acts_never_the_cards_own_action():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="WI")
    state = accept(table, cmd="item", player="Bob", fired=1, card="G+2", item="mushroom")
    assert state["owed"] == [] and state["turn"] == "Bob" and state["top"] == "G+2"  # no Draw Two


def test_MK_I1_D21_a_wild_item_card_takes_the_item_wild_players_colour():
    table, card = item_wild_table("lightning", wild=True)  # W+4 shows lightning
    assert card == "W+4"
    accept(table, cmd="play", player="Bob", card="WI")
    state = accept(table, cmd="item", player="Bob", fired=1)
    assert state["top"] == "W+4" and state["pending"]["cmd"] == "choose"
    assert state["pending"]["needs"] == ["color"] and state["challenge"] is None
    refuse(table, "missing_color", cmd="choose", player="Bob")
    refuse(table, "bad_color", cmd="choose", player="Bob", color="purple")
    state = accept(table, cmd="choose", player="Bob", color="blue")
    assert state["color"] == "blue" and state["challenge"] is None
    assert state["owed"] == [{"player": p, "draws": 1} for p in ("Cy", "Dee", "Ann")]  # no 4


def test_MK_I1_a_physical_table_with_a_launcher_fires_first_then_reports_the_card():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="WI")
    refuse(table, "bad_item", cmd="item", player="Bob", fired=0, card="G5", item="banana")  # not out yet
    state = accept(table, cmd="item", player="Bob", fired=1)
    assert state["pending"]["cmd"] == "item" and state["top"] == "WI"
    assert state["launcher"]["cards"] == AFTER_FLIP - 1 and state["discard"] == 3
    refuse(table, "bad_fired", cmd="item", player="Bob", fired=1, card="G5", item="banana")  # already out
    refuse(table, "bad_item", cmd="item", player="Bob", fired=0)
    state = accept(table, cmd="item", player="Bob", fired=0, card="G5", item="green shell")
    assert state["top"] == "G5" and state["pending"]["needs"] == ["target"]
    assert state["launcher"]["cards"] == AFTER_FLIP - 1  # reported, not fired again


def test_MK_I1_wrong_item_reports_are_refused_and_change_nothing():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="WI")
    refuse(table, "bad_item", cmd="item", player="Bob", fired=1, card="G5", item="star")
    refuse(table, "bad_item", cmd="item", player="Bob", fired=1, card="G5")
    refuse(table, "bad_card", cmd="item", player="Bob", fired=1, card="G11", item="bomb")
    refuse(table, "bad_fired", cmd="item", player="Bob", fired=2, card="G5", item="bomb")
    refuse(table, "bad_fired", cmd="item", player="Bob", fired=0)  # the launcher holds cards: fire 1
    refuse(table, "bad_request", cmd="item", player="Bob", card="G5", item="bomb")  # fired is required


def test_MK_I1_dealt_mode_the_engine_turns_the_card_and_knows_its_item():
    table, card = item_wild_table("banana")
    accept(table, cmd="play", player="Bob", card="WI")
    refuse(table, "bad_item", cmd="item", player="Bob", fired=1, card=card, item="banana")
    state = accept(table, cmd="item", player="Bob", fired=1)
    assert state["top"] == card and state["item"] == {"player": "Bob", "card": card, "item": "banana"}
    assert state["owed"] == [{"player": "Ann", "draws": 2}]


def test_MK_I1_DL3_the_launcher_fires_the_item_card_and_the_beam_counts_it_exactly(sim, tmp_path):
    from unox.table.journal import Journal

    launcher = sim(f"seed=4&cards={AFTER_DEAL}&jam=0&double=0&stuck=0")
    journal = Journal(tmp_path / "mk.db")
    table = physical_table("mario-kart", launcher=launcher, journal=journal, first="G7")
    assert launcher.device.model.ejected == 1  # the first card G7 (DL3)
    assert send(table, cmd="item", player="Bob")["ok"] is False  # nothing due: nothing fired
    assert launcher.device.model.ejected == 1
    accept(table, cmd="play", player="Bob", card="WI")
    reply = send(table, cmd="item", player="Cy")
    assert reply["error"]["code"] == "pending_choice" and launcher.device.model.ejected == 1
    reply = send(table, cmd="item", player="Bob")
    assert reply["ok"] and reply["launcher"] == {"requested": 1, "fired": 1, "fault": None}
    assert launcher.device.model.ejected == 2 and reply["state"]["launcher"]["cards"] == AFTER_FLIP - 1
    reply = send(table, cmd="item", player="Bob", card="B3", item="bomb")  # the report fires nothing
    assert reply["ok"] and launcher.device.model.ejected == 2
    assert reply["state"]["pending"]["needs"] == ["color"]
    accept(table, cmd="choose", player="Bob", color="green")
    reply = send(table, cmd="draw", player="Bob")  # the bomb's 2, fired and counted
    assert reply["launcher"] == {"requested": 2, "fired": 2, "fault": None}
    assert launcher.device.model.ejected == 4
    rows = [r for _, r in journal.rows()]
    assert {"cmd": "item", "player": "Bob", "fired": 1} in rows
    assert {"cmd": "item", "player": "Bob", "card": "B3", "item": "bomb", "fired": 0} in rows


def test_MK_I2_mushroom_gives_another_turn_and_unable_to_play_the_player_draws():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="WI")
    state = accept(table, cmd="item", player="Bob", fired=1, card="B2", item="mushroom")
    assert state["turn"] == "Bob" and state["owed"] == [] and state["color"] == "blue"
    state = accept(table, cmd="draw", player="Bob", fired=1)  # C-T2
    assert state["drawn"] == "Bob"
    assert accept(table, cmd="pass", player="Bob")["turn"] == "Cy"


def test_MK_I3_banana_the_player_whose_turn_came_just_before_draws_2():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="G5")
    accept(table, cmd="play", player="Cy", card="WI")
    state = accept(table, cmd="item", player="Cy", fired=1, card="R5", item="banana")
    assert state["owed"] == [{"player": "Bob", "draws": 2}] and state["plays_next"] == "Dee"


def test_MK_I3_D22_banana_hits_the_player_who_lost_the_turn_before():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="GS")  # Cy loses the turn
    accept(table, cmd="play", player="Dee", card="WI")
    state = accept(table, cmd="item", player="Dee", fired=1, card="R5", item="banana")
    assert state["owed"] == [{"player": "Cy", "draws": 2}] and state["plays_next"] == "Ann"


def test_MK_I3_D22_after_a_reverse_the_banana_hits_its_player():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="GR")  # play goes right: Ann
    accept(table, cmd="play", player="Ann", card="WI")
    state = accept(table, cmd="item", player="Ann", fired=1, card="R5", item="banana")
    assert state["owed"] == [{"player": "Bob", "draws": 2}] and state["plays_next"] == "Dee"


def test_MK_I4_green_shell_another_player_of_the_players_choice_draws_1():
    table, card = item_wild_table("green_shell")
    accept(table, cmd="play", player="Bob", card="WI")
    state = accept(table, cmd="item", player="Bob", fired=1)
    assert state["pending"] == {"cmd": "choose", "player": "Bob", "why": state["pending"]["why"],
                                "item": "green_shell", "needs": ["target"]}
    refuse(table, "missing_target", cmd="choose", player="Bob")
    refuse(table, "bad_target", cmd="choose", player="Bob", target="Bob")
    refuse(table, "unexpected_color", cmd="choose", player="Bob", target="Dee", color="red")
    refuse(table, "unknown_player", cmd="choose", player="Bob", target="Zed")
    refuse(table, "pending_choice", cmd="item", player="Bob", fired=1)
    refuse(table, "pending_choice", cmd="choose", player="Cy", target="Dee")
    state = accept(table, cmd="choose", player="Bob", target="Dee")
    assert state["owed"] == [{"player": "Dee", "draws": 1}] and state["plays_next"] == "Cy"
    assert state["color"] == MK.color_name(MK.cards[card].color)


def test_MK_I5_lightning_every_other_player_draws_1_from_the_next_then_the_player_again():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="WI")
    state = accept(table, cmd="item", player="Bob", fired=1, card="R8", item="lightning")
    assert state["owed"] == [{"player": p, "draws": 1} for p in ("Cy", "Dee", "Ann")]
    refuse(table, "draw_out_of_order", cmd="draw", player="Ann", fired=1)
    for player in ("Cy", "Dee", "Ann"):
        state = accept(table, cmd="draw", player=player, fired=1)
    assert state["turn"] == "Bob" and state["owed"] == [] and state["hands"]["Cy"] == 8


def test_MK_I6_bomb_the_player_draws_2_and_names_the_colour():
    table = started("G7")
    accept(table, cmd="play", player="Bob", card="WI")
    state = accept(table, cmd="item", player="Bob", fired=1, card="Y4", item="bomb")
    assert state["pending"]["needs"] == ["color"] and state["color"] == "yellow"
    state = accept(table, cmd="choose", player="Bob", color="red")
    assert state["color"] == "red" and state["owed"] == [{"player": "Bob", "draws": 2}]
    assert state["plays_next"] == "Cy"
    state = accept(table, cmd="draw", player="Bob", fired=2)
    assert state["turn"] == "Cy" and state["hands"]["Bob"] == 8


def test_MK_I7_a_last_item_wild_still_acts_and_the_hand_ends_once_its_draws_are_done():
    table, _ = item_wild_table("lightning")
    give(table, "Bob", ["WI"])
    accept(table, cmd="play", player="Bob", card="WI")
    state = accept(table, cmd="item", player="Bob", fired=1)
    assert state["went_out"] == "Bob" and state["phase"] == "turn" and len(state["owed"]) == 3
    for player in ("Cy", "Dee"):
        assert accept(table, cmd="draw", player=player, fired=1)["phase"] == "turn"
    state = accept(table, cmd="draw", player="Ann", fired=1)
    assert state["phase"] == "game_over" and state["winner"] == "Bob"  # MK-G1: one hand
    assert state["last_hand"]["points"]["Ann"] == sum(c.points for c in table.game.cards.hands["Ann"])


def test_MK_I7_a_last_item_wild_whose_bomb_makes_its_player_draw_has_not_gone_out():
    table, _ = item_wild_table("bomb")
    give(table, "Bob", ["WI"])
    accept(table, cmd="play", player="Bob", card="WI")
    accept(table, cmd="item", player="Bob", fired=1)
    state = accept(table, cmd="choose", player="Bob", color="green")
    assert state["went_out"] is None and state["owed"] == [{"player": "Bob", "draws": 2}]
    state = accept(table, cmd="draw", player="Bob", fired=2)
    assert state["phase"] == "turn" and state["turn"] == "Cy" and len(hand(table, "Bob")) == 2


def test_MK_I7_a_last_mushroom_ends_the_hand_at_once():
    table, _ = item_wild_table("mushroom")
    give(table, "Bob", ["WI"])
    accept(table, cmd="play", player="Bob", card="WI")
    state = accept(table, cmd="item", player="Bob", fired=1)
    assert state["phase"] == "game_over" and state["winner"] == "Bob"


def test_MK_U1_a_forgotten_uno_is_caught_by_another_who_shouts_first():
    table = dealt_table("mario-kart")
    give(table, "Bob", ["G1", "G2"])
    accept(table, cmd="play", player="Bob", card="G1")
    refuse(table, "bad_catcher", cmd="catch", player="Bob", by="Bob")
    state = accept(table, cmd="catch", player="Bob", by="Dee")
    assert state["owed"] == [{"player": "Bob", "draws": 2}]


def test_MK_U1_calling_uno_first_is_safe_and_the_window_closes_with_the_next_player():
    table = dealt_table("mario-kart")
    give(table, "Bob", ["G1", "G2"])
    accept(table, cmd="play", player="Bob", card="G1")
    accept(table, cmd="uno", player="Bob")
    refuse(table, "called_uno", cmd="catch", player="Bob", by="Dee")
    late = dealt_table("mario-kart")
    give(late, "Bob", ["G1", "G2"])
    accept(late, cmd="play", player="Bob", card="G1")
    accept(late, cmd="draw", player="Cy", fired=1)
    refuse(late, "catch_window_closed", cmd="catch", player="Bob", by="Dee")


def test_MK_G1_the_first_player_out_wins_one_hand_is_the_game():
    table = dealt_table("mario-kart")
    give(table, "Bob", ["G1"])
    state = accept(table, cmd="play", player="Bob", card="G1")
    assert state["phase"] == "game_over" and state["winner"] == "Bob" and state["hand"] == 1
    physical = started("G7")
    physical.game.cards.sizes["Bob"] = 1
    accept(physical, cmd="play", player="Bob", card="G1")
    state = accept(physical, cmd="score", points={"Ann": 7, "Bob": 0, "Cy": 3, "Dee": 50})
    assert state["phase"] == "game_over" and state["winner"] == "Bob"


def test_MK_G1_D23_scoring_is_a_variant_every_action_20_every_wild_50():
    assert {MK.cards[c].points for c in ("R+2", "RR", "RS")} == {20}
    assert {MK.cards[c].points for c in ("W", "W+4", "WI")} == {50}
    table = dealt_table("mario-kart", hands={"Cy": ["WI", "R+2", "R7"]}, variant="scoring", target=500)
    give(table, "Bob", ["G1"])
    state = accept(table, cmd="play", player="Bob", card="G1")
    expected = sum(c.points for p in ("Ann", "Cy", "Dee") for c in table.game.cards.hands[p])
    assert state["phase"] == "deal" and state["winner"] is None
    assert state["scores"]["Bob"] == expected and expected >= 50 + 20 + 7


# --- bots in dealt mode -----------------------------------------------------------------------------------


def test_MK_I4_bots_play_item_wilds_fire_exactly_one_card_and_aim_green_shells_in_dealt_mode():
    from unox.bots import make_bot
    from unox.profiles import get_profile
    from unox.rules.game import Game
    from unox.simulation import GameRecord, Match

    calls: list[tuple[str, dict, int]] = []
    games = 0
    for seed in range(12):
        names = ["P1", "P2", "P3", "P4"]
        game = Game(names, mode="dealt", rng=random.Random(seed), ruleset="mario-kart")
        bots = {n: make_bot("random" if i % 2 else "heuristic", random.Random(i))
                for i, n in enumerate(names)}
        real = game.edition_call

        def call(cmd, fields, game=game, real=real):
            inside = game.launcher_cards
            real(cmd, fields)
            held = sum(len(h) for h in game.cards.hands.values())
            assert held + game.cards.launcher + game.cards.pile == 112
            calls.append((cmd, dict(fields), inside - game.launcher_cards))

        game.edition_call = call
        Match(game, bots, get_profile("measured", rng=random.Random(1)), GameRecord(seed, ["mix"] * 4)).run()
        games += 1
    items = [c for c in calls if c[0] == "item"]
    shells = [c for c in calls if c[0] == "choose" and "target" in c[1]]
    assert len(items) > 5 and shells
    assert all(fields["fired"] == 1 for _, fields, _ in items)
    assert all(fields["target"] != fields["player"] for _, fields, _ in shells)


# --- the command line -------------------------------------------------------------------------------------


def _unox(*args: str) -> str:
    done = unox(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_MK_G1_unox_sim_rules_mario_kart_reports_the_usual_statistics_one_hand_a_game():
    import json

    summary = json.loads(_unox("sim", "--rules", "mario-kart", "--games", "4", "--players", "3",
                               "--bot", "mix", "--seed", "2", "--json"))
    assert summary["rules"] == "mario-kart" and summary["games"] == 4 and summary["hands"] == 4
    assert sum(summary["wins_by_seat"].values()) == 4 and summary["cards_fired"] > 0
    scored = json.loads(_unox("sim", "--rules", "mario-kart", "--variant", "scoring", "--games", "2",
                              "--players", "4", "--seed", "2", "--bot", "heuristic", "--json"))
    assert scored["variant"] == "scoring" and scored["hands"] > 2  # points are kept over several hands


def test_MK_I1_unox_demo_rules_mario_kart_plain_shows_item_wilds_and_their_items():
    shown = {}
    for seed in range(1, 9):
        out = _unox("demo", "--rules", "mario-kart", "--plain", "--seed", str(seed), "--players", "4")
        assert "UNO Mario Kart" in out.splitlines()[0] and "one hand is the game" in out.splitlines()[0]
        assert "Game over: " in out
        lines = out.splitlines()
        for i, line in enumerate(lines):
            if line.endswith(" plays WI."):
                player = line.split()[0]
                assert lines[i + 1].startswith(f"{player}'s Item Wild turns up ")  # fired at once (DL3)
                item = lines[i + 1].split(": ")[-1].split(" (")[0]
                shown[item] = lines[i + 1]
        if len(shown) == 5:
            break
    assert set(shown) == {"mushroom", "banana", "green shell", "lightning", "bomb"}


def test_MK_I1_unox_table_with_the_sim_launcher_fires_the_item_card_then_takes_the_report():
    import json
    import subprocess
    import sys

    lines = [{"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip"}, {"cmd": "flip", "card": "G7"},
             {"cmd": "play", "player": "Bob", "card": "WI"}, {"cmd": "item", "player": "Bob"},
             {"cmd": "item", "player": "Bob", "card": "Y3", "item": "lightning"},
             {"cmd": "draw", "player": "Cy"}]
    argv = ["table", "--rules", "mario-kart", "--players", "Ann,Bob,Cy", "--launcher", "sim", "--seed", "3"]
    done = subprocess.run([sys.executable, "-m", "unox", *argv],
                          input="".join(json.dumps(x) + "\n" for x in lines),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(reply["ok"] for reply in replies)
    assert replies[1]["launcher"] == {"requested": 1, "fired": 1, "fault": None}  # the first card (DL3)
    assert replies[4]["launcher"] == {"requested": 1, "fired": 1, "fault": None}
    assert replies[4]["state"]["launcher"]["cards"] == replies[3]["state"]["launcher"]["cards"] - 1
    assert "launcher" not in replies[5] and replies[5]["state"]["top"] == "Y3"
    assert replies[5]["state"]["owed"] == [{"player": "Cy", "draws": 1}, {"player": "Ann", "draws": 1}]
    assert replies[6]["launcher"]["fired"] == 1 and replies[6]["state"]["hands"]["Cy"] == 8


def test_MK_I1_DL1_a_whole_demo_game_fires_exactly_what_the_journal_books():
    """Bots in dealt mode on the simulated launcher: every card out of the device is a draw, an item card or
    a first card (DL3, MK-S4's covered ones too) the table booked, and every item card is one card."""
    from unox.table.demo import open_demo
    from unox.table.night_launcher import sim_device

    for seed in (3, 11):
        session, driver = open_demo(players=5, seed=seed, rules="mario-kart")
        try:
            while driver.step():
                pass
            entries = session.entries()
            items = [e for e in entries if e["cmd"] == "item"]
            assert items and all(e["fired"] == 1 for e in items)
            booked = sum(e.get("fired", 0) for e in entries if e["cmd"] in ("draw", "item", "flip"))
            assert any(e["cmd"] == "flip" and e.get("fired") == 1 for e in entries)
            assert sim_device(session.launcher).model.ejected == booked
            assert session.state["phase"] == "game_over"
        finally:
            session.table.close()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 10),
       variant=st.sampled_from([None, "scoring", "two-player", "elimination"]),
       bots=st.sampled_from(["heuristic", "random", "mix"]))
def test_MK_G1_every_mario_kart_game_ends_for_2_to_10_players(seed, players, variant, bots):
    from unox.simulation import play_game, seat_bots

    if variant == "two-player":
        players = 2
    record = play_game(seed, seat_bots(bots, players, seed % 2), ruleset="mario-kart", variant=variant,
                       target=200)
    assert 1 <= record.winner_seat <= players
    assert record.hands == 1 or variant in ("scoring", "elimination")


def test_MK_I4_D21_a_wild_green_shell_card_needs_both_the_victim_and_the_colour():
    table, card = item_wild_table("green_shell", wild=True)
    assert card == "W"
    accept(table, cmd="play", player="Bob", card="WI")
    state = accept(table, cmd="item", player="Bob", fired=1)
    assert state["pending"]["needs"] == ["target", "color"]
    refuse(table, "missing_color", cmd="choose", player="Bob", target="Ann")
    refuse(table, "missing_target", cmd="choose", player="Bob", color="red")
    state = accept(table, cmd="choose", player="Bob", target="Ann", color="red")
    assert state["owed"] == [{"player": "Ann", "draws": 1}] and state["color"] == "red"


def test_MK_I1_a_mario_kart_table_resumes_from_its_journal_in_the_middle_of_an_item(tmp_path):
    from unox.table.journal import Journal
    from unox.table.runtime import Table

    table = physical_table("mario-kart", journal=Journal(tmp_path / "mk.db"), first="G7", variant="scoring")
    accept(table, cmd="play", player="Bob", card="WI")
    accept(table, cmd="item", player="Bob", fired=1)  # out, not yet reported
    before = table.state()
    table.close()
    resumed = Table.resume(tmp_path / "mk.db")
    assert resumed.state() == before and before["pending"]["cmd"] == "item"
    state = accept(resumed, cmd="item", player="Bob", fired=0, card="G2", item="fungo")
    assert state["turn"] == "Bob" and state["item"]["item"] == "mushroom" and state["variant"] == "scoring"
    resumed.close()


def test_MK_I1_the_tables_prompt_says_which_request_the_item_wild_waits_for():
    table = started("G7")
    assert table.prompt() == "Bob plays a card or draws."
    accept(table, cmd="play", player="Bob", card="WI")
    assert table.prompt().startswith('Bob sends {"cmd":"item"}: Item Wild')
    accept(table, cmd="item", player="Bob", fired=1, card="G3", item="green_shell")
    assert table.prompt().startswith('Bob sends {"cmd":"choose"}: green shell')


def test_MK_S1_the_demo_table_chooses_the_dealer_without_drawing_cards():
    from unox.table.demo import open_demo

    session, driver = open_demo(players=3, seed=8, rules="mario-kart")
    try:
        driver.step()
        assert session.log[1].startswith("The players choose ") and session.log[1].endswith(" to deal.")
        assert not any("for the deal (S1" in line for line in session.log)
        assert session.state["dealer"] == session.log[1].split()[3]
    finally:
        session.table.close()


def test_MK_I1_DL3_the_launchers_button_fires_the_item_card_for_its_player(sim):
    launcher = sim(f"seed=6&cards={AFTER_DEAL}&jam=0&double=0&stuck=0")
    table = physical_table("mario-kart", launcher=launcher, first="G7")  # the launcher fires G7 (DL3)
    accept(table, cmd="play", player="Bob", card="WI")
    reply = table.button()
    assert reply["ok"] and reply["launcher"] == {"requested": 1, "fired": 1, "fault": None}
    assert table.entries[-1] == {"cmd": "item", "player": "Bob", "fired": 1}
    assert table.button()["ok"] is False  # the card is out: the table reports it, nothing more is fired
    assert launcher.device.model.ejected == 2  # the first card and the item card
    state = accept(table, cmd="item", player="Bob", card="B6", item="mushroom")
    assert state["turn"] == "Bob" and state["top"] == "B6" and launcher.device.model.ejected == 2


def crash_during_the_item_card(path) -> int:
    """A journalled Mario Kart table: Bob played an Item Wild, the item card's fire intent is written, and the
    table dies before its outcome. Returns the fire id."""
    from unox.launcher.script import ScriptLauncher
    from unox.table.journal import Journal

    table = physical_table("mario-kart", launcher=ScriptLauncher(), journal=Journal(path), first="G7")
    accept(table, cmd="play", player="Bob", card="WI")
    fire_id = table.journal.begin_fire("Bob", 1, {"cmd": "item", "player": "Bob"})
    table.journal.close()  # the process dies here: no outcome written
    return fire_id


def test_MK_I1_DL3_an_item_card_the_table_died_in_is_settled_from_the_launchers_memory(tmp_path):
    from unox.launcher.base import FireResult
    from unox.launcher.script import ScriptLauncher
    from unox.table.runtime import Table

    path = tmp_path / "mk.db"
    fire_id = crash_during_the_item_card(path)
    launcher = ScriptLauncher()
    launcher.remembered[fire_id] = FireResult(1, 1, None)
    table = Table.resume(path, launcher=launcher)
    state = table.state()
    assert "unsettled" not in state and state["launcher"]["cards"] == AFTER_FLIP - 1
    assert launcher.fires == []  # never fired again
    assert table.journal.entries()[-1] == {"cmd": "item", "player": "Bob", "fired": 1}
    assert table.journal.fires()[-1]["settled_by"] == "device"
    assert accept(table, cmd="item", player="Bob", card="B6", item="mushroom")["top"] == "B6"


def test_MK_I1_DL3_an_item_card_nobody_can_count_is_settled_by_the_operator_exactly_once(tmp_path):
    from unox.launcher.script import ScriptLauncher
    from unox.table.runtime import Table

    path = tmp_path / "mk.db"
    crash_during_the_item_card(path)
    launcher = ScriptLauncher()  # rebooted: it remembers nothing
    table = Table.resume(path, launcher=launcher)
    assert table.state()["unsettled"]["cmd"] == "item" and "Bob's item" in table.prompt()
    refuse(table, "unsettled", cmd="item", player="Bob")
    refuse(table, "bad_fired", cmd="settle", fired=2)  # the item card is one card
    reply = send(table, cmd="settle", fired=1)
    assert reply["ok"] and "unsettled" not in reply["state"]
    assert table.journal.entries()[-1] == {"cmd": "item", "player": "Bob", "fired": 1}
    assert launcher.fires == []
    state = table.state()
    table.close()
    assert Table.resume(path).state() == state


def test_MK_I1_DL3_an_item_card_the_launcher_fired_alone_is_that_item_card(tmp_path):
    from unox.launcher.base import FireResult
    from unox.launcher.script import ScriptLauncher
    from unox.table.journal import Journal

    launcher = ScriptLauncher()
    table = physical_table("mario-kart", launcher=launcher, journal=Journal(tmp_path / "mk.db"), first="G7")
    accept(table, cmd="play", player="Bob", card="WI")
    launcher.standalone = [FireResult(1, 1, None)]  # its button, pressed while the link was down
    state = accept(table, cmd="state")
    assert state["launcher"]["cards"] == AFTER_FLIP - 1 and state["pending"]["cmd"] == "item"
    assert table.journal.entries()[-1] == {"cmd": "item", "player": "Bob", "fired": 1}
    assert table.journal.fires()[-1]["settled_by"] == "standalone"
    assert accept(table, cmd="item", player="Bob", card="B6", item="mushroom")["top"] == "B6"
