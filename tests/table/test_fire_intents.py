"""A fire is journalled as an intent before the motor turns and settled exactly after a crash, never fired
again (issue 7, item 1): by the launcher's memory when it can tell, by the operator's count when it cannot."""

from __future__ import annotations

import pytest
from unox.launcher.base import FireResult, LauncherError
from unox.launcher.script import ScriptLauncher
from unox.table.journal import Journal
from unox.table.runtime import Table

from .tablekit import HAND, FixedProfile, accept, new_table, refuse, started


class RememberingLauncher(ScriptLauncher):
    """A launcher that keeps its results by fire id, as the firmware does while it stays powered."""

    def __init__(self, remembered: dict[int, FireResult] | None = None, **options):
        super().__init__(**options)
        self.remembered = dict(remembered or {})
        self.asked: list[int] = []
        self.fire_ids: list[int | None] = []

    def fire(self, n: int, fire_id: int | None = None) -> FireResult:
        self.fire_ids.append(fire_id)
        result = super().fire(n, fire_id)
        if fire_id is not None:
            self.remembered[fire_id] = result
        return result

    def fire_result(self, fire_id: int) -> FireResult | None:
        self.asked.append(fire_id)
        return self.remembered.get(fire_id)


def journalled_table(path, launcher, *counts):
    table = new_table(launcher=launcher, journal=Journal(path), seed=3)
    table.profile = FixedProfile(*counts)
    started(table)  # Bob's turn
    return table


def crash_during_a_fire(path, requested=3):
    """A table that wrote Bob's fire intent and died before the outcome: returns the intent's id."""
    table = journalled_table(path, ScriptLauncher())
    fire_id = table.journal.begin_fire("Bob", requested)
    table.journal.close()  # the process is gone; the device may or may not have fired
    return fire_id


def test_the_intent_is_committed_before_the_launcher_fires(tmp_path):
    path = tmp_path / "t.db"
    seen = []

    class Watching(RememberingLauncher):
        def fire(self, n, fire_id=None):
            with Journal(path) as reader:  # another connection: what a crash right now would leave
                seen.append(reader.pending_fire())
            return super().fire(n, fire_id)

    launcher = Watching()
    table = journalled_table(path, launcher, 3)
    reply = table.button()
    assert reply["ok"], reply
    assert seen == [
        {
            "fire_id": launcher.fire_ids[0],
            "player": "Bob",
            "requested": 3,
            "fired": None,
            "fault": None,
            "seq": None,
            "settled_by": None,
            "request": {"cmd": "press", "player": "Bob"},  # what the fire becomes once counted
        }
    ]
    fire = table.journal.fires()[-1]
    assert fire["fired"] == 3 and fire["settled_by"] == "beam"
    assert table.journal.entries()[-1] == {"cmd": "press", "player": "Bob", "fired": 3}
    assert table.journal.pending_fire() is None


def test_fire_ids_are_positive_below_2_31_and_unique_within_a_journal(tmp_path):
    launcher = RememberingLauncher()
    table = journalled_table(tmp_path / "t.db", launcher, 1, 1, 1, 1)
    for _ in range(4):
        assert table.button()["ok"]
    ids = launcher.fire_ids
    assert len(set(ids)) == 4 and all(isinstance(i, int) and 0 < i < 2**31 for i in ids)
    assert [fire["fire_id"] for fire in table.journal.fires()] == ids


def test_resume_settles_a_pending_fire_from_the_launchers_memory_and_fires_nothing(tmp_path):
    path = tmp_path / "t.db"
    fire_id = crash_during_a_fire(path)
    launcher = RememberingLauncher({fire_id: FireResult(3, 2, None)})
    table = Table.resume(path, launcher=launcher)
    assert launcher.asked == [fire_id]
    assert launcher.fires == []  # never fired again
    state = table.state()
    assert "unsettled" not in state
    assert state["hands"]["Bob"] == HAND + 2 and state["turn"] == "Cy"
    assert table.journal.entries()[-1] == {"cmd": "press", "player": "Bob", "fired": 2}
    assert table.journal.fires()[-1]["settled_by"] == "device"
    table.close()
    assert Table.resume(path).state() == state  # settled once, for good


