"""Item 11/14: hardware commands use the configured launcher, never the simulator unless it is named."""

from __future__ import annotations

import json

import pytest
from unox import config

from .conftest import UNOX, one_line_error

# sudo's PATH has no venv in it: the hint names this installation's unox by its absolute path (issue 26)
SUDO_UDEV = f"sudo {UNOX.absolute()} install udev --write"


@pytest.mark.parametrize("argv", [["diagnose"], ["calibrate"], ["firmware", "version"], ["press"]])
def test_no_launcher_anywhere_says_how_to_name_one(unox, argv):
    err = one_line_error(unox(*argv))
    assert "no launcher found" in err
    for way in ("--launcher serial:PORT", "--launcher gpio", "--launcher sim"):
        assert way in err
    assert "unox install udev" in err  # the missing /dev/unox-launcher says how to make it


def test_diagnose_on_the_simulator_says_it_touched_no_hardware(unox):
    done = unox("diagnose", "--launcher", "sim")
    lines = done.out.splitlines()
    assert done.code == 0
    assert lines[0] == "launcher: sim (simulated: no hardware was touched)"
    assert lines[-1] == "all checks passed on the simulator, not on a launcher"
    report = json.loads(unox("diagnose", "--launcher", "sim", "--json").out)
    assert report["simulated"] is True and report["launcher"] == "sim"


def test_the_launcher_named_in_the_config_file_is_the_one_opened(unox, home):
    path = home / ".config" / "unox" / "config.toml"
    config.save({"launcher": {"spec": "sim:?seed=4&lid=open"}}, path)
    report = json.loads(unox("diagnose", "--json").out)
    assert report["launcher"] == "sim:?seed=4&lid=open"
    assert "lid is open" in next(c["detail"] for c in report["checks"] if c["name"] == "lid")


def test_a_missing_udev_name_mentions_unox_install_udev(unox):
    err = one_line_error(unox("press", "--launcher", "serial:/dev/unox-launcher"))
    assert "/dev/unox-launcher does not exist" in err and SUDO_UDEV in err


def test_calibrate_on_the_simulator_leaves_the_real_config_alone(unox, home):
    path = home / ".config" / "unox" / "config.toml"
    done = unox("calibrate", "--launcher", "sim", "--cards", "2", "--silent")
    assert done.code == 0 and not path.exists()
    assert "simulator timings are not written to your config: give --config FILE to keep them" in done.out
    assert "measured sim (2 cards measured)" in done.out


def test_calibrate_writes_simulator_timings_only_into_a_file_named_by_hand(unox, tmp_path, home):
    named = tmp_path / "sim.toml"
    done = unox("calibrate", "--launcher", "sim", "--cards", "2", "--silent", "--config", str(named))
    assert done.code == 0 and done.out.startswith(f"wrote {named} (2 cards measured in all)")
    assert config.load(named)["calibration"]["samples"] == 2
    assert not (home / ".config" / "unox" / "config.toml").exists()


@pytest.mark.parametrize("argv", [["diagnose", "--launcher", "sim"], ["press", "--launcher", "sim"],
                                  ["sim", "--games", "1"], ["profile", "measured", "--presses", "10"]])
def test_a_config_file_that_does_not_exist_is_named_not_ignored(unox, argv):
    err = one_line_error(unox(*argv, "--config", "missing.toml"))
    assert "config file missing.toml does not exist; check the path" in err


def test_one_card_measured_is_singular(unox, tmp_path):
    path = tmp_path / "c.toml"
    done = unox("calibrate", "--launcher", "sim", "--cards", "1", "--silent", "--config", str(path))
    assert done.code == 0 and f"wrote {tmp_path / 'c.toml'} (1 card measured in all)" in done.out


@pytest.mark.parametrize("argv", [["play", "--players", "Ann,Bob", "--plain"],
                                  ["table", "--players", "Ann,Bob"], ["calibrate"], ["firmware", "version"]])
def test_every_front_end_says_how_to_make_a_missing_dev_unox_launcher(argv, unox):
    err = one_line_error(unox(*argv, "--launcher", "serial:/dev/unox-launcher"))
    assert "/dev/unox-launcher does not exist" in err and SUDO_UDEV in err


def test_diagnose_names_the_missing_dev_unox_launcher_in_its_link_row(unox):
    done = unox("diagnose", "--launcher", "serial:/dev/unox-launcher")
    link = done.out.splitlines()[1]
    assert done.code == 1 and link.startswith("link  FAIL  /dev/unox-launcher does not exist")
    assert SUDO_UDEV in link
