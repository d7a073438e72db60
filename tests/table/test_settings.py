"""Table settings are checked once, with messages that say what is allowed."""

from __future__ import annotations

import pytest
from unox.table.settings import MAX_PLAYERS, SettingsError, TableSettings, parse_players


def test_parse_players_keeps_the_clockwise_order():
    assert parse_players("Ann, Bob,Cy") == ("Ann", "Bob", "Cy")


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("Ann", "2 to 10"),
        (",".join(f"P{i}" for i in range(MAX_PLAYERS + 1)), "2 to 10"),
        ("Ann,Bob,ann", "seated twice"),
        ("Ann,,Cy", "not usable"),
    ],
)
def test_bad_player_lists_are_refused(text, fragment):
    with pytest.raises(SettingsError, match=fragment):
        parse_players(text)


@pytest.mark.parametrize(
    "options, fragment",
    [
        ({"scoring": "g4"}, "g1, g2, g3"),
        ({"target": 0}, "1 to"),
        ({"target": True}, "1 to"),
        ({"seed": "seven"}, "whole number"),
    ],
)
def test_bad_settings_are_refused(options, fragment):
    with pytest.raises(SettingsError, match=fragment):
        TableSettings(players=("Ann", "Bob"), **options)


def test_settings_round_trip_through_a_dict():
    settings = TableSettings(players=("Ann", "Bob"), scoring="g3", target=200, profile="gentle", seed=9)
    assert TableSettings.from_dict(settings.to_dict()) == settings


def test_unknown_stored_settings_are_refused():
    with pytest.raises(SettingsError, match="unknown"):
        TableSettings.from_dict({"players": ["Ann", "Bob"], "speed": 3})


def test_the_same_settings_build_equal_fresh_games():
    settings = TableSettings(players=("Ann", "Bob", "Cy"), seed=3)
    assert settings.build_game().state() == settings.build_game().state()
