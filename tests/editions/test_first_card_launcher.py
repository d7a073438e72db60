"""DL3 for the first card: at a draw edition's table with a launcher, the first card after the deal is fired
by the launcher (1 card, counted by the beam) and the table then reports which it is; a first card that goes
back into the launcher (C-S4 Wild Draw Four, BA-S4 wilds) means another is fired. Extreme is unchanged."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from unox.launcher import open_launcher
from unox.table.journal import Journal
from unox.table.runtime import Table

from .kit import PLAYERS, accept, physical_table, refuse, send

AFTER_DEAL = {"classic": 108 - 4 * 7, "barbie": 112 - 4 * 7}


def sim_launcher(cards: int, **faults: float):
    options = {"jam": 0, "double": 0, "stuck": 0, **faults}
    query = "&".join(f"{k}={v}" for k, v in options.items())
    return open_launcher(f"sim:?seed=7&cards={cards}&{query}")


@pytest.mark.parametrize(("rules", "goes_back"), [("classic", "W+4"), ("barbie", "WB")])
def test_DL3_the_launcher_fires_the_first_card_and_the_table_reports_which_it_is(rules, goes_back):
    launcher = sim_launcher(AFTER_DEAL[rules])
    try:
        table = physical_table(rules, launcher=launcher)
        accept(table, cmd="deal", dealer="Ann")
        assert refuse(table, "fire_first", cmd="flip", card="G7")["message"].count('{"cmd":"flip"}') == 1
        reply = send(table, cmd="flip")
        assert reply["ok"] and reply["launcher"] == {"requested": 1, "fired": 1, "fault": None}
        state = reply["state"]
        assert state["phase"] == "flip" and state["first_fired"] is True
        assert state["launcher"]["cards"] == AFTER_DEAL[rules] - 1 and state["discard"] == 0
        assert table.prompt().startswith("Report the first card")
        refuse(table, "bad_card", cmd="flip")  # a card is up: nothing more is fired until it is reported
        assert launcher.device.model.ejected == 1
        state = accept(table, cmd="flip", card=goes_back)  # back into the launcher: another is fired
        assert state["phase"] == "flip" and state["first_fired"] is False
        assert state["launcher"]["cards"] == AFTER_DEAL[rules]
        refuse(table, "fire_first", cmd="flip", card="G7")
        assert send(table, cmd="flip")["launcher"]["fired"] == 1
        state = accept(table, cmd="flip", card="G7")
        assert state["phase"] == "turn" and state["top"] == "G7" and state["turn"] == "Bob"
        assert state["launcher"]["cards"] == AFTER_DEAL[rules] - 1 and state["discard"] == 1
        assert launcher.device.model.ejected == 2
        assert [e["cmd"] for e in table.entries] == ["deal", "flip", "flip", "flip", "flip"]
    finally:
        launcher.close()


def test_DL3_an_empty_launcher_fires_no_first_card_and_nothing_changes():
    launcher = sim_launcher(0)
    try:
        table = physical_table("classic", launcher=launcher)
        accept(table, cmd="deal", dealer="Ann")
        before = table.state()
        reply = send(table, cmd="flip")
        assert reply["ok"] is False and reply["error"]["code"] == "launcher_fault"
        assert reply["launcher"]["fired"] == 0 and table.state() == before
    finally:
        launcher.close()


def test_DL3_the_launchers_button_fires_the_first_card_after_the_deal():
    launcher = sim_launcher(AFTER_DEAL["barbie"])
    try:
        table = physical_table("barbie", launcher=launcher)
        accept(table, cmd="deal", dealer="Ann")
        reply = table.button()
        assert reply["ok"] and reply["launcher"]["fired"] == 1 and reply["state"]["first_fired"]
        assert table.button()["error"]["code"] == "not_owed" and launcher.device.model.ejected == 1
        assert accept(table, cmd="flip", card="T3")["turn"] == "Bob"
    finally:
        launcher.close()


def test_DL3_a_fired_first_card_survives_a_restart_from_the_journal(tmp_path):
    path = tmp_path / "barbie.db"
    launcher = sim_launcher(AFTER_DEAL["barbie"])
    try:
        table = physical_table("barbie", launcher=launcher, journal=Journal(path))
        accept(table, cmd="deal", dealer="Ann")
        send(table, cmd="flip")
        table.journal.close()
    finally:
        launcher.close()
    resumed = Table.resume(path)
    assert resumed.state()["first_fired"] is True and resumed.state()["phase"] == "flip"
    assert accept(resumed, cmd="flip", card="P4")["top"] == "P4"


def crash_during_the_first_card(path) -> int:
    """A journalled Barbie table that wrote the first card's fire intent and died before its outcome."""
    from unox.launcher.script import ScriptLauncher

    table = physical_table("barbie", launcher=ScriptLauncher(), journal=Journal(path))
    accept(table, cmd="deal", dealer="Ann")
    fire_id = table.journal.begin_fire(None, 1, {"cmd": "flip"})
    table.journal.close()  # the process dies here: no outcome written
    return fire_id


