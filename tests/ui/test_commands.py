"""The command line: every verb parses to the table request it stands for, and bad input says what to type."""

import pytest
from unox.ui.commands import InputError, card_codes, parse_line, suggest

PLAYERS = ["Ann", "Bob", "Cy"]


def test_card_codes_are_the_112_card_deck_faces():
    codes = card_codes()
    # 9 numbers and 5 actions per colour, plus the three wilds (RULES "Names").
    assert len(codes) == len(set(codes)) == 4 * (9 + 5) + 3


def test_a_bare_card_is_played_by_the_turn_player():
    command = parse_line("r5", PLAYERS, turn="Bob")
    assert command.request == {"cmd": "play", "player": "Bob", "card": "R5"}


def test_a_named_play_with_colour_target_and_count():
    assert parse_line("cy W red", PLAYERS, "Ann").request == {
        "cmd": "play", "player": "Cy", "card": "W", "color": "R"}
    assert parse_line("play Ann RT bob", PLAYERS, None).request == {
        "cmd": "play", "player": "Ann", "card": "RT", "target": "Bob"}
    assert parse_line("Ann GD 2", PLAYERS, None).request["count"] == 2


def test_a_bad_card_is_refused_with_the_card_syntax():
    with pytest.raises(InputError, match="G7"):
        parse_line("Bob Z9", PLAYERS, "Bob")


def test_a_play_with_nobody_to_play_asks_who():
    with pytest.raises(InputError, match="who plays"):
        parse_line("R5", PLAYERS, None)


def test_an_unknown_player_lists_the_seated_players():
    with pytest.raises(InputError, match="Ann, Bob, Cy"):
        parse_line("uno Dee", PLAYERS, "Ann")


def test_U2_catch_and_P1_P2_penalties():
    caught = parse_line("catch bob by cy", PLAYERS, "Ann").request
    assert caught == {"cmd": "catch", "player": "Bob", "by": "Cy"}
    assert parse_line("penalty Ann advice", PLAYERS, None).request["kind"] == "advice"
    assert parse_line("penalty Ann wrong", PLAYERS, None).request["kind"] == "wrong_card"
    with pytest.raises(InputError, match="wrong_card"):
        parse_line("penalty Ann shouting", PLAYERS, None)


def test_flip_deal_reload_and_score():
    assert parse_line("flip W blue", PLAYERS, None).request == {"cmd": "flip", "card": "W", "color": "B"}
    assert parse_line("deal", PLAYERS, None).request == {"cmd": "deal"}
    assert parse_line("deal cy", PLAYERS, None).request == {"cmd": "deal", "dealer": "Cy"}
    assert parse_line("reload", PLAYERS, None).request == {"cmd": "reload"}
    by_seat = parse_line("score 0 12 40", PLAYERS, None).request["points"]
    assert by_seat == {"Ann": 0, "Bob": 12, "Cy": 40}
    named = parse_line("score Cy=40 Ann=0 Bob=12", PLAYERS, None).request["points"]
    assert named == by_seat


def test_score_missing_a_player_names_who_is_missing():
    with pytest.raises(InputError, match="missing: Cy"):
        parse_line("score Ann=0 Bob=3", PLAYERS, None)


def test_local_verbs_carry_no_request():
    for line, verb in (("press", "press"), ("b", "press"), ("undo", "undo"), ("help", "help")):
        command = parse_line(line, PLAYERS, "Ann")
        assert (command.verb, command.request) == (verb, {})
    assert parse_line("draw Ann G7", PLAYERS, None).request == {"player": "Ann", "card": "G7"}


def test_completion_offers_players_cards_colours_and_verbs():
    assert suggest("un", PLAYERS) == "uno"
    assert suggest("uno B", PLAYERS) == "uno Bob"
    assert suggest("Bob W", PLAYERS) == "Bob WA"
    assert suggest("Bob W re", PLAYERS) == "Bob W red"
    assert suggest("penalty Ann wr", PLAYERS) == "penalty Ann wrong_card"
    assert suggest("Bob ", PLAYERS) is None
    assert suggest("zzz", PLAYERS) is None
