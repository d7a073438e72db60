"""The table UI driven by its pilot against the simulated launcher: a whole hand, refusals, undo."""

import asyncio
import os

import pytest
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")
LAUNCHER = os.environ.get("UNOX_TEST_LAUNCHER", "sim")


def new_session(seed=5, launcher=LAUNCHER):
    return open_play_session(TableSettings(players=PLAYERS, seed=seed, launcher=launcher), night=Session)


def run(coro):
    return asyncio.run(coro)


def counted(session):
    """Cards the launcher's beam has counted so far."""
    return session.launcher.status().cards_counted


@pytest.fixture
def deal_and_flip(typer):
    async def deal(app, pilot, first):
        for line in ("Ann G3", "Bob R2", "Cy B9"):
            await typer(pilot, f"draw {line}")  # S1: no dealer yet
        assert app.session.ctx.dealer == "Cy"
        await typer(pilot, "deal")
        await typer(pilot, f"flip {first}")

    return deal



def test_whole_hand_end_to_end_G1_U1_A1(deal_and_flip, typer):
    session = new_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            await deal_and_flip(app, pilot, "RH")
            assert app.prompt_text().startswith("NEXT: Ann: press the launcher button")
            beam_before = counted(session)
            while session.state["owed"]:
                await pilot.press("ctrl+p")
                await pilot.pause()
            # A1/S4: Ann pressed twice; her hand grew by exactly what the beam counted.
            assert session.state["hands"]["Ann"] == 7 + counted(session) - beam_before
            assert session.state["turn"] == "Bob"
            numbers = iter(range(10_000))
            while session.state["phase"] == "turn":
                player = session.state["turn"]
                if session.state["owed"]:
                    await pilot.press("ctrl+p")  # the press shortcut
                    continue
                card = f"r{next(numbers) % 9 + 1}"  # typed as a person would, lower case
                await typer(pilot, card)
                if session.state["hands"].get(player) == 1:
                    assert session.state["uno"] == [player]
                    await typer(pilot, f"uno {player}")  # U1
                    assert session.state["uno"] == []
            assert session.state["phase"] == "hand_over"
            out = [p for p, n in session.state["hands"].items() if n == 0]
            assert out == ["Bob"]  # Bob plays first after Ann's presses and holds 7 like Cy
            points = {"Ann": 41, "Bob": 0, "Cy": 17}
            await typer(pilot, "score " + " ".join(f"{p}={n}" for p, n in points.items()))
            return app.prompt_text(), session.state

    prompt, state = run(scenario())
    # G1: the player who went out scores the points left in the other hands.
    assert state["scores"] == {"Ann": 0, "Bob": 41 + 17, "Cy": 0}
    assert state["phase"] == "deal"
    assert prompt == "NEXT: Ann: deal 7 cards to each player, put the rest in the launcher, then type deal"


def test_a_press_that_is_not_owed_is_refused_and_fires_nothing():
    session = new_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            state, beam = session.state, counted(session)
            await pilot.press("ctrl+p")  # before the deal nobody owes a press
            await pilot.pause()
            return app, state, beam

    app, state, beam = run(scenario())
    assert app.message.startswith("Not taken: Press refused (not-now beep): nobody owes a press now")
    assert session.state == state
    assert counted(session) == beam
    refusal = [line for line in session.log if line.startswith("Press refused (not-now beep)")]
    assert refusal and "S1: each player takes a card" in refusal[-1]
    assert not any('{"cmd"' in line for line in session.log)  # the play screen's words, not JSON (8.6)


def test_undo_takes_back_the_last_announcement_exactly(deal_and_flip):
    session = new_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            await deal_and_flip(app, pilot, "G7")
            start = session.state
            await pilot.press("G", "5", "enter")
            await pilot.pause()
            played = session.state
            await pilot.press("ctrl+z")  # the undo shortcut
            await pilot.pause()
            return start, played, session.state, app.prompt_text()

    start, played, after_undo, prompt = run(scenario())
    assert played["top"] == "G5" and played["hands"]["Ann"] == 6
    assert after_undo == start
    assert prompt.startswith("NEXT: Ann: play a card on G7")


def test_an_illegal_card_is_shown_as_not_taken_and_changes_nothing(deal_and_flip):
    session = new_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            await deal_and_flip(app, pilot, "G7")
            start = session.state
            await pilot.press("R", "5", "enter")  # neither green nor a 7 (T1)
            await pilot.pause()
            return start, app.message

    start, error = run(scenario())
    assert session.state == start
    assert error.startswith("Not taken:")
