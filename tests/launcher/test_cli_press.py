"""`unox press`: virtual presses through the simulator, the eject profile's counts, the live tally."""

from __future__ import annotations

import json
import random

from unox.cli.main import main
from unox.launcher.base import MAX_FIRE
from unox.profiles import get_profile


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    if code == 1:  # a user error: exactly one line, in the CLI's error form
        assert err.startswith("unox: error: ") and err.count("\n") == 1, err
    return code, out, err


def test_sim_presses_fire_what_the_profile_picks(capsys):
    code, out, _ = run(capsys, "press", "--launcher", "sim:?seed=1&cards=112", "--presses", "40",
                       "--seed", "5", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    summary = records.pop()["summary"]
    assert code == 0 and len(records) == 40 and summary["presses"] == 40
    # Issue 8 item 9: the beam, not the estimate, limits a fire; the estimate only goes down with it.
    profile, left = get_profile("measured", rng=random.Random(5)), 112
    expected = [profile.next_count(MAX_FIRE) for _ in records]
    for record in records:
        left = max(0, left - record["fired"])
        assert record["cards_left"] == left
    assert [r["requested"] for r in records] == expected and not any(r["fault"] for r in records)
    assert all(r["fired"] == r["requested"] for r in records if r["fault"] is None)
    assert records[-1]["cards_fired"] == sum(r["fired"] for r in records) > 0


def test_L4_empty_launcher_is_reported_per_press_and_asks_for_a_reload(capsys):
    # The host believes 30 cards are loaded; the launcher is really empty: the beam has the last word.
    code, out, _ = run(capsys, "press", "--launcher", "sim:?seed=2&cards=0", "--cards", "30",
                       "--presses", "30", "--seed", "1", "--json")
    records = [json.loads(line) for line in out.splitlines()][:-1]
    first = next(i for i, r in enumerate(records) if r["requested"])
    assert code == 0
    assert (records[first]["fired"], records[first]["fault"], records[first]["cards_left"]) == (0, "empty", 0)
    assert "reload it and close the lid" in records[first]["message"]
    after = records[first + 1]  # a press before any reload fires nothing and says what to do
    assert (after["event"], after["requested"]) == ("reload_needed", 0)
    assert "press twice quickly" in after["message"]


def test_text_mode_prints_a_tally_per_press_and_a_summary(capsys):
    code, out, _ = run(capsys, "press", "--launcher", "script", "--presses", "5", "--seed", "3",
                       "--cards", "20")
    lines = out.splitlines()
    lines[5:] = [" ".join(" ".join(lines[5:]).split())]  # the summary, on two lines within 80 columns
    assert code == 0 and len(lines) == 6 and all(len(line) <= 80 for line in out.splitlines())
    assert all(line.startswith(f"press {i + 1:3d}:") for i, line in enumerate(lines[:5]))
    fired = [int(line.split("fired")[1].split("|")[0]) for line in lines[:5]]
    assert lines[4].endswith(f"total fired {sum(fired)}, about {20 - sum(fired)} left")
    fires = sum(1 for line in lines[:5] if "asked  0" not in line)
    assert lines[-1] == (f"done: 5 presses, {sum(fired)} cards fired in {fires} fires, 0 refused as too "
                         "quick, 0 reloads; faults: none")


def test_bad_arguments_are_one_line_errors(capsys):
    code, _, err = run(capsys, "press", "--launcher", "usb", "--presses", "1")
    assert code == 1 and "valid forms: sim" in err and "Traceback" not in err
    code, _, err = run(capsys, "press", "--launcher", "script", "--profile", "turbo", "--presses", "1")
    assert code == 1 and "unknown eject profile 'turbo'" in err


def test_unplugged_serial_port_is_a_clear_error(capsys):
    code, _, err = run(capsys, "press", "--launcher", "serial:/dev/ttyUNOX-none", "--presses", "1")
    assert code == 1 and "cannot open /dev/ttyUNOX-none" in err and "USB cable" in err
    assert len(err.strip().splitlines()) == 1


def test_a_virtual_press_the_launcher_does_not_take_is_an_error(capsys, monkeypatch):
    from unox.launcher.script import ScriptLauncher

    monkeypatch.setattr(ScriptLauncher, "wait_press", lambda self, timeout=None: False)
    code, _, err = run(capsys, "press", "--launcher", "script", "--presses", "2")
    assert code == 1 and "did not take the virtual press" in err and "unox diagnose" in err
