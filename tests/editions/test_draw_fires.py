"""Every launcher fire of a draw edition takes the presses' path (issue 7, item 1, for DL1-DL4): a draw (its
turn's, owed, a penalty's), the launcher's deal and an edition's turned card are journalled as an intent
with a fire id before the motor turns, resolved with the beam's count in one transaction, settled after a
crash by the launcher's memory or by the operator, and held while a link lost in flight cannot tell."""

from __future__ import annotations

import pytest
from unox.launcher.base import FireResult
from unox.launcher.script import ScriptLauncher
from unox.table.journal import Journal
from unox.table.runtime import Table

from .kit import accept, physical_table, refuse, send
from .test_plugin_interface import ToyRules

HAND = 7


def classic(path, launcher, **settings):
    """A journalled classic table, Ann dealt and G7 flipped: Bob's turn."""
    return physical_table("classic", launcher=launcher, journal=Journal(path), first="G7", **settings)


class Watching(ScriptLauncher):
    """Records, at each fire, what another connection to the journal sees: what a crash then would leave."""

    def __init__(self, path, **options):
        super().__init__(**options)
        self.path = path
        self.seen: list[dict | None] = []
        self.fire_ids: list[int | None] = []

    def fire(self, n, fire_id=None):
        with Journal(self.path) as reader:
            self.seen.append(reader.pending_fire())
        self.fire_ids.append(fire_id)
        return super().fire(n, fire_id)


def crash_during_a_draw(path, *, due_two: bool = False) -> int:
    """A classic table that wrote Bob's draw intent and died before its outcome; returns the fire id."""
    table = classic(path, ScriptLauncher())
    if due_two:
        accept(table, cmd="play", player="Bob", card="G+2")  # Cy owes 2
        player, due = "Cy", 2
    else:
        player, due = "Bob", 1
    fire_id = table.journal.begin_fire(player, due, {"cmd": "draw", "player": player})
    table.journal.close()  # the process dies here: no outcome written
    return fire_id


def test_DL1_a_launcher_draw_is_an_intent_before_the_motor_turns_then_one_row_with_the_beams_count(tmp_path):
    path = tmp_path / "c.db"
    launcher = Watching(path)
    table = classic(path, launcher)
    reply = send(table, cmd="draw", player="Bob")
    assert reply["ok"] and reply["launcher"] == {"requested": 1, "fired": 1, "fault": None}
    [first, seen] = launcher.seen  # the first card's fire (DL3, by `classic`), then Bob's draw
    assert first["request"] == {"cmd": "flip"} and first["fire_id"] == launcher.fire_ids[0]
    assert seen["fired"] is None and seen["requested"] == 1 and seen["fire_id"] == launcher.fire_ids[1]
    assert seen["request"] == {"cmd": "draw", "player": "Bob"}  # the intent knows it is a draw
    fire = table.journal.fires()[-1]
    assert (fire["fired"], fire["settled_by"]) == (1, "beam")
    assert table.journal.entries()[-1] == {"cmd": "draw", "player": "Bob", "fired": 1}
    assert fire["seq"] == table.journal.raw_rows()[-1][0]  # the fire and its draw row: one transaction
    assert table.journal.pending_fire() is None


def test_DL2_owed_and_penalty_draws_and_the_button_all_fire_with_an_id(tmp_path):
    path = tmp_path / "c.db"
    launcher = Watching(path)
    table = classic(path, launcher)
    accept(table, cmd="play", player="Bob", card="G+2")
    assert table.button()["launcher"]["requested"] == 2  # Cy's owed 2, by the launcher's button
    accept(table, cmd="penalty", player="Ann", kind="advice")  # C-P1: Ann draws 2
    assert send(table, cmd="draw", player="Ann")["launcher"]["fired"] == 2
    assert None not in launcher.fire_ids and len(set(launcher.fire_ids)) == 3  # the first card's, and two
    assert [f["request"]["cmd"] for f in launcher.seen] == ["flip", "draw", "draw"]
    assert [f["fired"] for f in table.journal.fires()] == [1, 2, 2]