def test_DL3_the_first_card_is_an_intent_before_the_motor_turns_then_one_row_with_the_beams_count(tmp_path):
    from unox.launcher.script import ScriptLauncher

    path = tmp_path / "barbie.db"
    seen: list = []

    class Watching(ScriptLauncher):
        def fire(self, n, fire_id=None):
            with Journal(path) as reader:
                seen.append(reader.pending_fire())
            return super().fire(n, fire_id)

    table = physical_table("barbie", launcher=Watching(), journal=Journal(path))
    accept(table, cmd="deal", dealer="Ann")
    assert send(table, cmd="flip")["state"]["first_fired"] is True
    [intent] = seen
    assert intent["request"] == {"cmd": "flip"} and intent["requested"] == 1 and intent["fired"] is None
    fire = table.journal.fires()[-1]
    assert (fire["fired"], fire["settled_by"]) == (1, "beam")
    assert fire["seq"] == table.journal.raw_rows()[-1][0]  # the fire and its flip row: one transaction
    assert table.journal.entries()[-1] == {"cmd": "flip", "fired": 1}


def test_DL3_a_first_card_the_table_died_in_is_settled_from_the_launchers_memory(tmp_path):
    from unox.launcher.base import FireResult
    from unox.launcher.script import ScriptLauncher

    path = tmp_path / "barbie.db"
    fire_id = crash_during_the_first_card(path)
    launcher = ScriptLauncher()
    launcher.remembered[fire_id] = FireResult(1, 1, None)
    table = Table.resume(path, launcher=launcher)
    state = table.state()
    assert "unsettled" not in state and state["first_fired"] is True and state["phase"] == "flip"
    assert launcher.fires == []  # never fired again
    assert table.journal.fires()[-1]["settled_by"] == "device"
    assert accept(table, cmd="flip", card="T3")["turn"] == "Bob"


def test_DL3_a_first_card_nobody_can_count_is_settled_by_the_operator_exactly_once(tmp_path):
    from unox.launcher.script import ScriptLauncher

    path = tmp_path / "barbie.db"
    crash_during_the_first_card(path)
    launcher = ScriptLauncher()  # rebooted: it remembers nothing
    table = Table.resume(path, launcher=launcher)
    assert table.state()["unsettled"]["cmd"] == "flip" and "the flip" in table.prompt()
    refuse(table, "unsettled", cmd="flip")
    refuse(table, "bad_fired", cmd="settle", fired=2)  # the first card is one card
    reply = send(table, cmd="settle", fired=1)
    assert reply["ok"] and reply["state"]["first_fired"] is True and "unsettled" not in reply["state"]
    assert launcher.fires == []
    state = table.state()
    table.close()
    assert Table.resume(path).state() == state


def test_DL3_a_first_card_already_reported_makes_its_stopped_fire_damage(tmp_path):
    from unox.launcher.script import ScriptLauncher

    path = tmp_path / "barbie.db"
    table = physical_table("barbie", launcher=ScriptLauncher(), journal=Journal(path), first="T3")
    table.journal.begin_fire(None, 1, {"cmd": "flip"})  # a flip intent while it is Bob's turn
    table.journal.close()
    with pytest.raises(Exception, match="is damaged: its unfinished fire"):
        Table.resume(path)


