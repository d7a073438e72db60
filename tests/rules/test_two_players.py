"""Two players: 2P1 (Reverse works like Skip), 2P2 (Skip: play again), 2P3 (Hit 2: back to the player)."""

TWO = ["Ann", "Bob"]


def test_2P1_reverse_works_like_skip(physical):
    game = physical(first="G7", players=TWO, dealer="Ann")
    game.play("Bob", "GR")
    assert game.state()["turn"] == "Bob"


def test_2P2_skip_plays_again(physical):
    game = physical(first="G7", players=TWO, dealer="Ann")
    game.play("Bob", "GS")
    assert game.state()["turn"] == "Bob"


def test_2P3_hit2_opponent_presses_twice_then_back_to_the_player(physical):
    game = physical(first="G7", players=TWO, dealer="Ann")
    game.play("Bob", "GH")
    assert game.state()["owed"] == [{"player": "Ann", "presses": 2}]
    game.press("Ann", 0)
    game.press("Ann", 0)
    assert game.state()["turn"] == "Bob"


def test_2P_wild_hit_fire_opponent_presses_until_fire_then_player_again(physical):
    game = physical(first="G7", players=TWO, dealer="Ann")
    game.play("Bob", "WF", color="red")
    game.press("Ann", 3)
    assert game.state()["turn"] == "Bob"


def test_2P_wild_all_hit_opponent_presses_once_then_plays(physical):
    game = physical(first="G7", players=TWO, dealer="Ann")
    game.play("Bob", "WA", color="red")
    assert game.state()["owed"] == [{"player": "Ann", "presses": 1}]
    game.press("Ann", 0)
    assert game.state()["turn"] == "Ann"


def test_2P_first_card_reverse_dealer_starts(physical):
    assert physical(first="GR", players=TWO, dealer="Ann").state()["turn"] == "Ann"