def test_DL4_the_launchers_deal_fires_each_hand_through_the_journal(tmp_path):
    path = tmp_path / "c.db"
    launcher = Watching(path)
    table = physical_table("classic", launcher=launcher, journal=Journal(path))
    accept(table, cmd="deal", dealer="Ann", launcher=True)
    for _ in range(4):
        assert table.button()["launcher"] == {"requested": 7, "fired": 7, "fault": None}
    dealt = [{"cmd": "draw", "player": p} for p in ("Bob", "Cy", "Dee", "Ann")]
    assert [f["request"] for f in launcher.seen] == dealt
    assert [f["fired"] for f in table.journal.fires()] == [7, 7, 7, 7]
    state = table.state()
    table.close()
    assert Table.resume(path).state() == state


def test_a_draw_the_table_died_in_is_settled_from_the_launchers_memory_on_resume(tmp_path):
    path = tmp_path / "c.db"
    fire_id = crash_during_a_draw(path, due_two=True)
    launcher = ScriptLauncher()
    launcher.remembered[fire_id] = FireResult(2, 2, None)
    table = Table.resume(path, launcher=launcher)
    state = table.state()
    assert "unsettled" not in state and state["hands"]["Cy"] == HAND + 2 and state["owed"] == []
    assert launcher.fires == []  # never fired again
    assert table.journal.fires()[-1]["settled_by"] == "device"
    assert table.journal.entries()[-1] == {"cmd": "draw", "player": "Cy", "fired": 2}


def test_settle_makes_a_pending_draw_that_draw_exactly_once(tmp_path):
    path = tmp_path / "c.db"
    crash_during_a_draw(path, due_two=True)
    launcher = ScriptLauncher()  # rebooted: it remembers nothing
    table = Table.resume(path, launcher=launcher)
    pending = table.state()["unsettled"]
    assert {k: pending[k] for k in ("cmd", "player", "requested")} == {"cmd": "draw", "player": "Cy",
                                                                       "requested": 2}
    assert "Cy's draw" in table.prompt()
    refuse(table, "unsettled", cmd="draw", player="Cy", fired=2)
    refuse(table, "bad_fired", cmd="settle", fired=3)  # more than the draw was due (DL2)
    reply = send(table, cmd="settle", fired=1)  # a shortfall: the rest stays owed
    assert reply["ok"] and reply["settled"]["cmd"] == "draw" and reply["settled"]["fired"] == 1
    assert reply["state"]["owed"] == [{"player": "Cy", "draws": 1}] and "unsettled" not in reply["state"]
    assert launcher.fires == []
    assert table.journal.entries()[-1] == {"cmd": "draw", "player": "Cy", "fired": 1}
    state = table.state()
    table.close()
    assert Table.resume(path).state() == state  # settled for good: nothing to ask again


def test_settle_zero_for_a_pending_draw_means_it_never_fired_and_the_draw_is_still_due(tmp_path):
    path = tmp_path / "c.db"
    crash_during_a_draw(path)
    table = Table.resume(path, launcher=ScriptLauncher())
    reply = send(table, cmd="settle", fired=0)
    assert reply["ok"] is False and reply["error"]["code"] == "launcher_fault"
    assert "The draw did not count" in reply["error"]["message"]
    assert "unsettled" not in reply["state"] and reply["state"]["drawn"] is None
    assert send(table, cmd="draw", player="Bob")["state"]["hands"]["Bob"] == HAND + 1


