"""Issue 7 on the play screen: fires the launcher made alone while the link was down, and a fire whose link
was lost in flight, reach the log and the state within a status poll while nobody types (the textual app's
worker and `--plain`'s polling both call `Table.sync_launcher()` under the launcher lock)."""

from __future__ import annotations

import asyncio
import io
import os
import threading

from unox.launcher.base import FireResult
from unox.launcher.script import ScriptLauncher
from unox.table.journal import Journal
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.plain import polled_lines, run_plain
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")
HAND = 7
TICK = 0.05


class LinkLostMidFire(ScriptLauncher):
    """The FIRE reached the device, which fired `really_fired`, but its answer was lost with the link; the
    device remembers the fire by its id, and tells once `connected` again."""

    def __init__(self, really_fired: int):
        super().__init__()
        self.really_fired = really_fired
        self.connected = False
        self.fire_ids: list[int | None] = []

    def fire(self, n, fire_id=None):
        self.fire_ids.append(fire_id)
        if fire_id is not None:
            self.remembered[fire_id] = FireResult(n, self.really_fired, None)
        return FireResult(n, 0, "link", {"detail": "lost"})

    def fire_result(self, fire_id):
        return self.remembered.get(fire_id) if self.connected else None

    def status(self):
        status = super().status()
        status.connected = self.connected
        status.faults = [] if self.connected else ["link"]
        return status


def started(launcher, journal=None) -> Session:
    table = Table.create(TableSettings(players=PLAYERS, seed=3, launcher="serial:/dev/ttyACM0"),
                         launcher=launcher, journal=journal)
    session = Session(table, launcher=launcher, sim=False)
    session.submit("deal Ann")
    session.submit("flip G7")  # Bob's turn
    return session


async def until(pilot, check, seconds=2.0) -> bool:
    waited = 0.0
    while waited <= seconds:
        if check():
            return True
        await pilot.pause(TICK)
        waited += TICK
    return False


def test_a_fire_the_launcher_made_alone_shows_in_the_log_and_the_state_within_a_poll(screen):
    launcher = ScriptLauncher()
    session = started(launcher)

    async def scenario():
        app = TableApp(session, status_interval=TICK)
        async with app.run_test(size=(80, 24)) as pilot:
            launcher.standalone.append(FireResult(3, 3, None))  # Bob pressed while the link was down
            shown = await until(pilot, lambda: "Bob pressed: 3 cards came out" in "\n".join(screen(app)))
            return shown, app.prompt_text()

    shown, prompt = asyncio.run(scenario())
    assert shown
    assert session.state["hands"]["Bob"] == HAND + 3 and session.state["turn"] == "Cy"
    assert session.entries()[-1] == {"cmd": "press", "player": "Bob", "fired": 3}
    assert prompt.startswith("NEXT: Cy: play a card")
    assert launcher.fires == []  # the host fired nothing itself


def test_a_fire_lost_in_flight_asks_for_the_count_then_the_device_settles_it_when_it_is_back(tmp_path):
    launcher = LinkLostMidFire(really_fired=2)
    session = started(launcher, Journal(tmp_path / "t.db"))
    session.take_press(True)  # the launcher's button: the FIRE goes out and the link drops
    assert session.state["unsettled"]["player"] == "Bob"
    assert "settle N" in session.prompt().text and "{" not in session.log[-1]

    async def scenario():
        app = TableApp(session, status_interval=TICK)
        async with app.run_test(size=(80, 24)) as pilot:
            asking = app.prompt_text()
            launcher.connected = True  # the cable is back
            settled = await until(pilot, lambda: "unsettled" not in session.state)
            return asking, settled, app.prompt_text()

    asking, settled, prompt = asyncio.run(scenario())
    assert "settle N" in asking
    assert settled
    assert any("remembers Bob's press: 2 cards came out" in line for line in session.log)
    assert session.state["hands"]["Bob"] == HAND + 2
    assert prompt.startswith("NEXT: Cy: play a card")
    assert len(launcher.fire_ids) == 1  # asked, never fired again
    assert session.table.journal.fires()[-1]["settled_by"] == "device"


def test_plain_polling_tells_a_fire_the_launcher_made_alone_while_nobody_types():
    launcher = ScriptLauncher()
    session = started(launcher)
    launcher.standalone.append(FireResult(2, 2, None))
    read, write = os.pipe()
    try:
        with os.fdopen(read) as stream:
            first = next(polled_lines(stream, session, interval=0.0))  # nothing typed: the launcher is polled
    finally:
        os.close(write)
    assert first == ""
    assert "While the link was down Bob pressed: 2 cards came out, now counted." in session.log
    assert session.state["hands"]["Bob"] == HAND + 2


def test_plain_play_tells_a_standalone_fire_on_an_empty_line():
    launcher = ScriptLauncher()
    session = started(launcher)
    launcher.standalone.append(FireResult(1, 1, None))
    out = io.StringIO()
    run_plain(session, ["", "state"], out)
    text = out.getvalue()
    assert "While the link was down Bob pressed: 1 card came out, now counted." in text
    assert "next: Cy: play a card" in text


def test_plain_polling_reads_every_line_of_one_pipe_write():
    """A script writes "state\nhelp\n" at once and waits for the answers: both lines arrive while the pipe
    stays open (a buffered readline kept "help" where select could not see it, and waited for ever); the
    last line, without its newline, arrives at the end."""
    session = started(ScriptLauncher())
    read, write = os.pipe()
    got: list[str] = []
    both = threading.Event()

    def reader():
        with os.fdopen(read) as stream:
            for line in polled_lines(stream, session, interval=0.01):
                got.append(line)
                if len(got) == 2:
                    both.set()

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    os.write(write, b"state\nhelp\n")
    try:
        assert both.wait(10), f"only {got} arrived while the pipe was open"
    finally:
        os.write(write, "last \u00fc".encode())
        os.close(write)
        thread.join(10)
    assert got == ["state\n", "help\n", "last \u00fc"]
