"""Scoring G1, G2, G3 with a target, and several hands until the game is over."""

from unox.rules.game import Game

PLAYERS = ["Ann", "Bob", "Cy"]


def _finish_hand(game, out="Bob"):
    """Physical mode: `out` plays green numbers until out; the others press between."""
    while game.phase != "hand_over":
        player = game.presser()
        if player == out:
            game.play(out, "G3")
        else:
            game.press(player, 0)


def _hand(game, dealer, out, points):
    game.deal(dealer)
    game.flip("G7")
    _finish_hand(game, out)
    game.score(points)


def test_G1_winner_scores_everyone_elses_points(physical):
    game = physical(first="G7", players=PLAYERS, dealer="Ann", target=500)
    _finish_hand(game, "Bob")
    game.score({"Ann": 40, "Bob": 0, "Cy": 72})
    s = game.state()
    assert s["scores"] == {"Ann": 0, "Bob": 112, "Cy": 0}
    assert s["phase"] == "deal" and s["winner"] is None and s["last_hand"]["went_out"] == "Bob"


def test_G1_first_to_the_target_wins_over_several_hands():
    game = Game(PLAYERS, target=200)
    _hand(game, "Ann", "Bob", {"Ann": 50, "Bob": 0, "Cy": 60})
    _hand(game, "Bob", "Cy", {"Ann": 30, "Bob": 30, "Cy": 0})
    assert game.state()["phase"] == "deal" and game.hand_number == 2
    _hand(game, "Cy", "Bob", {"Ann": 45, "Bob": 0, "Cy": 46})
    s = game.state()
    assert s["phase"] == "game_over" and s["winner"] == "Bob" and s["scores"]["Bob"] == 110 + 91


def test_G1_next_dealer_defaults_to_the_left_of_the_last():
    game = Game(PLAYERS)
    _hand(game, "Cy", "Bob", {"Ann": 1, "Bob": 0, "Cy": 1})
    game.deal()
    assert game.dealer == "Ann"


def test_G2_each_adds_own_points_lowest_wins_when_one_reaches_target():
    game = Game(PLAYERS, scoring="g2", target=100)
    _hand(game, "Ann", "Bob", {"Ann": 50, "Bob": 0, "Cy": 60})
    assert game.scores == {"Ann": 50, "Bob": 0, "Cy": 60}
    _hand(game, "Bob", "Ann", {"Ann": 0, "Bob": 30, "Cy": 45})
    s = game.state()
    assert s["phase"] == "game_over" and s["scores"] == {"Ann": 50, "Bob": 30, "Cy": 105}
    assert s["winner"] == "Bob"


def test_G3_reaching_the_limit_puts_a_player_out_then_two_play_a_final():
    game = Game(PLAYERS, scoring="g3", target=100)
    _hand(game, "Ann", "Bob", {"Ann": 20, "Bob": 0, "Cy": 120})
    s = game.state()
    assert s["dropped"] == ["Cy"] and s["players"] == ["Ann", "Bob"] and s["winner"] is None
    game.deal("Ann")
    game.flip("G7")
    assert set(game.state()["hands"]) == {"Ann", "Bob"}
    _finish_hand(game, "Ann")  # the final: whoever goes out wins, whatever the totals
    game.score({"Ann": 0, "Bob": 10})
    assert game.state()["winner"] == "Ann" and game.phase == "game_over"


def test_G3_dropped_player_cannot_deal_or_play(unchanged):
    game = Game(PLAYERS, scoring="g3", target=100)
    _hand(game, "Ann", "Bob", {"Ann": 20, "Bob": 0, "Cy": 120})
    with unchanged(game, "player_out"):
        game.deal("Cy")
    game.deal()  # Ann dealt last, so the deal passes left to Bob
    assert game.dealer == "Bob"


def test_G3_last_one_standing_wins():
    game = Game(["Ann", "Bob", "Cy", "Dee"], scoring="g3", target=100)
    _hand(game, "Ann", "Bob", {"Ann": 100, "Bob": 0, "Cy": 120, "Dee": 130})
    assert game.state()["winner"] == "Bob"


def test_G_dealt_mode_scores_from_the_hands(dealt):
    game = dealt(hands={"Bob": ["G1"] * 2 + ["G2"] * 2 + ["G3"] * 2 + ["G4"]}, players=PLAYERS, dealer="Ann",
                 flip=["G7"])
    expected = None
    while game.phase != "deal":
        player = game.presser()
        if player == "Bob":
            if len(game.hand("Bob")) == 1:
                expected = sum(c.points for p in ("Ann", "Cy") for c in game.hand(p))
            game.play("Bob", game.legal_plays("Bob")[0])
        else:
            game.press(player, 0)
    assert game.scores["Bob"] == expected and game.state()["last_hand"]["went_out"] == "Bob"


def test_G_score_is_physical_only_and_after_the_hand(physical, dealt, unchanged):
    game = physical(first="G7", players=PLAYERS)
    with unchanged(game, "wrong_phase"):
        game.score({"Ann": 0, "Bob": 0, "Cy": 0})
    _finish_hand(game, "Bob")
    for bad in ({"Ann": 1, "Bob": 0}, {"Ann": 1, "Bob": 0, "Cy": -1}, {"Ann": 1, "Bob": 5, "Cy": 1},
                {"Ann": 1.5, "Bob": 0, "Cy": 1}, {"Ann": 1, "Bob": 0, "Cy": 1, "Zed": 0}):
        with unchanged(game, "bad_points"):
            game.score(bad)
    d = dealt()
    with unchanged(d, "wrong_phase"):
        d.score({})


def test_G3_a_game_of_two_is_the_final_at_once():
    game = Game(["Ann", "Bob"], scoring="g3", target=500)
    _hand(game, "Ann", "Bob", {"Ann": 7, "Bob": 0})
    assert game.state()["winner"] == "Bob"
