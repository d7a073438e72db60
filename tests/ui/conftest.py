"""Driving the table app through textual's pilot, as a person at the keyboard would."""

from __future__ import annotations

import html
import re

import pytest
from textual import events
from textual.keys import _character_to_key
from textual.pilot import Pilot

KEY_NAMES = {" ": "space", "=": "equals_sign", ":": "colon", "?": "question_mark", "+": "plus", ",": "comma"}


def keys(text: str) -> list[str]:
    return [KEY_NAMES.get(ch, ch) for ch in text]


async def type_line(pilot: Pilot, text: str) -> None:
    """Type `text` key by key into the command line (it always has the focus), and press Enter.

    Each character is a key event of its own through the app's driver, as `pilot.press` sends it, but sent
    in one burst, as a terminal delivers a fast typist's keys: the app handles them in order. `pilot.press`
    waits for the app to go idle after every key (at least 40 ms each), which typing a line does not need;
    Enter is still pressed, and waited for, alone."""
    app = pilot.app
    for char in text:
        event = events.Key(_character_to_key(char), char)
        event.set_sender(app)
        app._driver.send_message(event)
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


CELL = re.compile(r'<text [^>]*?x="([\d.]+)"[^>]*?clip-path="url\(#[\w-]+-line-(\d+)\)">([^<]*)</text>')


def screen_lines(app) -> list[str]:
    """The terminal as a person sees it, one string per row, read back from the app's own screenshot."""
    rows: dict[int, dict[int, str]] = {}
    for x, row, text in CELL.findall(app.export_screenshot()):
        column = round(float(x) / 12.2)
        for offset, char in enumerate(html.unescape(text).replace("\xa0", " ")):
            rows.setdefault(int(row), {})[column + offset] = char
    width, height = app.size
    return ["".join(rows.get(r, {}).get(c, " ") for c in range(width)).rstrip() for r in range(height)]


@pytest.fixture
def screen():
    """`screen(app)` -> the rows of the terminal as text."""
    return screen_lines
