"""The scripted launcher plays the caller's outcomes, then fires exactly what is asked."""

from __future__ import annotations

import pytest
from unox.launcher import FireResult
from unox.launcher.script import ScriptLauncher


def test_queued_outcomes_then_exact_fires():
    launcher = ScriptLauncher([2, "jam", (1, "stuck"), FireResult(9, 3, None)])
    results = [launcher.fire(n) for n in (4, 2, 3, 5, 6)]
    assert [(r.requested, r.fired, r.fault) for r in results] == [
        (4, 2, None), (2, 0, "jam"), (3, 1, "stuck"), (5, 3, None), (6, 6, None)
    ]
    assert launcher.status().cards_counted == 2 + 1 + 3 + 6


def test_L4_hopper_limit_reports_empty():
    launcher = ScriptLauncher(cards=3)
    assert launcher.fire(2).fired == 2
    result = launcher.fire(4)
    assert (result.fired, result.fault) == (1, "empty") and launcher.cards == 0


def test_lid_open_fires_nothing():
    launcher = ScriptLauncher(lid_open=True)
    assert launcher.fire(2) == FireResult(2, 0, "lid")
    assert launcher.status().faults == ["lid"]


def test_presses_are_taken_once_each():
    launcher = ScriptLauncher(presses=1)
    launcher.press_button()
    assert [launcher.wait_press(0) for _ in range(3)] == [True, True, False]


def test_unknown_fault_in_a_script_is_refused():
    with pytest.raises(ValueError, match="unknown fault 'melted'"):
        ScriptLauncher(["melted"])


def test_beeps_are_recorded_and_checked():
    launcher = ScriptLauncher()
    launcher.beep("not_owed")
    with pytest.raises(ValueError, match="unknown beep pattern"):
        launcher.beep("tune")
    assert launcher.beeps == ["not_owed"]


def test_script_launcher_remembers_fires_by_id_only_while_it_lives():
    launcher = ScriptLauncher([(1, "jam")])
    first = launcher.fire(3, fire_id=41)
    assert launcher.fire_result(41) == first and launcher.fire_result(42) is None
    assert len(launcher.fires) == 1  # asking never fires
    assert ScriptLauncher().fire_result(41) is None  # a new launcher (a rebooted device) cannot tell


def test_script_launcher_hands_each_scripted_standalone_fire_over_once():
    launcher = ScriptLauncher()
    launcher.standalone.append(FireResult(2, 2, None))
    assert launcher.take_standalone_fires() == [FireResult(2, 2, None)]
    assert launcher.take_standalone_fires() == []
