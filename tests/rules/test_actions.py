"""Action cards A1-A8, in physical and dealt mode."""



def test_A1_hit2_next_presses_twice_and_turn_is_over(physical):
    game = physical(first="G7", dealer="Ann")
    game.play("Bob", "GH")
    s = game.state()
    assert s["owed"] == [{"player": "Cy", "presses": 2}] and s["turn"] == "Cy" and s["plays_next"] == "Dee"
    game.press("Cy", 0)
    assert game.state()["owed"] == [{"player": "Cy", "presses": 1}]
    game.press("Cy", 2)
    s = game.state()
    assert s["turn"] == "Dee" and s["owed"] == [] and s["hands"]["Cy"] == 9 and s["step"] == "turn"


def test_A1_hit2_only_on_its_colour_or_another_hit2(physical, unchanged):
    game = physical(first="G7")
    with unchanged(game, "illegal_card"):
        game.play("Bob", "RH")
    game.play("Bob", "GH")
    game.press("Cy", 0)
    game.press("Cy", 0)
    game.play("Dee", "RH")
    assert game.state()["color"] == "red"


def test_A2_reverse_changes_direction(physical):
    game = physical(first="G7", dealer="Ann")
    game.play("Bob", "GR")
    s = game.state()
    assert s["direction"] == "right" and s["turn"] == "Ann"
    game.play("Ann", "G1")
    assert game.state()["turn"] == "Dee"
    game.play("Dee", "GR")
    assert game.state()["direction"] == "left" and game.state()["turn"] == "Ann"


def test_A2_reverse_only_on_its_colour_or_another_reverse(physical, unchanged):
    game = physical(first="G7")
    with unchanged(game, "illegal_card"):
        game.play("Bob", "BR")


def test_A3_skip_next_player_loses_turn(physical, unchanged):
    game = physical(first="G7", dealer="Ann")
    game.play("Bob", "GS")
    assert game.state()["turn"] == "Dee"
    game.play("Dee", "YS")  # on another Skip
    assert game.state()["turn"] == "Bob"
    with unchanged(game, "illegal_card"):
        game.play("Bob", "RH")


def test_A4_discard_all_physical_count_leaves_the_hand(physical):
    game = physical(first="G7")
    game.play("Bob", "GD", count=3)
    s = game.state()
    assert s["hands"]["Bob"] == 7 - 4 and s["discard"] == 5 and s["top"] == "GD" and s["turn"] == "Cy"


def test_A4_discard_all_dealt_discards_every_card_of_that_colour(dealt):
    game = dealt(hands={"Bob": ["GD", "G1", "G9", "GH", "R2", "W", "B4"]}, flip=["G7"])
    game.play("Bob", "GD")
    assert sorted(c.code for c in game.hand("Bob")) == ["B4", "R2", "W"]
    assert [c.code for c in game.cards.piled][-1] == "GD"
    assert sorted(c.code for c in game.cards.piled[1:-1]) == ["G1", "G9", "GH"]
    assert game.state()["turn"] == "Cy"  # the Hit 2 went down with it and does nothing


def test_A4_discard_all_on_another_discard_all_only_or_its_colour(physical, unchanged):
    game = physical(first="RD")
    game.play("Bob", "BD", count=0)
    assert game.state()["color"] == "blue"
    with unchanged(game, "illegal_card"):
        game.play("Cy", "GH")
    game.play("Cy", "GD")  # another Discard All


def test_A5_trade_hands_swaps_whole_hands_physical(physical):
    game = physical(first="G7")
    game.press("Bob", 5)  # Bob 12
    game.play("Cy", "GT", target="Bob")
    s = game.state()
    assert s["hands"]["Cy"] == 12 and s["hands"]["Bob"] == 6 and s["turn"] == "Dee"


def test_A5_trade_hands_swaps_whole_hands_dealt(dealt):
    bob = ["GT", "G1", "R2", "R3", "R4", "R5", "R6"]
    dee = ["B1", "B2", "B3", "B4", "B5", "B6", "B7"]
    game = dealt(hands={"Bob": bob, "Dee": dee}, flip=["G7"])
    game.play("Bob", "GT", target="Dee")
    assert sorted(c.code for c in game.hand("Bob")) == sorted(dee)
    assert sorted(c.code for c in game.hand("Dee")) == sorted(bob[1:])


def test_A5_trade_hands_as_last_card_refused(physical, unchanged):
    game = physical(first="G7", players=["Ann", "Bob"])
    for _ in range(6):
        game.play("Bob", "G3")
        game.press("Ann", 0)
    assert game.state()["hands"]["Bob"] == 1
    with unchanged(game, "trade_last_card"):
        game.play("Bob", "GT", target="Ann")


def test_A5_trade_hands_dealt_not_offered_as_last_card(dealt):
    game = dealt(hands={"Ann": ["GT"] + ["G1"] * 2 + ["G2"] * 2 + ["G3"] * 2}, players=["Ann", "Bob"],
                 dealer="Bob", flip=["G7"])
    for _ in range(6):
        game.play("Ann", next(p for p in game.legal_plays("Ann") if p.card != "GT"))
        game.press("Bob", 0)
    assert [c.code for c in game.hand("Ann")] == ["GT"]
    assert game.legal_plays("Ann") == []


