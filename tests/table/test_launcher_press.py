"""A press taken by a real launcher: attributed by the rules, fired through the eject profile, the beam's
count given to the rules and journalled (issue 4, section 1; architecture "Table runtime")."""

from __future__ import annotations

import pytest
from unox.launcher.script import ScriptLauncher
from unox.table.journal import Journal
from unox.table.runtime import Table

from .tablekit import DECK, HAND, PLAYERS, FixedProfile, accept, new_table, refuse, send, started

AFTER_FLIP = DECK - HAND * len(PLAYERS) - 1


def launcher_table(*counts: int, outcomes=(), journal=None) -> tuple[Table, ScriptLauncher, FixedProfile]:
    launcher = ScriptLauncher(outcomes)
    profile = FixedProfile(*counts)
    table = new_table(launcher=launcher, journal=journal)
    table.profile = profile
    return table, launcher, profile


def test_T2_button_press_belongs_to_the_player_whose_turn_it_is():
    table, launcher, profile = launcher_table(3)
    started(table)
    reply = table.button()
    assert reply["ok"], reply
    assert reply["launcher"] == {"requested": 3, "fired": 3, "fault": None}
    assert [f.requested for f in launcher.fires] == [3]
    assert reply["state"]["hands"]["Bob"] == HAND + 3
    assert reply["state"]["launcher"]["cards"] == AFTER_FLIP - 3
    assert reply["state"]["turn"] == "Cy"
    assert profile.calls == [(AFTER_FLIP, False)]


def test_T4_the_beams_count_goes_to_the_rules_and_the_journal_not_the_request(tmp_path):
    """The profile asks for 4, the beam counts 1: the presser gets 1 and the journal says 1."""
    table, launcher, _ = launcher_table(4, outcomes=[1], journal=Journal(tmp_path / "t.db"))
    started(table)
    reply = table.button()
    assert reply["launcher"]["requested"] == 4 and reply["launcher"]["fired"] == 1
    assert reply["state"]["hands"]["Bob"] == HAND + 1
    assert table.journal.entries()[-1] == {"cmd": "press", "player": "Bob", "fired": 1}


def test_A1_owed_presses_come_before_the_turn():
    table, launcher, _ = launcher_table(0, 2)
    accept(table, cmd="deal", dealer="Ann")
    accept(table, cmd="flip", card="RH")
    first = table.button()
    assert first["state"]["owed"] == [{"player": "Bob", "presses": 1}]
    second = table.button()
    assert second["state"]["owed"] == []
    assert second["state"]["hands"]["Bob"] == HAND + 2
    assert second["state"]["hands"]["Cy"] == HAND


@pytest.mark.parametrize("phase_setup", ["fresh", "flip"])
def test_a_press_nobody_owes_beeps_not_owed_and_fires_nothing(phase_setup):
    table, launcher, profile = launcher_table(3)
    if phase_setup == "flip":
        accept(table, cmd="deal", dealer="Ann")
    before = table.state()
    reply = table.button()
    assert reply["ok"] is False
    assert reply["error"]["code"] == "not_owed"
    assert reply["error"]["message"]
    assert launcher.beeps == ["not_owed"]
    assert launcher.fires == []
    assert profile.calls == []
    assert table.state() == reply["state"] == before


def test_press_request_without_fired_fires_for_real():
    table, launcher, _ = launcher_table(2)
    started(table)
    state = accept(table, cmd="press", player="Bob")
    assert [f.fired for f in launcher.fires] == [2]
    assert state["hands"]["Bob"] == HAND + 2


def test_press_request_without_player_is_a_button_press():
    table, launcher, _ = launcher_table(2)
    started(table)
    state = accept(table, cmd="press")
    assert state["hands"]["Bob"] == HAND + 2


def test_press_request_by_someone_who_owes_nothing_is_refused_without_firing():
    table, launcher, profile = launcher_table(2)
    started(table)
    reply = refuse(table, "not_owed", cmd="press", player="Ann")
    assert launcher.fires == [] and profile.calls == []
    assert launcher.beeps == ["not_owed"]
    assert "Bob" in reply["error"]["message"]


