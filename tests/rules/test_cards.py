"""Cards: the 112-card Extreme deck, codes, colours and points (RULES, "Names")."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from unox.rules.cards import CARDS, COLOR_NAMES, CardError, format_card, parse_card, parse_color
from unox.rules.extreme import extreme_deck

# The table in docs/rules.md, "Names": kind -> (cards in the deck, points per card)
RULES_TABLE = {
    "hit2": (8, 20),
    "reverse": (8, 20),
    "skip": (8, 20),
    "discard_all": (4, 30),
    "trade": (4, 30),
    "wild": (4, 50),
    "wild_all_hit": (2, 50),
    "wild_hit_fire": (2, 50),
}


def test_deck_has_112_cards_as_in_the_rules_table():
    deck = [parse_card(c) for c in extreme_deck()]
    assert len(deck) == 112
    kinds = Counter(c.kind for c in deck)
    for kind, (count, points) in RULES_TABLE.items():
        assert kinds[kind] == count, kind
        assert {c.points for c in deck if c.kind == kind} == {points}
    numbers = [c for c in deck if c.kind == "number"]
    assert len(numbers) == 72
    for color in "RYGB":
        for n in range(1, 10):
            assert sum(1 for c in numbers if c.color == color and c.number == n) == 2
    assert all(c.points == c.number for c in numbers)
    assert not any(c.number == 0 for c in numbers)


def test_action_cards_spread_evenly_over_colours():
    deck = [parse_card(c) for c in extreme_deck()]
    for kind in ("hit2", "reverse", "skip", "discard_all", "trade"):
        per_color = Counter(c.color for c in deck if c.kind == kind)
        assert len(set(per_color.values())) == 1 and set(per_color) == set("RYGB")
    assert all(c.color is None for c in deck if c.kind.startswith("wild"))


@pytest.mark.parametrize(
    "code, color, kind",
    [("G7", "G", "number"), ("RH", "R", "hit2"), ("BR", "B", "reverse"), ("YS", "Y", "skip"),
     ("GD", "G", "discard_all"), ("RT", "R", "trade"), ("W", None, "wild"), ("WA", None, "wild_all_hit"),
     ("WF", None, "wild_hit_fire")],
)
def test_codes_from_the_rules_parse(code, color, kind):
    card = parse_card(code)
    assert (card.code, card.color, card.kind) == (code, color, kind)


def test_parse_is_forgiving_about_case_and_spaces_and_returns_the_same_card():
    assert parse_card(" g7 ") is parse_card("G7")
    assert parse_card("wa") is CARDS["WA"]
    assert parse_card(parse_card("RH")) is CARDS["RH"]


@given(st.sampled_from(sorted(CARDS)))
def test_format_round_trips_every_code(code):
    assert format_card(parse_card(code)) == code
    assert parse_card(format_card(code.lower())) is CARDS[code]


@pytest.mark.parametrize("bad", ["G0", "X7", "R10", "", "WW", "7G", None, 7])
def test_bad_codes_raise_card_error_saying_what_is_accepted(bad):
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert "G7" in str(info.value) or "1-9" in str(info.value)


def test_colours_by_name_or_letter():
    for letter, name in COLOR_NAMES.items():
        assert parse_color(name) == letter
        assert parse_color(name.upper()) == letter
        assert parse_color(letter) == letter
        assert parse_color(letter.lower()) == letter
    with pytest.raises(CardError, match="red, yellow, green or blue"):
        parse_color("purple")
    with pytest.raises(CardError):
        parse_color(None)


def test_card_is_immutable():
    with pytest.raises(AttributeError):
        parse_card("G7").points = 99