def test_A5_trade_needs_a_target_other_than_yourself(physical, unchanged):
    game = physical(first="G7")
    with unchanged(game, "missing_target"):
        game.play("Bob", "GT")
    with unchanged(game, "bad_target"):
        game.play("Bob", "GT", target="Bob")
    with unchanged(game, "unknown_player"):
        game.play("Bob", "GT", target="Zed")


def test_A6_wild_names_next_colour(physical, unchanged):
    game = physical(first="G7")
    game.play("Bob", "W", color="R")
    assert game.state()["color"] == "red"
    with unchanged(game, "illegal_card"):
        game.play("Cy", "G1")


def test_A7_wild_all_hit_every_other_player_presses_once_from_the_next(physical):
    game = physical(first="G7", dealer="Ann")
    game.play("Bob", "WA", color="blue")
    expected = ["Cy", "Dee", "Ann"]
    assert [o["player"] for o in game.state()["owed"]] == expected
    for player in expected:
        assert game.presser() == player
        game.press(player, 1)
    s = game.state()
    assert s["turn"] == "Cy" and s["hands"]["Bob"] == 6  # next player plays, not skipped
    assert all(s["hands"][p] == 8 for p in expected)


def test_A7_wild_all_hit_follows_the_direction_of_play(physical):
    game = physical(first="G7", dealer="Ann")
    game.play("Bob", "GR")  # now right: Ann next
    game.play("Ann", "WA", color="red")
    assert [o["player"] for o in game.state()["owed"]] == ["Dee", "Cy", "Bob"]


def test_A8_wild_hit_fire_next_presses_until_fire_and_loses_turn(physical):
    game = physical(first="G7", dealer="Ann")
    game.play("Bob", "WF", color="green")
    assert game.state()["owed"] == [{"player": "Cy", "until_fire": True}]
    for _ in range(4):
        game.press("Cy", 0)
        assert game.presser() == "Cy"
    game.press("Cy", 6)
    s = game.state()
    assert s["owed"] == [] and s["turn"] == "Dee" and s["hands"]["Cy"] == 13


def test_A8_wild_hit_fire_dealt_takes_the_fired_cards(dealt):
    game = dealt(hands={"Bob": ["WF"]}, flip=["G7"], then=["R1", "R2"])
    game.play("Bob", "WF", color="red")
    game.press("Cy", 0)
    game.press("Cy", 2)
    codes = [c.code for c in game.hand("Cy")]
    assert len(codes) == 9 and "R1" in codes and "R2" in codes
    assert game.state()["turn"] == "Dee"


def test_A_wilds_need_a_colour(physical, unchanged):
    game = physical(first="G7")
    for code in ("W", "WA", "WF"):
        with unchanged(game, "missing_color"):
            game.play("Bob", code)
    with unchanged(game, "bad_color"):
        game.play("Bob", "W", color="pink")
    with unchanged(game, "unexpected_color"):
        game.play("Bob", "G3", color="red")
    game.play("Bob", "G3", color="green")  # naming the card's own colour is harmless


def test_A_play_by_a_player_who_owes_presses_is_refused(physical, unchanged):
    game = physical(first="G7")
    game.play("Bob", "GH")
    with unchanged(game, "owes_presses"):
        game.play("Cy", "G1")
    with unchanged(game, "not_your_turn"):
        game.play("Dee", "G1")


def test_A_owed_presses_in_order(physical, unchanged):
    game = physical(first="G7", dealer="Ann")
    game.play("Bob", "WA", color="red")
    with unchanged(game, "press_out_of_order"):
        game.press("Dee", 0)
    with unchanged(game, "not_owed"):
        game.press("Bob", 0)


def test_A_discard_all_count_checked(physical, dealt, unchanged):
    game = physical(first="G7")
    with unchanged(game, "bad_count"):
        game.play("Bob", "GD", count=7)
    with unchanged(game, "bad_count"):
        game.play("Bob", "GD", count=-1)
    with unchanged(game, "bad_count"):
        game.play("Bob", "G1", count=2)
    d = dealt(hands={"Bob": ["GD", "G1", "R2"]}, flip=["G7"])
    held = sum(1 for c in d.hand("Bob") if c.color == "G") - 1
    with unchanged(d, "bad_count"):
        d.play("Bob", "GD", count=held + 1)
    d.play("Bob", "GD", count=held)


def test_A_card_not_in_hand_refused_in_dealt_mode(dealt, unchanged):
    game = dealt(hands={"Bob": ["R1", "R2", "R3", "R4", "R5", "R6", "R8"]}, flip=["G7"])
    with unchanged(game, "not_in_hand"):
        game.play("Bob", "G1")
    with unchanged(game, "bad_card"):
        game.play("Bob", "XX")
