"""Driving the table app through textual's pilot, as a person at the keyboard would."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

KEY_NAMES = {" ": "space", "=": "equals_sign", ":": "colon", "?": "question_mark"}


def keys(text: str) -> list[str]:
    return [KEY_NAMES.get(ch, ch) for ch in text]


async def type_line(pilot: Pilot, text: str) -> None:
    """Type `text` key by key into the command line (it always has the focus), and press Enter."""
    await pilot.press(*keys(text))
    await pilot.press("enter")
    await pilot.pause()


@pytest.fixture
def typer():
    """`await typer(pilot, "Bob R5")` types one command line."""
    return type_line


@pytest.fixture
def keyer():
    """`keyer("Ann G3")` -> the key names that type that text."""
    return keys


@pytest.fixture(autouse=True)
def state_home(tmp_path, monkeypatch):
    """`unox play` journals every table under the user's state directory: here, a fresh one per test."""
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home
