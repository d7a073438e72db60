"""UNO calls, catches, penalties, completion and lid/empty faults, through the table UI's keys."""

import asyncio

from textual.widgets import Input
from unox.launcher.faults import FAULT_ACTIONS
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")


def session_for(launcher="sim", seed=4):
    return open_play_session(TableSettings(players=PLAYERS, seed=seed, launcher=launcher), night=Session)


def play_down_to_one(session):
    """Cy deals, G7 is turned up, everyone plays green until Ann has one card left (nobody presses)."""
    for line in ("deal Cy", "flip G7"):
        session.submit(line)
    number = 1
    while session.state["hands"]["Ann"] > 1:
        session.submit(f"G{number}")
        number = number % 9 + 1


def test_U2_a_typed_catch_of_a_player_who_did_not_call_makes_them_press_twice(keyer):
    session = session_for()
    play_down_to_one(session)
    assert session.state["uno"] == ["Ann"]

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            await pilot.press(*keyer("catch A"))
            await pilot.pause()
            await pilot.press("right")  # accept the completion: Ann
            await pilot.press(*keyer(" by Cy"))
            typed = app.query_one("#command", Input).value
            await pilot.press("enter")
            await pilot.pause()
            return typed, app.prompt_text()

    typed, prompt = asyncio.run(scenario())
    assert typed == "catch Ann by Cy"
    assert session.state["owed"] == [{"player": "Ann", "presses": 2}]  # U2 / P3: press twice
    assert session.state["uno"] == []
    assert prompt.startswith("NEXT: Ann: press the launcher button")


def test_U1_typing_uno_calls_it_for_the_player(typer):
    session = session_for()
    play_down_to_one(session)
    assert session.state["uno"] == ["Ann"] and "Ann" not in session.called

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            await typer(pilot, "uno ann")
            return str(app.query_one("#players").render())

    asyncio.run(scenario())
    assert session.state["uno"] == [] and session.state["owed"] == []
    assert "Ann" in session.called
    assert "Ann" in session.log[-1] and "UNO" in session.log[-1]


def test_P1_a_typed_penalty_with_completion_gives_four_presses(keyer):
    session = session_for()
    for line in ("deal Cy", "flip G7"):
        session.submit(line)

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            await pilot.press(*keyer("penalty B"))
            await pilot.pause()
            await pilot.press("right")  # accept the completion: Bob
            await pilot.press(*keyer(" adv"))
            await pilot.pause()
            await pilot.press("right")  # accept: advice
            completed = app.query_one("#command", Input).value
            await pilot.press("enter")
            await pilot.pause()
            return completed

    completed = asyncio.run(scenario())
    assert completed == "penalty Bob advice"
    assert session.state["owed"] == [{"player": "Bob", "presses": 4}]  # P1


def test_an_open_lid_shows_at_once_and_clears_when_shut():
    session = session_for()
    for line in ("deal Cy", "flip G7"):
        session.submit(line)
    device = session.launcher.device

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            device.open_lid()
            session.poll(0.5, status=False)  # half a (virtual) second passes
            app.check_launcher()  # the status timer's tick: the request runs on a worker thread
            await app.workers.wait_for_complete()
            await pilot.pause()
            shown = app.prompt_text()
            device.close_lid()
            session.poll(0.5, status=False)
            app.check_launcher()
            await app.workers.wait_for_complete()
            await pilot.pause()
            return shown, app.prompt_text()

    shown, after = asyncio.run(scenario())
    assert shown == "NEXT: LAUNCHER: " + FAULT_ACTIONS["lid"]
    assert after.startswith("NEXT: Ann: play a card on G7")


def test_R2_an_empty_launcher_asks_for_a_reload_and_the_game_goes_on():
    session = session_for()
    for line in ("deal Cy", "flip G7", "G1", "G2"):
        session.submit(line)
    session.launcher.device.model.hopper = 3  # most of the stack went astray: the launcher runs dry (L4)
    for _ in range(40):
        session.submit("press")
        if session.ctx.fault:
            break
    assert session.ctx.fault == "empty"
    assert "type reload once it is loaded" in session.prompt().text
    inside = session.state["launcher"]["cards"]
    pile = session.state["discard"]

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            await pilot.press("ctrl+r")  # the reload shortcut
            await pilot.pause()
            return app.prompt_text()

    prompt = asyncio.run(scenario())
    assert session.ctx.fault is None
    assert session.state["launcher"]["cards"] == inside + pile - 1  # R1: all but the top card go back
    assert "LAUNCHER" not in prompt


def test_U2_the_uno_window_closes_when_the_next_player_begins_and_a_late_catch_is_refused(typer):
    session = session_for()
    play_down_to_one(session)
    nxt = session.state["turn"]
    assert nxt != "Ann"

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            await pilot.press("ctrl+p")  # the next player begins their turn by pressing (U2)
            await pilot.pause()
            window = list(session.state["uno"])
            before = session.state
            await typer(pilot, f"catch Ann by {nxt}")
            return window, before, app.message

    window, before, error = asyncio.run(scenario())
    assert window == []
    assert error.startswith("Not taken:")
    assert session.state == before  # the refused catch changed nothing: Ann owes no presses
    assert not any(entry["player"] == "Ann" for entry in session.state["owed"])  # no U2 presses for Ann


def test_the_ui_leaves_a_table_stopped_from_elsewhere_with_a_non_zero_return_code():
    """A tournament seat another process took over stops its round's table (`Table.stop`): the terminal UI
    leaves it by itself, return code 1, and the press typed meanwhile is refused, nothing fired."""
    session = session_for()
    for line in ("deal Cy", "flip G7"):
        session.submit(line)
    booked = list(session.table.entries)

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            session.table.stop("table 1 of club was replaced by another process")
            reply = session.table.button()
            for _ in range(400):  # the UI looks every STOPPED_CHECK_S; bounded against a hang only
                if app.return_code is not None:
                    break
                await pilot.pause(0.05)
            return app.return_code, reply

    code, reply = asyncio.run(scenario())
    session.close()
    assert code == 1
    assert reply["error"]["code"] == "stopped" and session.table.entries == booked