def test_press_request_out_of_the_owed_order_is_refused_without_firing():
    table, launcher, _ = launcher_table(2)
    started(table)
    accept(table, cmd="penalty", player="Cy", kind="advice")
    accept(table, cmd="penalty", player="Ann", kind="advice")
    refuse(table, "press_out_of_order", cmd="press", player="Ann")
    assert launcher.fires == []


def test_press_request_with_fired_is_taken_as_told_even_with_a_launcher():
    table, launcher, _ = launcher_table(5)
    started(table)
    state = accept(table, cmd="press", player="Bob", fired=1)
    assert launcher.fires == []
    assert state["hands"]["Bob"] == HAND + 1


def test_A8_hit_fire_forces_a_firing_while_the_launcher_holds_cards():
    table, launcher, profile = launcher_table(0)
    started(table)
    accept(table, cmd="play", player="Bob", card="WF", color="red")
    reply = table.button()
    assert profile.calls == [(AFTER_FLIP, True)]
    assert reply["launcher"]["requested"] >= 1
    assert reply["state"]["owed"] == []
    assert reply["state"]["hands"]["Cy"] == HAND + reply["launcher"]["fired"]


def test_A8_hit_fire_with_an_empty_launcher_fires_nothing_and_stays_owed():
    table, launcher, profile = launcher_table(0)
    started(table)
    accept(table, cmd="press", player="Bob", fired=AFTER_FLIP)
    accept(table, cmd="play", player="Cy", card="WF", color="red")
    reply = table.button()
    assert reply["launcher"]["requested"] == 0
    assert reply["state"]["owed"] == [{"player": "Ann", "until_fire": True}]


def test_launcher_cards_go_down_by_exactly_what_was_fired():
    table, launcher, _ = launcher_table(3, 5, 2, 4, outcomes=[3, 1, 2, (2, "jam")])
    started(table)
    for _ in range(4):
        table.button()
    fired = sum(f.fired for f in launcher.fires)
    assert fired == 3 + 1 + 2 + 2
    assert table.state()["launcher"]["cards"] == AFTER_FLIP - fired


def test_L4_a_fault_with_nothing_fired_does_not_count_the_press(tmp_path):
    table, launcher, _ = launcher_table(3, outcomes=["jam"], journal=Journal(tmp_path / "t.db"))
    started(table)
    before, journalled = table.state(), table.journal.entries()
    reply = table.button()
    assert reply["ok"] is False
    assert reply["error"]["code"] == "launcher_fault"
    assert reply["launcher"]["fault"] == "jam"
    assert "lid" in reply["launcher"]["action"]
    assert table.state() == reply["state"] == before
    assert table.journal.entries() == journalled


def test_a_fault_after_some_cards_counts_those_cards_and_says_what_to_do():
    table, launcher, _ = launcher_table(4, outcomes=[(2, "stuck")])
    started(table)
    reply = table.button()
    assert reply["ok"]
    assert reply["launcher"]["fault"] == "stuck" and reply["launcher"]["fired"] == 2
    assert reply["launcher"]["action"]
    assert reply["state"]["hands"]["Bob"] == HAND + 2


def test_a_table_without_launcher_refuses_button_presses():
    table = new_table()
    started(table)
    before = table.state()
    reply = table.button()
    assert reply["error"]["code"] == "no_launcher"
    assert table.state() == before


def test_R1_reload_resets_the_profiles_press_memory():
    table, launcher, profile = launcher_table()
    started(table)
    accept(table, cmd="play", player="Bob", card="G3")
    accept(table, cmd="reload")
    assert profile.resets == 1


def test_resume_replays_launcher_presses_without_firing_again(tmp_path):
    path = tmp_path / "t.db"
    table, launcher, _ = launcher_table(3, 0, 4, journal=Journal(path))
    started(table)
    for _ in range(3):
        table.button()
    expected = table.state()
    table.journal.close()
    again = ScriptLauncher()
    resumed = Table.resume(path, launcher=again)
    assert resumed.state() == expected
    assert again.fires == []


