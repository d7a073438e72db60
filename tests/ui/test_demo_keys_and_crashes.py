"""Issue 8.3: `z` (or anything else typed) in the demo is refused, never a crash; and an unexpected error
inside the table UI ends it with status 1 and reaches the caller as the error itself (the CLI's handler
reports it in one line), never as a traceback on screen and never with status 0."""

import asyncio

import pytest
from unox.table.demo import open_demo
from unox.ui.app import TableApp, run_app
from unox.ui.session import Session


def test_typing_undo_or_z_in_the_demo_is_refused_and_the_bots_play_on(typer):
    session, driver = open_demo(players=3, seed=1, target=100, night=Session)
    for _ in range(40):  # the bots are well into the first hand
        driver.step()

    async def scenario():
        app = TableApp(session, autoplay=driver.step, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await typer(pilot, "z")
            refused_z = app.message
            await pilot.press("ctrl+z")  # the undo shortcut is not the demo's
            await typer(pilot, "undo")
            refused_undo = app.message
            await app.workers.wait_for_complete()
            await pilot.pause()
            return refused_z, refused_undo, app.return_code

    refused_z, refused_undo, code = asyncio.run(scenario())
    assert refused_z == "Not taken: `z`: this is the bots' table: watch, F1 for help, or type quit to leave"
    assert refused_undo.startswith("Not taken: `undo`: this is the bots' table")
    assert session.state["phase"] == "game_over"  # the bots played the game to its end
    assert not any(line.startswith("Undone") for line in session.log)
    assert code in (None, 0)


class Boom(RuntimeError):
    pass


def test_an_unexpected_error_in_a_typed_command_ends_the_app_with_status_1_and_is_kept(typer, monkeypatch):
    session, _ = open_demo(players=2, seed=3, night=Session)

    def broken(line):
        raise Boom("engine bug")

    monkeypatch.setattr(session, "submit", broken)

    async def scenario():
        app = TableApp(session)
        with pytest.raises(Boom):
            async with app.run_test(size=(80, 24)) as pilot:
                await typer(pilot, "R5")
        return app

    app = asyncio.run(scenario())
    assert app.return_code == 1 and isinstance(app.crash, Boom)


def test_run_app_raises_the_error_of_a_crashed_app_instead_of_returning_0():
    session, _ = open_demo(players=2, seed=3, night=Session)

    def step():
        raise Boom("a bot's move blew up")

    with pytest.raises(Boom, match="a bot's move blew up"):
        run_app(session, autoplay=step, headless=True)
