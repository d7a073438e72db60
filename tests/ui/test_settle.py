"""Issue 7 item 1 on the play screen: a resumed table that stopped in a fire nobody could count asks for the
count in its own words, refuses every other line with that question, and books the count once, firing
nothing (the textual app at 80x24 and `unox play --plain` as a subprocess)."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from unox.launcher.script import ScriptLauncher
from unox.table.journal import Journal
from unox.table.opening import resume_play_session
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")
HAND = 7


def crash_during_a_fire(path, requested=3):
    """A journal whose table wrote Bob's fire intent and died before the outcome (as tests/table's)."""
    settings = TableSettings(players=PLAYERS, seed=3, launcher="sim")
    table = Table.create(settings, launcher=ScriptLauncher(), journal=Journal(path))
    for request in ({"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip", "card": "G7"}):
        assert table.handle(request)["ok"]
    fire_id = table.journal.begin_fire("Bob", requested)
    table.journal.close()  # the process is gone; the device may or may not have fired
    return fire_id


def booked(path) -> tuple[list[dict], list[dict]]:
    with Journal(path) as journal:
        return journal.entries(), journal.fires()


def test_the_play_screen_asks_for_the_count_refuses_other_lines_and_books_it_once(tmp_path, typer, screen):
    path = tmp_path / "t.db"
    crash_during_a_fire(path)
    # a fresh sim launcher remembers nothing: a person must count
    session = resume_play_session(path, night=Session)
    app = TableApp(session)

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            assert "settle N" in app.prompt_text() and "3 cards for Bob's press" in app.prompt_text()
            assert "{" not in app.prompt_text()  # the play screen's words, no JSON (issue 8 item 6)
            await typer(pilot, "G3")
            assert app.refused and "first the count" in app.message and "settle N" in app.message
            await typer(pilot, "press")
            assert app.refused and "first the count" in app.message
            await typer(pilot, "undo")
            assert app.refused and "first the count" in app.message
            await typer(pilot, "settle two")
            assert app.refused and "settle 2" in app.message
            assert session.state["unsettled"]["player"] == "Bob"
            await typer(pilot, "settle 2")
            assert not app.refused, app.message
            assert "unsettled" not in session.state
            assert session.state["hands"]["Bob"] == HAND + 2 and session.state["turn"] == "Cy"
            text = "\n".join(screen(app))
            assert "Counted: 2 cards came out for Bob's press" in text
            assert app.prompt_text().startswith("NEXT: Cy: play a card")

    asyncio.run(scenario())
    session.close()
    entries, fires = booked(path)
    assert entries[-1] == {"cmd": "press", "player": "Bob", "fired": 2}
    assert [e for e in entries if e["cmd"] == "press"] == [entries[-1]]  # booked exactly once
    assert len(fires) == 1 and fires[-1]["settled_by"] == "operator"  # nothing fired again


def test_settle_zero_means_the_press_never_happened_and_is_owed_again(tmp_path, typer):
    path = tmp_path / "t.db"
    crash_during_a_fire(path)
    session = resume_play_session(path, night=Session)
    app = TableApp(session)

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await typer(pilot, "settle 0")
            assert not app.refused, app.message
            assert "unsettled" not in session.state and session.state["turn"] == "Bob"
            assert "Bob presses again" in session.log[-1]

    asyncio.run(scenario())
    session.close()
    entries, fires = booked(path)
    assert [e["cmd"] for e in entries] == ["deal", "flip"]
    assert fires[-1]["settled_by"] == "operator"


def test_plain_play_resumed_in_a_pending_fire_takes_the_count_and_fires_nothing(tmp_path):
    path = tmp_path / "t.db"
    crash_during_a_fire(path)
    lines = ["G3", "settle 2", "state", "quit", "yes"]
    proc = subprocess.run(
        [sys.executable, "-m", "unox", "play", "--plain", "--resume", str(path)],
        input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "{" not in out  # no JSON on the play screen
    nexts = [line for line in out.splitlines() if line.startswith("next: ")]
    assert "settle N" in nexts[0] and "Bob's press" in nexts[0]
    assert "not taken: first the count" in out
    assert "Counted: 2 cards came out for Bob's press" in out
    assert nexts[2].startswith("next: Cy: play a card")
    entries, fires = booked(path)
    assert entries[-1] == {"cmd": "press", "player": "Bob", "fired": 2}
    assert [e["cmd"] for e in entries] == ["deal", "flip", "press"]
    assert fires[-1]["settled_by"] == "operator" and len(fires) == 1  # the launcher never fired
