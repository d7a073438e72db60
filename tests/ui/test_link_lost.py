"""Issue 7.10 (the play screen's part): a lost link shows within a second, typing and plays go on while
the launcher is asked for its status or waited on for a press (both on worker threads), and the link
coming back clears it. The launcher here is a fake whose `connected` flips and whose calls can be held."""

import asyncio
import threading

from unox.launcher.base import FireResult, LauncherError, LauncherStatus
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.app import STATUS_INTERVAL, TableApp
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")
TICK = 0.05  # the pilot's pause between looks at the screen


class FlakyLauncher:
    """A launcher whose cable can be pulled (`connected`), and whose status call can be held (`answer`)."""

    def __init__(self):
        self.connected = True
        self.answer = threading.Event()
        self.answer.set()
        self.asked = threading.Event()
        self.in_flight = False

    def _held(self):
        """Wait while the test holds the answer back; `in_flight` tells that a call is hanging."""
        self.asked.set()
        self.in_flight = True
        self.answer.wait(10)
        self.in_flight = False

    def status(self):
        self._held()
        faults = [] if self.connected else ["link"]
        return LauncherStatus(self.connected, "fake", 0, 4500, False, faults)

    def wait_press(self, timeout=None):
        """Like the serial driver: a dead link takes a while to tell, then raises."""
        self._held()
        if not self.connected:
            raise LauncherError("the launcher on /dev/ttyACM0 is not answering")
        return False

    def fire(self, n, fire_id=None):
        return FireResult(n, n if self.connected else 0, None if self.connected else "link")

    def beep(self, pattern):
        pass

    def close(self):
        pass


def flaky_session():
    launcher = FlakyLauncher()
    settings = TableSettings(players=PLAYERS, seed=1, launcher="serial:/dev/ttyACM0")
    table = Table.create(settings, launcher=launcher)
    session = Session(table, launcher=launcher, sim=False)
    session.submit("deal Cy")
    session.submit("flip G7")
    return session, launcher


async def until(pilot, check, seconds=2.0):
    """Pause in ticks until `check()` holds; returns the seconds it took (None if it never did)."""
    waited = 0.0
    while waited <= seconds:
        if check():
            return waited
        await pilot.pause(TICK)
        waited += TICK
    return None


def test_the_status_poll_is_fast_enough_to_show_a_lost_link_within_a_second():
    assert STATUS_INTERVAL <= 0.5
    session, _ = flaky_session()
    assert TableApp(session, poll_interval=0.05).status_interval == STATUS_INTERVAL


def test_a_lost_link_shows_within_a_second_and_typing_goes_on_while_a_status_call_hangs(typer, screen):
    session, launcher = flaky_session()

    async def scenario():
        app = TableApp(session, poll_interval=TICK, status_interval=TICK)
        async with app.run_test(size=(80, 24)) as pilot:
            up = await until(pilot, lambda: "Link: up" in "\n".join(screen(app)))
            launcher.answer.clear()  # the next status call and press wait hang, as on a dying USB link
            launcher.asked.clear()
            await until(pilot, launcher.asked.is_set)
            await typer(pilot, "G5")  # typed while the launcher call is in flight
            played = (session.entries()[-1], launcher.in_flight)
            launcher.connected = False  # the cable is out
            launcher.answer.set()
            down = await until(pilot, lambda: "Link: DOWN" in "\n".join(screen(app)))
            shown_down = (app.prompt_text(), "\n".join(screen(app)))
            await typer(pilot, "Bob G2")  # play goes on with the link down
            played_down = session.entries()[-1]
            launcher.connected = True
            back = await until(pilot, lambda: "Link: up" in "\n".join(screen(app)))
            return up, played, down, shown_down, played_down, back, app.prompt_text()

    up, played, down, (prompt, text), played_down, back, prompt_back = asyncio.run(scenario())
    assert up is not None
    # Taken while the status call was still hanging: the UI thread was not the one waiting on it.
    assert played == ({"cmd": "play", "player": "Ann", "card": "G5"}, True)
    assert down is not None and down <= 1.0
    assert prompt.startswith("NEXT: LAUNCHER: the host lost the launcher")
    assert "Fault: LINK" in text
    assert played_down == {"cmd": "play", "player": "Bob", "card": "G2"}
    assert back is not None and back <= 1.0
    assert prompt_back.startswith("NEXT: Cy: play a card on G2")
    assert "Launcher fault cleared (link): the game goes on." in session.log
