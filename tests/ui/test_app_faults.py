"""Launcher faults in the table UI, on the simulated launcher running the real firmware."""

import asyncio
import dataclasses

from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")


def test_a_jam_in_mid_hand_is_shown_with_what_to_do_and_the_game_resumes(typer):
    session = open_play_session(TableSettings(players=PLAYERS, seed=3, launcher="sim"), night=Session)
    device = session.launcher.device
    seen = {}

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            await typer(pilot, "deal Cy")
            await typer(pilot, "flip G7")
            await pilot.press("G", "5", "enter")  # Ann plays: the hand is under way
            device.model.faults = dataclasses.replace(device.model.faults, jam=1.0, unjam=0.0)  # inject
            for _ in range(30):  # T2 presses until one fires (and so jams)
                seen["hands"] = dict(session.state["hands"])
                seen["presser"] = session.state["turn"]
                seen["beam"] = session.launcher.status().cards_counted
                await pilot.press("ctrl+p")
                await pilot.pause()
                if session.ctx.fault:
                    break
            seen["fault"] = session.ctx.fault
            seen["prompt"] = app.prompt_text()
            seen["panel"] = str(app.query_one("#table").render())
            seen["fault_class"] = app.query_one("#table").has_class("fault")
            seen["jammed"] = device.model.jammed()
            seen["jam_fired"] = session.launcher.status().cards_counted - seen["beam"]
            seen["jam_hands"] = dict(session.state["hands"])
            device.model.faults = dataclasses.replace(device.model.faults, jam=0.0)
            await pilot.press("ctrl+f")  # open and shut the lid as the screen says (sim only)
            await pilot.pause()
            seen["after_fix"] = (session.ctx.fault, device.model.jammed(), app.prompt_text())
            turn = session.state["turn"]
            beam = session.launcher.status().cards_counted
            held = session.state["hands"][turn]
            while session.state["turn"] == turn:
                await pilot.press("ctrl+p")
                await pilot.pause()
            fired = session.launcher.status().cards_counted - beam
            seen["resumed"] = (turn, held, session.state["hands"][turn], fired)

    asyncio.run(scenario())
    assert seen["fault"] == "jam" and seen["jammed"]
    assert seen["prompt"].startswith("NEXT: LAUNCHER: the launcher jammed: open the lid")
    # Issue 8.7: after a jam the screen says who must press again, and says it again when it clears.
    assert f"({seen['presser']} is the one to press again)" in seen["prompt"]
    assert f"Launcher fault cleared (jam): the game goes on. {seen['presser']} presses again." in session.log
    assert "Fault: JAM" in seen["panel"] and seen["fault_class"]
    assert any(line.startswith("Launcher fault (jam)") for line in session.log)
    fault, jammed, prompt = seen["after_fix"]
    assert fault is None and not jammed
    assert prompt.startswith("NEXT: ") and "LAUNCHER" not in prompt
    # Whatever came out before the jam belongs to the presser (T4); nothing else changed hands.
    expected = dict(seen["hands"])
    expected[seen["presser"]] += seen["jam_fired"]
    assert seen["jam_hands"] == expected
    turn, held, now, fired = seen["resumed"]
    assert now == held + fired  # the press after the fix is booked with the beam's count (T2)