def test_a_draw_lost_with_the_link_is_held_and_settled_by_the_device_once_it_is_back(tmp_path):
    class LinkLost(ScriptLauncher):
        connected = True
        losing = False  # the first card (DL3) comes out while the link holds

        def fire(self, n, fire_id=None):
            if not self.losing:
                return super().fire(n, fire_id)
            self.remembered[fire_id] = FireResult(n, n, None)  # the device fired; its answer was lost
            return FireResult(n, 0, "link", {"detail": "lost"})

        def fire_result(self, fire_id):
            return self.remembered.get(fire_id) if self.connected else None

        def status(self):
            status = super().status()
            status.connected = self.connected
            return status

    launcher = LinkLost()
    table = classic(tmp_path / "c.db", launcher)
    accept(table, cmd="play", player="Bob", card="G+2")
    launcher.losing, launcher.connected = True, False
    reply = send(table, cmd="draw", player="Cy")
    assert reply["error"]["code"] == "unsettled" and "Once it is back" in reply["error"]["message"]
    assert reply["state"]["unsettled"]["cmd"] == "draw"
    refuse(table, "unsettled", cmd="draw", player="Cy")
    launcher.connected = True
    state = accept(table, cmd="state")
    assert "unsettled" not in state and state["hands"]["Cy"] == HAND + 2
    assert table.journal.fires()[-1]["settled_by"] == "device"


def test_DL2_a_double_feed_beyond_what_is_due_is_not_drawn_and_goes_back_into_the_launcher(tmp_path):
    launcher = ScriptLauncher([1, 2])  # the first card (DL3), then the beam counted 2 for a draw of 1
    table = classic(tmp_path / "c.db", launcher)
    told: list[str] = []
    table.listeners.append(told.append)
    reply = send(table, cmd="draw", player="Bob")
    assert reply["ok"] and reply["launcher"]["fired"] == 2
    assert reply["state"]["hands"]["Bob"] == HAND + 1
    assert table.journal.fires()[-1]["fired"] == 2  # what came out, on record
    assert table.journal.entries()[-1] == {"cmd": "draw", "player": "Bob", "fired": 1}
    assert any("back in the launcher" in line for line in told)


def test_a_classic_standalone_fire_is_the_presser_draw_of_what_is_due(tmp_path):
    launcher = ScriptLauncher()
    table = classic(tmp_path / "c.db", launcher)
    accept(table, cmd="play", player="Bob", card="G+2")
    launcher.standalone = [FireResult(2, 2, None)]
    state = accept(table, cmd="state")
    assert state["hands"]["Cy"] == HAND + 2 and state["owed"] == []
    assert table.journal.entries()[-1] == {"cmd": "draw", "player": "Cy", "fired": 2}
    assert table.journal.fires()[-1]["settled_by"] == "standalone"


@pytest.fixture
def toy_edition(monkeypatch):
    """ToyRules (classic plus `peek`, a card turned up by the launcher) as if it were an installed edition."""
    import unox.rules.editions as editions
    import unox.rules.game as game_module

    real_names, real_get = editions.rule_names, game_module.get_rules
    toy = ToyRules()
    monkeypatch.setattr(editions, "rule_names", lambda: (*real_names(), "toy"))
    monkeypatch.setattr(game_module, "get_rules", lambda name: toy if name == "toy" else real_get(name))
    return toy


def test_DL3_an_editions_turned_card_is_an_intent_and_settles_as_that_request(tmp_path, toy_edition):
    path = tmp_path / "t.db"
    table = physical_table("toy", launcher=ScriptLauncher(), journal=Journal(path), first="G7")
    reply = send(table, cmd="peek", player="Bob")
    assert reply["ok"] and table.journal.entries()[-1] == {"cmd": "peek", "player": "Bob", "fired": 1}
    assert table.journal.fires()[-1]["settled_by"] == "beam"
    table.journal.begin_fire("Bob", 1, {"cmd": "peek", "player": "Bob"})  # and the table dies
    table.journal.close()
    resumed = Table.resume(path, launcher=ScriptLauncher())
    assert resumed.state()["unsettled"]["cmd"] == "peek"
    assert "Bob's peek" in resumed.prompt()
    reply = send(resumed, cmd="settle", fired=1)
    assert reply["ok"] and resumed.journal.entries()[-1] == {"cmd": "peek", "player": "Bob", "fired": 1}
    assert reply["state"]["discard"] == 3


