"""Request shapes, checked before the rules see them: JSON, fields, types and seated players."""

from __future__ import annotations

import pytest
from unox.table.requests import REQUESTS, ProtocolError, check_request, parse_line

PLAYERS = ("Ann", "Bob", "Cy")


def refused(request, **options) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        check_request(request, PLAYERS, **options)
    assert caught.value.message, "every refusal tells a person what to do"
    return caught.value


@pytest.mark.parametrize("line", ["{", "cmd: state", '{"cmd":"state"', "", "{'cmd': 'state'}"])
def test_malformed_json_is_bad_json(line):
    with pytest.raises(ProtocolError) as caught:
        parse_line(line)
    assert caught.value.code == "bad_json"
    assert '{"cmd":"state"}' in caught.value.message


@pytest.mark.parametrize("line", ["[1, 2]", '"state"', "42", "null", "true"])
def test_json_that_is_not_an_object_is_bad_request(line):
    with pytest.raises(ProtocolError) as caught:
        parse_line(line)
    assert caught.value.code == "bad_request"


@pytest.mark.parametrize("request_", [{}, {"cmd": 3}, {"cmd": None}, {"command": "state"}])
def test_a_request_without_a_string_cmd_is_bad_request(request_):
    assert refused(request_).code == "bad_request"


def test_an_unknown_cmd_names_the_known_ones():
    error = refused({"cmd": "draw"})
    assert error.code == "unknown_cmd"
    for cmd in REQUESTS:
        assert cmd in error.message


@pytest.mark.parametrize(
    "request_, field",
    [
        ({"cmd": "deal"}, "dealer"),
        ({"cmd": "flip"}, "card"),
        ({"cmd": "play", "player": "Bob"}, "card"),
        ({"cmd": "play", "card": "R5"}, "player"),
        ({"cmd": "press", "player": "Bob"}, "fired"),
        ({"cmd": "press", "fired": 2}, "player"),
        ({"cmd": "uno"}, "player"),
        ({"cmd": "catch", "player": "Bob"}, "by"),
        ({"cmd": "penalty", "player": "Bob"}, "kind"),
        ({"cmd": "score"}, "points"),
    ],
)
def test_a_missing_field_is_bad_request_naming_it(request_, field):
    error = refused(request_)
    assert error.code == "bad_request"
    assert field in error.message


@pytest.mark.parametrize(
    "request_",
    [
        {"cmd": "deal", "dealer": 7},
        {"cmd": "flip", "card": ["G7"]},
        {"cmd": "flip", "card": ""},
        {"cmd": "play", "player": "Bob", "card": "W", "color": 1},
        {"cmd": "play", "player": "Bob", "card": "GD", "count": "2"},
        {"cmd": "play", "player": "Bob", "card": "GD", "count": 1.5},
        {"cmd": "press", "player": "Bob", "fired": True},
        {"cmd": "press", "player": "Bob", "fired": "3"},
        {"cmd": "score", "points": [0, 1, 2]},
        {"cmd": "score", "points": {"Ann": "ten"}},
    ],
)
def test_a_wrongly_typed_field_is_bad_request(request_):
    assert refused(request_).code == "bad_request"


def test_an_unknown_field_is_bad_request_listing_the_known_ones():
    error = refused({"cmd": "play", "player": "Bob", "card": "W", "colour": "red"})
    assert error.code == "bad_request"
    assert "colour" in error.message and "color" in error.message


@pytest.mark.parametrize(
    "request_",
    [
        {"cmd": "deal", "dealer": "Dee"},
        {"cmd": "play", "player": "ann", "card": "R5"},
        {"cmd": "play", "player": "Bob", "card": "RT", "target": "Zed"},
        {"cmd": "press", "player": "Dee", "fired": 1},
        {"cmd": "catch", "player": "Bob", "by": "Dee"},
        {"cmd": "score", "points": {"Ann": 0, "Bob": 3, "Dee": 4}},
    ],
)
def test_a_name_not_seated_is_unknown_player(request_):
    error = refused(request_)
    assert error.code == "unknown_player"
    assert "Ann, Bob, Cy" in error.message


def test_null_optional_fields_are_left_out():
    request = {"cmd": "play", "player": "Bob", "card": "R5", "color": None, "target": None}
    clean = check_request(request, PLAYERS)
    assert clean == {"cmd": "play", "player": "Bob", "card": "R5"}


def test_press_may_leave_out_fired_and_player_when_a_launcher_fires():
    assert check_request({"cmd": "press"}, PLAYERS, fired_optional=True) == {"cmd": "press"}
    assert refused({"cmd": "press"}).code == "bad_request"
