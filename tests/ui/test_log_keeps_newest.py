"""Issue 26 item 4: the log panel kept its oldest lines in view: after a resize to 60x20 and back, and when a
3-line refusal took rows from it (the flip and `Owed:` lines went out of view); `help`, longer than the log
at 80x24, showed its end with its first lines cut, and PageUp did nothing. Through the textual driver."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import RichLog
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")


def busy_session():
    session = open_play_session(TableSettings(players=PLAYERS, seed=5, launcher="sim"), night=Session)
    session.submit("deal Cy")
    for _ in range(3):
        session.emit("filler line " * 3)  # a log longer than its box
    session.submit("flip RH")  # the newest lines: the flip, and Ann owes two presses
    return session


def newest_in_view(app, screen) -> bool:
    text = "\n".join(screen(app))
    return "Ann owes 2 presses" in text.replace("\n", " ") or "owes 2" in text


def at_end(log: RichLog) -> bool:
    return log.scroll_y >= log.max_scroll_y


def test_the_newest_lines_stay_in_view_after_a_resize_and_back(screen):
    session = busy_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(4):
                app.action_help()  # a long log
            await pilot.pause()
            session.emit("the newest line")
            await pilot.pause()
            seen = [at_end(app.query_one("#log", RichLog))]
            await pilot.resize_terminal(60, 20)
            await pilot.pause()
            await pilot.pause()
            seen.append(at_end(app.query_one("#log", RichLog)))
            seen.append("the newest line" in "\n".join(screen(app)))
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.pause()
            seen.append(at_end(app.query_one("#log", RichLog)))
            seen.append("the newest line" in "\n".join(screen(app)))
            return seen

    assert asyncio.run(scenario()) == [True] * 5


def test_a_long_refusal_does_not_push_the_newest_lines_out_of_view(typer, screen):
    session = busy_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(4):
                app.action_help()
            session.emit("the newest line")
            await pilot.pause()
            await typer(pilot, "Bob " + "x" * 30 + " " + "y" * 30 + " " + "z" * 30)  # a refusal of 3 lines
            await pilot.pause()
            await pilot.pause()
            return app.message, at_end(app.query_one("#log", RichLog)), "\n".join(screen(app))

    message, end, text = asyncio.run(scenario())
    assert message.startswith("Not taken") and len(message) > 160
    assert end and "the newest line" in text


def test_help_starts_in_view_and_page_up_scrolls_the_log(typer):
    session = busy_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await typer(pilot, "help")
            log = app.query_one("#log", RichLog)
            first = log.scroll_y
            await pilot.press("pageup")
            await pilot.pause()
            up = log.scroll_y
            await pilot.press("pagedown")
            await pilot.pause()
            return first, up, log.scroll_y, log.max_scroll_y

    first, up, down, bottom = asyncio.run(scenario())
    assert bottom > 0 and up < first and down > up


@pytest.mark.parametrize("rules", ["classic", "barbie"])
def test_help_longer_than_the_log_shows_its_first_line(rules, typer, screen):
    """Classic's and Barbie's help are longer than the log at 80x24: it showed their end, the start cut."""
    session = open_play_session(TableSettings(players=PLAYERS, seed=5, rules=rules, launcher="sim"),
                                night=Session)

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await typer(pilot, "help")
            await pilot.pause()
            await pilot.pause()
            return "\n".join(screen(app))

    text = asyncio.run(scenario())
    assert "type a card for the player whose turn it is" in text.lower()  # the help's first line