def test_resume_asks_the_operator_when_the_launcher_cannot_tell(tmp_path):
    path = tmp_path / "t.db"
    crash_during_a_fire(path, requested=3)
    launcher = RememberingLauncher()  # rebooted: it remembers nothing
    table = Table.resume(path, launcher=launcher)
    state = table.state()
    assert state["unsettled"] == {
        "cmd": "press", "player": "Bob", "requested": 3, "fire_id": state["unsettled"]["fire_id"]
    }
    assert "settle" in table.prompt()
    refuse(table, "unsettled", cmd="play", player="Bob", card="G3")
    refuse(table, "unsettled", cmd="press", player="Bob", fired=1)
    refuse(table, "unsettled", cmd="undo")
    assert table.button()["error"]["code"] == "unsettled"
    assert launcher.fires == [] and launcher.beeps == ["not_owed"]
    reply = accept(table, cmd="settle", fired=2)
    assert "unsettled" not in reply
    assert reply["hands"]["Bob"] == HAND + 2 and reply["turn"] == "Cy"
    assert launcher.fires == []
    assert table.journal.fires()[-1]["settled_by"] == "operator"
    table.close()
    resumed = Table.resume(path)
    assert "unsettled" not in resumed.state() and resumed.state()["hands"]["Bob"] == HAND + 2


def test_an_unsettled_fire_stays_unsettled_across_restarts_until_answered(tmp_path):
    path = tmp_path / "t.db"
    crash_during_a_fire(path)
    Table.resume(path).close()  # no launcher: nobody can tell, and nobody answered
    table = Table.resume(path, launcher=RememberingLauncher())
    assert table.state()["unsettled"]["player"] == "Bob"


def test_a_launcher_that_fails_to_answer_leaves_the_question_to_the_operator(tmp_path):
    path = tmp_path / "t.db"
    crash_during_a_fire(path)

    class Unreachable(RememberingLauncher):
        def fire_result(self, fire_id):
            raise LauncherError("no answer from the launcher")

    table = Table.resume(path, launcher=Unreachable())
    assert table.state()["unsettled"]["player"] == "Bob"


def test_settle_zero_for_a_fire_that_asked_for_cards_does_not_count_the_press(tmp_path):
    """Nothing came out: the press never happened, so Bob still presses (and that fire is a new one)."""
    path = tmp_path / "t.db"
    crash_during_a_fire(path, requested=3)
    table = Table.resume(path, launcher=RememberingLauncher())
    before = table.game.state()
    reply = table.handle({"cmd": "settle", "fired": 0})
    assert reply["ok"] is False and reply["error"]["code"] == "launcher_fault"
    assert reply["state"] == before and "unsettled" not in reply["state"]
    assert table.state()["turn"] == "Bob"
    table.profile = FixedProfile(1)
    assert table.button()["state"]["hands"]["Bob"] == HAND + 1


def test_settle_with_nothing_pending_is_refused(tmp_path):
    table = new_table(journal=Journal(tmp_path / "t.db"))
    started(table)
    refuse(table, "nothing_to_settle", cmd="settle", fired=1)


@pytest.mark.parametrize(
    "fired, code", [(-1, "bad_fired"), (113, "bad_fired"), (91, "bad_fired"), ("2", "bad_request")]
)
def test_an_impossible_settle_count_is_refused_and_the_question_stays(tmp_path, fired, code):
    path = tmp_path / "t.db"
    crash_during_a_fire(path)
    table = Table.resume(path)
    refuse(table, code, cmd="settle", fired=fired)
    assert table.state()["unsettled"]["player"] == "Bob"


def test_a_fault_with_nothing_fired_resolves_the_intent_and_the_press_does_not_count(tmp_path):
    launcher = RememberingLauncher()
    launcher.queue("jam")
    table = journalled_table(tmp_path / "t.db", launcher, 3)
    reply = table.button()
    assert reply["error"]["code"] == "launcher_fault"
    fire = table.journal.fires()[-1]
    assert (fire["fired"], fire["fault"], fire["seq"]) == (0, "jam", None)
    assert table.journal.pending_fire() is None