def test_a_pending_fire_whose_stored_request_is_not_fireable_is_damage_and_nothing_changes(tmp_path):
    path = tmp_path / "c.db"
    table = classic(path, ScriptLauncher())
    table.journal.begin_fire("Bob", 1, {"cmd": "pass", "player": "Bob"})
    table.journal.close()
    with pytest.raises(Exception, match="is damaged: its unfinished fire .* never fired"):
        Table.resume(path)
    with Journal(path) as journal:
        assert journal.pending_fire()["request"] == {"cmd": "pass", "player": "Bob"}


def test_journal_check_names_a_pending_draw_as_a_draw(tmp_path):
    from unox.table.journal_tools import check

    path = tmp_path / "c.db"
    crash_during_a_draw(path, due_two=True)
    lines = check(path).lines()
    assert any("unfinished fire" in line and "2 cards for Cy (draw)" in line for line in lines), lines


class StrictToyRules(ToyRules):
    """A peek that turned up nothing is refused by the edition (its `call` wants the card)."""

    def call(self, game, cmd, fields):
        if cmd == "peek" and fields["fired"] == 0:
            from unox.rules.errors import RuleError

            raise RuleError("bad_fired", "a peek needs the card turned up: fire it again")
        super().call(game, cmd, fields)


def test_a_fire_the_rules_refuse_is_on_record_but_never_a_journal_row_that_would_not_replay(
    tmp_path, toy_edition, monkeypatch
):
    import unox.rules.game as game_module

    strict = StrictToyRules()
    monkeypatch.setattr(game_module, "get_rules", lambda name: strict)
    path = tmp_path / "t.db"
    launcher = ScriptLauncher([1, 0])  # the first card (DL3); then the beam counted nothing, and no fault
    table = physical_table("toy", launcher=launcher, journal=Journal(path), first="G7")
    before = table.state()
    reply = send(table, cmd="peek", player="Bob")
    assert reply["ok"] is False and reply["error"]["code"] == "bad_fired"
    assert "the rules refused them" in reply["error"]["message"] and reply["state"] == before
    fire = table.journal.fires()[-1]
    assert (fire["fired"], fire["seq"], fire["settled_by"]) == (0, None, "beam")
    assert table.journal.entries()[-1]["cmd"] == "flip"
    table.close()
    assert Table.resume(path).state() == before


def test_an_operators_count_the_rules_refuse_keeps_the_question(tmp_path, toy_edition, monkeypatch):
    import unox.rules.game as game_module

    strict = StrictToyRules()
    monkeypatch.setattr(game_module, "get_rules", lambda name: strict)
    path = tmp_path / "t.db"
    table = physical_table("toy", journal=Journal(path), first="G7")
    table.journal.begin_fire("Bob", 2, {"cmd": "peek", "player": "Bob"})  # asked 2 (an edition may)
    table.journal.close()
    resumed = Table.resume(path, launcher=ScriptLauncher())
    pending = resumed.state()["unsettled"]
    refuse(resumed, "bad_fired", cmd="settle", fired=2)  # the edition's call takes one card at most
    assert resumed.state()["unsettled"] == pending and resumed.journal.pending_fire() is not None
    reply = send(resumed, cmd="settle", fired=1)
    assert reply["ok"] and "unsettled" not in reply["state"]
    assert resumed.journal.entries()[-1] == {"cmd": "peek", "player": "Bob", "fired": 1}


def test_a_draw_intent_the_journal_cannot_write_fires_nothing(tmp_path, monkeypatch):
    launcher = ScriptLauncher()
    table = classic(tmp_path / "c.db", launcher)

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(table.journal, "begin_fire", full)
    error = refuse(table, "journal_error", cmd="draw", player="Bob")
    assert "nothing was fired" in error["message"]
    assert [fire.requested for fire in launcher.fires] == [1]  # the first card (DL3) only: no draw
