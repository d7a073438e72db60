"""Issue 26 item 11: words that matched what the launcher did. A jam on a typed `press` was reported
"Press refused (not-now beep)" though the motor ran; a fire the table never heard the end of said "the
launcher fired 7 card(s)" (7 were asked for, 2 came out); `undo` after a press that fired no card said "its
cards are already out"."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from unox.table.night_context import Refused, settle_prompt
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

from tests.play.test_session import dealt

PLAYERS = ("Ann", "Bob", "Cy")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_a_jam_on_a_typed_press_is_a_fault_not_a_refusal(size, typer, screen):
    session = open_play_session(TableSettings(players=PLAYERS, seed=3, launcher="sim"), night=Session)
    device = session.launcher.device
    seen: dict = {}

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=size) as pilot:
            await typer(pilot, "deal Cy")
            await typer(pilot, "flip G7")
            await typer(pilot, "G5")  # Ann plays: Bob's turn
            device.model.faults = dataclasses.replace(device.model.faults, jam=1.0, unjam=0.0)
            for _ in range(30):  # typed presses until one fires (and so jams)
                await typer(pilot, "press")
                if session.ctx.fault:
                    break
            seen["fault"] = session.ctx.fault
            seen["message"] = app.message
            seen["screen"] = "\n".join(screen(app))

    asyncio.run(scenario())
    assert seen["fault"] == "jam"
    assert not any("not-now beep" in line for line in session.log), session.log[-3:]
    assert "not-now" not in seen["message"] and "not-now" not in seen["screen"]
    assert any(line.startswith("Launcher fault (jam)") for line in session.log)


def test_undo_after_a_press_that_fired_no_card_does_not_say_cards_are_out():
    session, _ = dealt(0)
    session.submit("press")  # Ann's press: the launcher fired no card (T2: the press counts)
    assert session.table.entries[-1] == {"cmd": "press", "player": "Ann", "fired": 0}
    with pytest.raises(Refused) as refused:
        session.undo()
    assert "already out" not in str(refused.value) and "fired no card" in str(refused.value)


def test_undo_after_a_press_that_fired_cards_says_they_are_out():
    session, _ = dealt(2)
    session.submit("press")
    with pytest.raises(Refused, match="its cards are already out"):
        session.undo()


def test_a_fire_never_heard_of_again_says_how_many_were_asked_not_fired():
    prompt = settle_prompt({"player": "Ann", "cmd": "press", "requested": 7})
    assert "fired 7" not in prompt.text and "asked for 7 cards" in prompt.text