def test_a_fire_the_journal_cannot_record_holds_the_table_until_it_is_settled(tmp_path, monkeypatch):
    """Cards out, disk full: the table says how many came out and takes nothing else until it is written."""
    launcher = RememberingLauncher()
    table = journalled_table(tmp_path / "t.db", launcher, 2)
    real = table.journal.resolve_fire

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(table.journal, "resolve_fire", full)
    reply = table.button()
    assert reply["error"]["code"] == "journal_error" and '"fired":2' in reply["error"]["message"]
    assert reply["state"]["unsettled"]["player"] == "Bob" and reply["state"]["hands"]["Bob"] == HAND
    refuse(table, "unsettled", cmd="play", player="Bob", card="G3")
    monkeypatch.setattr(table.journal, "resolve_fire", real)
    assert accept(table, cmd="settle", fired=2)["hands"]["Bob"] == HAND + 2
    assert len(launcher.fires) == 1
    table.close()
    assert Table.resume(tmp_path / "t.db").state()["hands"]["Bob"] == HAND + 2


def test_a_beam_count_beyond_the_tables_estimate_is_taken_and_replays(tmp_path):
    """The launcher held more than the table thought: the cards came out: they count, live and on resume."""
    path = tmp_path / "t.db"
    launcher = RememberingLauncher()
    table = journalled_table(path, launcher, 40, 40, 40)
    launcher.queue(40, 40, 40)  # the beam counts 40 each time, whatever the table estimated
    for _ in range(3):
        assert table.button()["ok"]
    state = table.state()
    assert sum(state["hands"].values()) + state["discard"] > 112  # more than the table knew of
    table.close()
    assert Table.resume(path).state() == state


def test_a_driver_failing_mid_fire_asks_the_operator_instead_of_forgetting_the_intent(tmp_path):
    class Broken(RememberingLauncher):
        def fire(self, n, fire_id=None):
            raise RuntimeError("driver bug")

    table = journalled_table(tmp_path / "t.db", Broken(), 2)
    reply = table.button()
    assert reply["error"]["code"] == "unsettled" and "settle" in reply["error"]["message"]
    assert table.state()["unsettled"]["player"] == "Bob"
    assert accept(table, cmd="settle", fired=1)["hands"]["Bob"] == HAND + 1
    assert table.journal.pending_fire() is None


class LinkLostMidFire(RememberingLauncher):
    """The FIRE reached the device, which fired, but its answer was lost with the link (detail `lost`)."""

    def __init__(self, really_fired: int, **options):
        super().__init__(**options)
        self.really_fired = really_fired
        self.connected = False

    def fire(self, n: int, fire_id: int | None = None) -> FireResult:
        self.fire_ids.append(fire_id)
        self.cards_counted += self.really_fired
        if fire_id is not None:
            self.remembered[fire_id] = FireResult(n, self.really_fired, None)
        return FireResult(n, 0, "link", {"detail": "lost"})

    def fire_result(self, fire_id: int) -> FireResult | None:
        self.asked.append(fire_id)
        return self.remembered.get(fire_id) if self.connected else None

    def status(self):
        status = super().status()
        status.connected = self.connected
        return status


def test_a_fire_lost_with_the_link_is_settled_by_the_device_once_it_is_back_and_never_fired_again(tmp_path):
    launcher = LinkLostMidFire(really_fired=2)
    table = journalled_table(tmp_path / "t.db", launcher, 2)
    reply = table.button()
    assert reply["error"]["code"] == "unsettled"
    assert "Once it is back" in reply["error"]["message"]
    pending = table.state()["unsettled"]
    assert pending["player"] == "Bob" and pending["requested"] == 2
    assert refuse(table, "unsettled", cmd="play", player="Bob", card="G5")["state"]["unsettled"] == pending
    launcher.connected = True  # the cable is back: the next request asks the device first
    before = table.game.state()["hands"]["Bob"]
    reply = table.handle({"cmd": "state"})
    assert "unsettled" not in reply["state"]
    assert reply["state"]["hands"]["Bob"] == before + 2
    assert launcher.fire_ids == [pending["fire_id"]]  # asked, never fired again
    assert table.journal.fires()[-1]["settled_by"] == "device"
    assert table.journal.entries()[-1] == {"cmd": "press", "player": "Bob", "fired": 2}


def test_a_fire_refused_because_the_link_was_down_fired_nothing_and_is_not_held(tmp_path):
    launcher = RememberingLauncher()
    launcher.queue(FireResult(2, 0, "link", {"detail": "down"}))
    table = journalled_table(tmp_path / "t.db", launcher, 2)
    reply = table.button()
    assert reply["error"]["code"] == "launcher_fault"
    assert "unsettled" not in reply["state"]
    assert launcher.asked == []