def test_event_listeners_hear_accepted_refused_and_fired_events():
    table, launcher, _ = launcher_table(2)
    heard: list[str] = []
    table.listeners.append(heard.append)
    started(table)
    table.button()
    send(table, cmd="play", player="Ann", card="G3")
    assert any("Ann deals" in line for line in heard)
    assert any("G7" in line for line in heard)
    assert any("Bob presses: 2 cards" in line for line in heard)
    assert any("not_your_turn" in line for line in heard)


def test_not_owed_message_says_what_the_table_waits_for():
    table, launcher, _ = launcher_table()
    assert '"cmd":"deal"' in table.button()["error"]["message"]
    accept(table, cmd="deal", dealer="Ann")
    assert '"cmd":"flip"' in table.button()["error"]["message"]


def test_listeners_hear_when_a_hand_and_the_game_are_won():
    table = new_table(target=10)
    heard: list[str] = []
    table.listeners.append(heard.append)
    started(table)
    accept(table, cmd="uno", player="Bob")
    accept(table, cmd="play", player="Bob", card="GD", count=5)
    accept(table, cmd="press", player="Cy", fired=0)
    accept(table, cmd="press", player="Ann", fired=0)
    accept(table, cmd="play", player="Bob", card="G5")
    assert any("Bob" in line and "gone out" in line for line in heard)
    assert '"cmd":"score"' in table.prompt()
    final = accept(table, cmd="score", points={"Ann": 12, "Bob": 0, "Cy": 3})
    assert final["winner"] == "Bob"
    assert "Bob" in heard[-1] and "wins" in heard[-1] and str(final["scores"]["Bob"]) in heard[-1]


def test_R2_listeners_are_told_to_reload_when_the_estimate_reaches_zero():
    table = new_table()
    heard: list[str] = []
    table.listeners.append(heard.append)
    started(table)
    accept(table, cmd="press", player="Bob", fired=AFTER_FLIP - 1)
    assert not any("reload" in line for line in heard)
    told = len(heard)
    accept(table, cmd="press", player="Cy", fired=1)
    assert sum("reload" in line and "R2" in line for line in heard[told:]) == 1


def test_a_launcher_that_is_lost_mid_fire_is_a_link_fault_and_the_press_does_not_count():
    from unox.launcher.base import LauncherError

    class LostLauncher(ScriptLauncher):
        def fire(self, n):
            raise LauncherError("lost the launcher on /dev/ttyACM0; check the USB cable")

    table = new_table(launcher=LostLauncher())
    table.profile = FixedProfile(2)
    started(table)
    before = table.state()
    reply = table.button()
    assert reply["error"]["code"] == "launcher_fault"
    assert reply["launcher"]["fault"] == "link"
    assert "USB" in reply["launcher"]["action"]
    assert table.state() == before


def test_a_failing_listener_does_not_break_the_table():
    table = new_table()
    heard: list[str] = []

    def broken(text: str) -> None:
        raise RuntimeError("display bug")

    table.listeners.extend([broken, heard.append])
    state = started(table)
    assert state["phase"] == "turn"
    calm = new_table()
    calm_heard: list[str] = []
    calm.listeners.append(calm_heard.append)
    started(calm)
    assert heard == calm_heard and len(heard) >= 2


def test_the_host_never_asks_the_launcher_for_more_than_max_fire():
    from unox.launcher.base import MAX_FIRE

    table, launcher, _ = launcher_table(99)
    started(table)
    reply = table.button()
    assert reply["launcher"]["requested"] == MAX_FIRE
    assert [fire.requested for fire in launcher.fires] == [MAX_FIRE]


def test_a_stopped_table_refuses_every_request_and_fires_and_books_nothing(tmp_path):
    """`Table.stop` (a tournament seat another process took over): the button, a typed request and an undo
    are refused with the reason, nothing fired and nothing journalled."""
    table, launcher, _ = launcher_table(3, journal=Journal(tmp_path / "t.db"))
    started(table)
    booked = table.journal.entries()
    table.stop("table 1 of club was replaced by another process")
    for reply in (table.button(), table.draw_from_launcher("Bob"), table.undo(),
                  send(table, cmd="play", player="Bob", card="R5")):
        assert not reply["ok"] and reply["error"]["code"] == "stopped", reply
        assert reply["error"]["message"] == "table 1 of club was replaced by another process"
    assert launcher.fires == [] and table.journal.entries() == booked
