"""Issue 26 item 1: two lines typed back to back (a paste, a fast typist: `G5` Enter `G3` Enter with no
pause) were sometimes merged (``Not taken: `G5G3` ``) or lost, and a 100-character line followed by `bob`
came back as one 103-character line. The keys go in with no pause between lines, at 80x24 and 60x20."""

from __future__ import annotations

import asyncio

import pytest
from textual import events
from textual.widgets import Input
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

from .conftest import keys

PLAYERS = ("Ann", "Bob", "Cy")
SIZES = [(80, 24), (60, 20)]


def dealt_session():
    session = open_play_session(TableSettings(players=PLAYERS, seed=5, launcher="sim"), night=Session)
    session.submit("deal Cy")
    session.submit("flip G7")
    return session


async def type_at_once(app, pilot, *names: str) -> None:
    """Every key sent to the terminal at once, as a paste or a fast typist's keys arrive: the pilot's own
    `press` waits for the app to go idle after each key, which a person never does."""
    from textual.app import _character_to_key

    for name in names:
        key = _character_to_key(name) if len(name) == 1 and not name.isalnum() else name
        event = events.Key(key, name if len(name) == 1 else ("\r" if name == "enter" else None))
        event.set_sender(app)
        app._driver.send_message(event)
    for _ in range(5):
        await pilot.pause()


def plays(session) -> list[tuple[str, str]]:
    return [(e["player"], e["card"]) for e in session.entries() if e["cmd"] == "play"]


@pytest.mark.parametrize("size", SIZES)
def test_two_lines_typed_with_no_pause_are_two_plays(size):
    session = dealt_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=size) as pilot:
            await type_at_once(app, pilot, *keys("G5"), "enter", *keys("G3"), "enter", *keys("G1"), "enter")
            return app.message, app.query_one("#command", Input).value, list(app.history)

    message, left, history = asyncio.run(scenario())
    assert plays(session) == [("Ann", "G5"), ("Bob", "G3"), ("Cy", "G1")], message
    assert left == "" and history == ["G5", "G3", "G1"]


@pytest.mark.parametrize("size", SIZES)
def test_a_long_line_then_a_short_one_stay_two_lines(size):
    session = dealt_session()
    long_line = "x" * 100

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=size) as pilot:
            await type_at_once(app, pilot, *keys(long_line), "enter", *keys("bob"), "enter")
            return list(app.history), app.message

    history, message = asyncio.run(scenario())
    assert history == [long_line, "bob"]
    assert message.startswith("Not taken: `bob`")  # the last line's own refusal, not a merged one


@pytest.mark.parametrize("size", SIZES)
def test_a_pasted_block_of_lines_is_every_line_in_order(size):
    session = dealt_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=size) as pilot:
            app.query_one("#command", Input).post_message(events.Paste("G5\nG3\nG1"))
            await pilot.pause()
            box = app.query_one("#command", Input).value
            await pilot.press("enter")
            await pilot.pause()
            return box

    left_for_enter = asyncio.run(scenario())
    assert left_for_enter == "G1"  # the last line waits in the box for its Enter, as a typed one would
    assert plays(session) == [("Ann", "G5"), ("Bob", "G3"), ("Cy", "G1")]
