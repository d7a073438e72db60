"""`unox calibrate`: measures on the simulator, writes the config, refines on a second run."""

from __future__ import annotations

import json

import pytest
from unox import config
from unox.cli.main import main
from unox.launcher import FireResult, open_launcher
from unox.launcher.calibration import DUTY_HEADROOM, SWEEP, Measurements, measure, refine
from unox.launcher.script import ScriptLauncher
from unoxfw.settings import LIMITS


def calibrate(capsys, path, *extra: str) -> tuple[int, dict | str]:
    code = main(["calibrate", "--config", str(path), "--silent", "--json", *extra])
    out, err = capsys.readouterr()
    if code != 0:  # a user error: exit 1, nothing on stdout, exactly one line on stderr
        assert code == 1 and out == "" and err.startswith("unox: error: ") and err.count("\n") == 1, err
    return code, json.loads(out) if code == 0 else err


def test_calibrate_writes_values_the_launcher_then_fires_exactly_with(capsys, tmp_path):
    path = tmp_path / "config.toml"
    code, report = calibrate(capsys, path, "--launcher", "sim:?seed=2&cards=112", "--cards", "6")
    assert code == 0 and path.exists()
    saved = config.load(path)
    assert saved["calibration"]["samples"] == 6
    fw = saved["firmware"]
    assert fw["duty"] == min(100, saved["calibration"]["duty"] + DUTY_HEADROOM)
    assert fw["card_ms"] > saved["calibration"]["feed_ms"]  # the jam timeout leaves room for a card
    assert all(LIMITS[k][1] <= fw[k] <= LIMITS[k][2] for k in fw)
    launcher = open_launcher("sim:?seed=9&cards=112", config=saved)
    try:
        assert [launcher.fire(n).fired for n in (1, 5, 13)] == [1, 5, 13]
    finally:
        launcher.close()


def test_a_second_run_refines_the_running_means(capsys, tmp_path):
    path = tmp_path / "config.toml"
    calibrate(capsys, path, "--launcher", "sim:?seed=2&cards=112", "--cards", "4")
    first = config.load(path)["calibration"]
    # a weaker pack: slower cards, so the mean must move (equal means could hide a run that was ignored)
    code, report = calibrate(capsys, path, "--launcher", "sim:?seed=3&cards=112&battery=4100", "--cards", "6")
    second = config.load(path)["calibration"]
    assert code == 0 and second["samples"] == 10
    assert second == pytest.approx(report["calibration"])
    assert second["feed_ms"] != first["feed_ms"]


def test_the_running_mean_weights_by_samples():
    start = config.defaults()
    start["calibration"].update(samples=4, feed_ms=100.0, duty=40.0, period_ms=80.0)
    found = Measurements(min_duty=30, feed_ms=[200.0] * 6, period_ms=120.0)
    cal = refine(start, found)["calibration"]
    assert cal["samples"] == 10
    assert cal["feed_ms"] == pytest.approx((4 * 100 + 6 * 200) / 10)
    assert cal["duty"] == pytest.approx((4 * 40 + 6 * 30) / 10)
    assert cal["period_ms"] == pytest.approx((4 * 80 + 6 * 120) / 10)


def test_the_duty_sweep_finds_the_lowest_duty_that_feeds():
    launcher = ScriptLauncher(["empty", "empty"])  # 20 % and 30 % feed nothing; 40 % does
    found = measure(launcher, config.defaults()["firmware"], cards=2)
    assert found.min_duty == SWEEP[2]
    assert launcher.configured["duty"] == SWEEP[2] + DUTY_HEADROOM


def test_a_fault_stops_calibration_and_leaves_the_file_alone(capsys, tmp_path):
    path = tmp_path / "config.toml"
    config.save(config.defaults(), path)
    before = path.read_text()
    code, err = calibrate(capsys, path, "--launcher", "sim:?seed=2&cards=3", "--cards", "6")
    assert code == 1 and "calibration stopped" in err and "not changed" in err
    assert path.read_text() == before


def test_a_bad_config_file_is_named_and_untouched(capsys, tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[firmware]\nduty = 150\n")
    code, err = calibrate(capsys, path, "--launcher", "script")
    assert code == 1 and "firmware.duty = 150 is out of range; allowed: 20 to 100" in err
    assert path.read_text() == "[firmware]\nduty = 150\n"


def test_script_outcomes_drive_the_measurement():
    timed = [FireResult(1, 1, None, {"fire_ms": 400})] * 3 + [FireResult(3, 3, None, {"fire_ms": 700})]
    launcher = ScriptLauncher(timed)
    firmware = config.defaults()["firmware"]
    found = measure(launcher, firmware, cards=2)
    overhead = firmware["reverse_ms"] + firmware["settle_ms"]
    assert found.min_duty == SWEEP[0]
    assert found.feed_ms == [400 - overhead] * 2
    assert found.period_ms == pytest.approx((700 - 400) / 2)


def test_the_progress_bar_fills_and_silent_hides_it(capsys, tmp_path):
    import io

    from unox.cli.progress import Progress
    from unox.launcher.calibration import fires_needed

    stream = io.StringIO()
    with Progress(fires_needed(2), "calibrating", stream=stream) as bar:
        measure(ScriptLauncher(), config.defaults()["firmware"], cards=2, step=bar.advance)
        bar.advance(bar.total - bar.done)
    assert stream.getvalue().rstrip().endswith(f"{fires_needed(2)}/{fires_needed(2)}")
    code = main(["calibrate", "--config", str(tmp_path / "c.toml"), "--launcher", "script", "--silent"])
    assert code == 0 and capsys.readouterr().err == ""


@pytest.mark.parametrize("cards", [1, 5, 10])
def test_the_run_fires_what_the_help_and_the_report_say(cards, sim, capsys, tmp_path):
    """Issue 26 item 10: `--cards N` fired N + 4 cards (5, 9, 14) while the help said "single-card test
    fires"; now the help gives N + 4 and the report counts the cards the launcher really ejected."""
    from unox.cli.main import build_parser
    from unox.launcher import calibration

    launcher = sim("seed=1&cards=112")
    found = calibration.measure(launcher, {key: value[0] for key, value in LIMITS.items()}, cards)
    assert found.fired == launcher.device.model.ejected == cards + 4
    code, report = calibrate(capsys, tmp_path / "c.toml", "--launcher", "sim:?seed=1&cards=112", "--cards",
                             str(cards))
    assert code == 0 and report["cards_fired"] == cards + 4
    command = build_parser()._subparsers._group_actions[0].choices["calibrate"]
    (option,) = [action for action in command._actions if action.dest == "cards"]
    assert "fires N + 4" in option.help
