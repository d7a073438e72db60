"""A launcher the host cannot press (serial, gpio): presses on its own button arrive by polling.

The serial driver runs here over a `sim://` port, exactly as it runs against a Pico, but without the
sim launcher's `press_button()`: the press is made on the virtual device, as a finger would.
"""

import asyncio

from unox.launcher.serial import SerialLauncher
from unox.launcher.sim import open_sim_port
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")


def test_a_press_on_the_launchers_own_button_is_polled_and_booked_to_the_turn_player():
    launcher = SerialLauncher(open_sim_port({"seed": "6", "cards": "0"}))
    table = Table.create(TableSettings(players=PLAYERS, seed=6, launcher="serial:/dev/ttyACM0"),
                         launcher=launcher)
    session = Session(table, launcher=launcher, sim=False)
    session.submit("deal Cy")
    session.submit("flip G7")
    device = launcher.port.device

    async def scenario():
        app = TableApp(session, poll_wait=1.0)  # each poll lets one (virtual) second pass
        async with app.run_test(size=(120, 45)) as pilot:
            await pilot.press("ctrl+p")  # nothing to simulate on real hardware
            await pilot.pause()
            refused = app.message
            beam = launcher.status().cards_counted
            device.press_button()  # a finger on the launcher's button
            app.poll_launcher()  # the poll timer's tick: the wait runs on a worker thread
            await app.workers.wait_for_complete()
            await pilot.pause()
            return refused, launcher.status().cards_counted - beam, app.prompt_text()

    refused, fired, prompt = asyncio.run(scenario())
    assert refused.startswith("Not taken: press the button on the launcher itself")
    assert session.state["hands"]["Ann"] == 7 + fired  # T2: Ann's press, the beam's count
    assert session.entries()[-1] == {"cmd": "press", "player": "Ann", "fired": fired}
    assert prompt.startswith("NEXT: Bob:")
