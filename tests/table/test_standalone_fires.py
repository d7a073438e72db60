"""Fires the firmware made alone while the link was down: once the link is back each is attributed like a
button press (the rules' presser), journalled and told (issue 7, item 11, host side)."""

from __future__ import annotations

from unox.launcher.base import FireResult
from unox.launcher.script import ScriptLauncher
from unox.table.journal import Journal
from unox.table.runtime import Table

from .tablekit import HAND, FixedProfile, accept, new_table, started


class AloneLauncher(ScriptLauncher):
    """Hands out queued standalone fires once each, as the link's driver does after a reconnect."""

    def __init__(self, *standalone: FireResult):
        super().__init__()
        self.standalone = list(standalone)

    def take_standalone_fires(self) -> list[FireResult]:
        taken, self.standalone = self.standalone, []
        return taken


def test_standalone_fires_go_to_the_presser_are_journalled_and_told(tmp_path):
    path = tmp_path / "t.db"
    launcher = AloneLauncher()
    table = new_table(launcher=launcher, journal=Journal(path))
    started(table)  # Bob's turn, then Cy's
    told: list[str] = []
    table.listeners.append(told.append)
    launcher.standalone = [FireResult(2, 2, None), FireResult(1, 1, None)]
    state = accept(table, cmd="state")
    assert state["hands"]["Bob"] == HAND + 2 and state["hands"]["Cy"] == HAND + 1
    assert state["turn"] == "Ann"
    assert table.journal.entries()[-2:] == [
        {"cmd": "press", "player": "Bob", "fired": 2},
        {"cmd": "press", "player": "Cy", "fired": 1},
    ]
    assert [fire["settled_by"] for fire in table.journal.fires()] == ["standalone", "standalone"]
    assert any("link was down" in line and "Bob" in line for line in told)
    assert launcher.fires == []  # the host fired nothing for them
    table.close()
    assert Table.resume(path).state() == state


def test_a_standalone_fire_nobody_owed_is_recorded_and_changes_nothing(tmp_path):
    launcher = AloneLauncher(FireResult(3, 3, None))
    table = new_table(launcher=launcher, journal=Journal(tmp_path / "t.db"))
    before = table.state()  # before the deal: nobody owes a press
    told: list[str] = []
    table.listeners.append(told.append)
    assert table.sync_launcher() and table.state() == before
    assert table.journal.entries() == []
    assert table.journal.fires()[0]["player"] is None and table.journal.fires()[0]["fired"] == 3
    assert "nobody owed" in told[0]


def test_a_button_press_takes_the_standalone_fires_first():
    """The launcher's own press that came first is counted first: Bob's, then Cy's for the new press."""
    launcher = AloneLauncher(FireResult(1, 1, None))
    table = new_table(launcher=launcher)
    table.profile = FixedProfile(2)
    started(table)
    reply = table.button()
    assert reply["ok"]
    assert reply["state"]["hands"]["Bob"] == HAND + 1
    assert reply["state"]["hands"]["Cy"] == HAND + 2
    assert table.entries[-2]["player"] == "Bob" and table.entries[-1]["player"] == "Cy"


def test_standalone_fires_wait_while_a_fire_is_unsettled(tmp_path):
    path = tmp_path / "t.db"
    table = new_table(launcher=ScriptLauncher(), journal=Journal(path))
    started(table)
    table.journal.begin_fire("Bob", 2)
    table.journal.close()
    launcher = AloneLauncher(FireResult(1, 1, None))
    resumed = Table.resume(path, launcher=launcher)
    assert resumed.state()["unsettled"]["player"] == "Bob"
    assert launcher.standalone, "not taken while the table waits for the operator"
    accept(resumed, cmd="settle", fired=2)
    state = accept(resumed, cmd="state")
    assert state["hands"]["Bob"] == HAND + 2 and state["hands"]["Cy"] == HAND + 1
