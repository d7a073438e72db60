"""The launcher and the pile (R1, R2) and the penalties (P1 advice, P2 wrong card, P3 no UNO)."""

from unox.rules.extreme import extreme_deck


def _all_cards(game):
    return sorted([c.code for h in game.cards.hands.values() for c in h]
                  + [c.code for c in game.cards.stack] + [c.code for c in game.cards.piled])


def test_R1_reload_puts_every_discard_but_the_top_back_in_the_launcher(physical):
    game = physical(first="G7")
    game.play("Bob", "G3")
    game.play("Cy", "G4")
    game.play("Dee", "G5")
    launcher = game.state()["launcher"]["cards"]
    game.reload()
    s = game.state()
    assert s["discard"] == 1 and s["top"] == "G5" and s["launcher"]["cards"] == launcher + 3


def test_R1_reload_dealt_keeps_the_top_and_conserves_cards(dealt):
    game = dealt(hands={"Bob": ["G3"], "Cy": ["G4"]}, flip=["G7"])
    game.play("Bob", "G3")
    game.play("Cy", "G4")
    game.reload()
    assert [c.code for c in game.cards.piled] == ["G4"]
    assert {"G7", "G3"} <= {c.code for c in game.cards.stack[:2]}  # under what was in the launcher
    assert _all_cards(game) == sorted(extreme_deck())


def test_R1_nothing_to_reload(physical, unchanged):
    game = physical(first="G7")
    with unchanged(game, "nothing_to_reload"):
        game.reload()


def test_R2_dealt_empty_launcher_is_reloaded_after_the_press_that_empties_it(dealt):
    game = dealt(hands={"Bob": ["G1"], "Cy": ["G2"]}, flip=["G7"])
    game.play("Bob", "G1")
    game.play("Cy", "G2")
    game.press("Dee", game.launcher_cards)  # everything comes out
    assert game.launcher_cards == 2 and game.state()["discard"] == 1
    assert _all_cards(game) == sorted(extreme_deck())


def test_P1_advice_costs_four_presses_and_keeps_the_turn(physical):
    game = physical(first="G7")
    game.penalty("Dee", "advice")
    s = game.state()
    assert s["owed"] == [{"player": "Dee", "presses": 4}] and s["turn"] == "Dee" and s["plays_next"] == "Bob"
    for _ in range(4):
        game.press("Dee", 1)
    s = game.state()
    assert s["turn"] == "Bob" and s["hands"]["Dee"] == 11


def test_P2_wrong_card_is_taken_back_then_two_presses_and_the_turn_ends(physical):
    game = physical(first="G7", dealer="Ann")
    before = game.state()
    game.play("Bob", "GR")
    game.penalty("Bob", "wrong_card")
    s = game.state()
    assert s["top"] == "G7" and s["color"] == "green" and s["direction"] == "left"
    assert s["hands"]["Bob"] == 7 and s["discard"] == before["discard"]
    assert s["owed"] == [{"player": "Bob", "presses": 2}]
    game.press("Bob", 0)
    game.press("Bob", 1)
    s = game.state()
    assert s["turn"] == "Cy" and s["hands"]["Bob"] == 8


def test_P2_wrong_card_undoes_a_hit2_and_its_owed_presses(physical):
    game = physical(first="G7", dealer="Ann")
    game.play("Bob", "GH")
    game.penalty("Bob", "wrong_card")
    assert game.state()["owed"] == [{"player": "Bob", "presses": 2}]


def test_P2_wrong_trade_hands_swaps_back_dealt(dealt):
    bob = ["GT", "G1", "R2", "R3", "R4", "R5", "R6"]
    game = dealt(hands={"Bob": bob}, flip=["G7"])
    dee = sorted(c.code for c in game.hand("Dee"))
    game.play("Bob", "GT", target="Dee")
    game.penalty("Bob", "wrong_card")
    assert sorted(c.code for c in game.hand("Bob")) == sorted(bob)
    assert sorted(c.code for c in game.hand("Dee")) == dee
    assert _all_cards(game) == sorted(extreme_deck())


def test_P2_wrong_last_card_reopens_the_hand(physical):
    game = physical(first="G7", players=["Ann", "Bob"], dealer="Ann")
    for _ in range(6):
        game.play("Bob", "G3")
        game.press("Ann", 0)
    game.play("Bob", "G2")
    assert game.state()["phase"] == "hand_over"
    game.penalty("Bob", "wrong_card")
    s = game.state()
    assert s["phase"] == "turn" and s["hands"]["Bob"] == 1 and s["went_out"] is None


def test_P2_only_the_most_recent_play_can_be_taken_back(physical, unchanged):
    game = physical(first="G7")
    game.play("Bob", "G3")
    game.press("Cy", 0)
    with unchanged(game, "nothing_to_take_back"):
        game.penalty("Bob", "wrong_card")
    with unchanged(game, "nothing_to_take_back"):
        game.penalty("Cy", "wrong_card")


def test_P3_no_uno_costs_two_presses(physical):
    game = physical(first="G7", players=["Ann", "Bob", "Cy"], dealer="Ann")
    for _ in range(5):
        game.play("Bob", "G3")
        game.press("Cy", 0)
        game.press("Ann", 0)
    game.play("Bob", "G4")
    game.catch("Bob", by="Ann")
    assert game.state()["owed"] == [{"player": "Bob", "presses": 2}]


def test_P_unknown_penalty_kind(physical, unchanged):
    game = physical(first="G7")
    with unchanged(game, "bad_penalty"):
        game.penalty("Bob", "cheating")


def test_P2_last_play_reports_the_take_back(physical):
    game = physical(first="G7")
    assert game.state()["last_play"] == {"player": None, "card": "G7", "color": "green", "target": None,
                                         "count": 0}
    game.play("Bob", "GD", count=2)
    assert game.state()["last_play"] == {"player": "Bob", "card": "GD", "color": "green", "target": None,
                                         "count": 2}
    game.penalty("Bob", "wrong_card")
    assert game.state()["last_play"] == {"player": "Bob", "taken_back": True}
    assert game.state()["hands"]["Bob"] == 7