def test_DL3_a_first_card_the_launcher_fired_alone_is_counted_as_the_first_card(tmp_path):
    from unox.launcher.base import FireResult
    from unox.launcher.script import ScriptLauncher

    launcher = ScriptLauncher()
    table = physical_table("barbie", launcher=launcher, journal=Journal(tmp_path / "b.db"))
    accept(table, cmd="deal", dealer="Ann")
    launcher.standalone = [FireResult(1, 1, None)]  # its button, pressed while the link was down
    state = accept(table, cmd="state")
    assert state["first_fired"] is True and state["launcher"]["cards"] == AFTER_DEAL["barbie"] - 1
    assert table.journal.entries()[-1] == {"cmd": "flip", "fired": 1}
    assert table.journal.fires()[-1]["settled_by"] == "standalone"
    assert accept(table, cmd="flip", card="T3")["turn"] == "Bob"


def test_DL3_without_a_launcher_the_table_reports_the_count_then_the_card():
    table = physical_table("barbie")
    accept(table, cmd="deal", dealer="Ann")
    refuse(table, "bad_card", cmd="flip")  # no launcher: name the card
    refuse(table, "bad_fired", cmd="flip", fired=2)  # one at a time
    refuse(table, "bad_fired", cmd="flip", fired=0)
    state = accept(table, cmd="flip", fired=1)
    assert state["first_fired"] and state["launcher"]["cards"] == AFTER_DEAL["barbie"] - 1
    refuse(table, "bad_fired", cmd="flip", fired=1)  # report the card first
    state = accept(table, cmd="flip", card="G7")
    assert state["turn"] == "Bob" and state["launcher"]["cards"] == AFTER_DEAL["barbie"] - 1
    one_go = physical_table("classic")
    accept(one_go, cmd="deal", dealer="Ann")
    assert accept(one_go, cmd="flip", card="R2", fired=1)["top"] == "R2"  # fired and reported at once


def test_DL3_in_dealt_mode_the_engine_knows_the_fired_card():
    from .kit import dealt_table

    table = dealt_table("barbie", flip=(), then=["W", "T7"])
    state = accept(table, cmd="flip", fired=1, color="pink")  # W: back in (BA-S4), the colour not used
    assert state["phase"] == "flip" and state["first_fired"] is False and state["top"] is None
    state = accept(table, cmd="flip", fired=1)
    assert state["top"] == "T7" and state["turn"] == "Bob" and state["first_fired"] is False


def test_DL3_extreme_turns_its_first_card_by_hand():
    table = physical_table("extreme")
    accept(table, cmd="deal", dealer="Ann")
    assert send(table, cmd="flip", fired=1)["error"]["code"] == "bad_request"
    launcher = sim_launcher(80)
    try:
        extreme = physical_table("extreme", launcher=launcher)
        accept(extreme, cmd="deal", dealer="Ann")
        assert accept(extreme, cmd="flip", card="G7")["turn"] == "Bob"
        assert launcher.device.model.ejected == 0
    finally:
        launcher.close()


def test_DL3_unox_table_launcher_sim_fires_the_first_card_of_barbie_uno():
    lines = [{"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip"}, {"cmd": "flip", "card": "WB"},
             {"cmd": "flip"}, {"cmd": "flip", "card": "T7"}, {"cmd": "play", "player": "Bob", "card": "T2"}]
    argv = ["table", "--rules", "barbie", "--players", ",".join(PLAYERS), "--launcher", "sim", "--seed", "1"]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    done = subprocess.run([sys.executable, "-m", "unox", *argv], capture_output=True, text=True, input=stdin,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["ok"] for r in replies] == [True] * 6
    assert [r.get("launcher", {}).get("fired") for r in replies] == [None, 1, None, 1, None, None]
    assert replies[-1]["state"]["top"] == "T2" and replies[-1]["state"]["turn"] == "Cy"
