"""The command line: every verb parses to the table request it stands for, and bad input says what to type."""

import pytest
from unox.ui.commands import InputError, card_codes, card_meaning, parse_line, suggest

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
    for line, verb in (("press", "press"), ("undo", "undo"), ("help", "help")):
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


def test_a_seated_name_is_a_player_before_it_is_a_verb_or_an_alias():
    # Issue 8.4: with players A and B, `B G2` was a press by Bob; `b` is no longer short for press.
    assert parse_line("B G2", ["A", "B"], "A").request == {"cmd": "play", "player": "B", "card": "G2"}
    assert parse_line("deal G2", ["Ann", "Deal"], None).request["player"] == "Deal"
    with pytest.raises(InputError, match="'b' is not understood"):
        parse_line("b", PLAYERS, "Ann")


@pytest.mark.parametrize(
    ("line", "left_over"),
    [
        ("press Bob 3", "Bob 3"),
        ("press 3", "3"),
        ("undo please", "please"),
        ("reload now", "now"),
        ("uno Bob Cy", "Cy"),
        ("deal Ann Bob", "Bob"),
        ("R5 red", "red"),
        ("Bob W red blue", "blue"),
        ("RT Cy Bob", "Bob"),
        ("G7 2", "2"),
        ("flip G7 red", "red"),
        ("score Ann=0 Bob=3 Cy", "Cy"),
        ("catch Bob by Cy now", "now"),
        ("penalty Bob advice twice", "twice"),
        ("draw Ann G7 G8", "G8"),
        ("flip W red blue", "blue"),
    ],
)
def test_a_line_that_does_not_parse_whole_is_refused_naming_the_part_not_understood(line, left_over):
    with pytest.raises(InputError) as refused:
        parse_line(line, PLAYERS, "Ann", {"Ann": 5, "Bob": 5, "Cy": 5})
    assert f"not understood: {left_over!r}" in str(refused.value)


def test_score_points_are_checked_against_the_cards_left_in_the_hand():
    # Issue 8.8: `score Ann=9999` with one card in hand; a card is worth at most 50 (a wild).
    hands = {"Ann": 1, "Bob": 0, "Cy": 2}
    with pytest.raises(InputError, match=r"Ann=9999: Ann holds 1 card, so their points are 0 to 50"):
        parse_line("score Ann=9999 Bob=0 Cy=3", PLAYERS, None, hands)
    with pytest.raises(InputError, match=r"Cy=-4: Cy holds 2 cards, so their points are 0 to 100"):
        parse_line("score Ann=20 Bob=0 Cy=-4", PLAYERS, None, hands)
    with pytest.raises(InputError, match="given twice"):
        parse_line("score Ann=1 Ann=2 Bob=0 Cy=3", PLAYERS, None, hands)
    assert parse_line("score Ann=50 Bob=0 Cy=100", PLAYERS, None, hands).request["points"]["Cy"] == 100


def test_a_discard_all_count_is_checked_against_the_hand():
    with pytest.raises(InputError, match="Ann can discard 0 to 3 more green cards with GD"):
        parse_line("GD 9", PLAYERS, "Ann", {"Ann": 4})


def test_card_meanings_are_spelled_out():
    assert card_meaning("RD") == "red Discard All"
    assert card_meaning("G7") == "green 7"
    assert card_meaning("WF") == "Wild Hit-Fire"
    assert card_meaning("BH") == "blue Hit 2"
