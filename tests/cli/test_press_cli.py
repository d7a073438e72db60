"""`unox press` as a person runs it (issue 8 items 9, 10, 10a): Ctrl-C sums up, the options are in --help."""

from __future__ import annotations

import json
import signal
import subprocess

import pytest
from unox import config

from .conftest import UNOX, one_line_error, usage_error


@pytest.fixture
def device(user_env, tmp_path):
    """The simulated launcher on a pseudo-terminal, as a Pico on USB: a real serial port, real time."""
    server = subprocess.Popen([str(UNOX), "simulate-device", "--pty", "--seed", "1"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, env=user_env, cwd=tmp_path)
    yield server.stdout.readline().strip()
    server.send_signal(signal.SIGINT)
    server.communicate(timeout=30)


def start_press(user_env, tmp_path, *argv: str) -> subprocess.Popen:
    process = subprocess.Popen([str(UNOX), "press", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=user_env, cwd=tmp_path)
    assert process.stderr.readline().startswith("press the launcher button")  # it is waiting for presses
    return process


def test_ctrl_c_prints_the_sessions_summary_and_exits_130(user_env, tmp_path, device):
    process = start_press(user_env, tmp_path, "--launcher", f"serial:{device}")
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and "Traceback" not in err
    assert out.splitlines()[-1] == ("stopped: 0 presses, 0 cards fired in 0 fires, 0 refused as too quick, "
                                    "0 reloads; faults: none")


def test_systemd_stopping_the_boot_service_sums_up_too(user_env, tmp_path, device):
    process = start_press(user_env, tmp_path, "--launcher", f"serial:{device}", "--json")
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 130
    assert json.loads(out.splitlines()[-1]) == {"summary": {
        "presses": 0, "fires": 0, "cards_fired": 0, "refused": 0, "reloads": 0, "faults": {},
        "cards_left": 83}, "stopped": True}


def test_summary_counts_what_happened(unox):
    done = unox("press", "--launcher", "sim:?seed=1&cards=112", "--presses", "12", "--seed", "2", "--json")
    *records, last = [json.loads(line) for line in done.out.splitlines()]
    summary = last["summary"]
    assert done.code == 0 and last["stopped"] is False
    assert summary["presses"] == 12 == len(records)
    assert summary["cards_fired"] == sum(r["fired"] for r in records)
    assert summary["fires"] == sum(1 for r in records if r["requested"])


def test_anti_mash_and_suspense_are_in_the_help_and_off_by_default(unox):
    text = " ".join(unox("press", "--help").out.split())
    assert "--min-gap SECONDS anti-mash" in text and "--suspense SECONDS a random wait" in text
    assert "default from the config, else 0 = off" in text.split("--suspense SECONDS")[-1]
    gap_help = text.split("--min-gap SECONDS")[-1].split("--suspense")[0]
    assert "default from the config, else 0 = off" in gap_help
    service = " ".join(unox("install", "service", "--help").out.split())
    assert "--min-gap SECONDS" in service and "--suspense SECONDS" in service


def test_anti_mash_from_the_config_file_refuses_quick_presses(unox, tmp_path):
    path = tmp_path / "c.toml"
    config.save({"press": {"min_gap_ms": 2000}}, path)
    done = unox("press", "--launcher", "sim:?seed=1", "--presses", "4", "--json", "--config", str(path))
    events = [json.loads(line).get("event") for line in done.out.splitlines()[:-1]]
    assert done.code == 0 and events[1:] == ["mash"] * 3  # virtual presses come ~0.2 s apart
    assert json.loads(done.out.splitlines()[-1])["summary"]["refused"] == 3
    flag = unox("press", "--launcher", "sim:?seed=1", "--presses", "4", "--json", "--config", str(path),
                "--min-gap", "0")
    assert "mash" not in flag.out  # the flag overrides the file


def test_the_boot_service_runs_press_mode_with_both_options(unox):
    done = unox("install", "service", "--mode", "press", "--user", "pi", "--unox", "/opt/unox/bin/unox",
                "--min-gap", "1.5", "--suspense", "2")
    assert ("ExecStart=/opt/unox/bin/unox press --launcher serial:/dev/unox-launcher --min-gap 1.5 "
            "--suspense 2") in done.out.splitlines()


def test_numbers_out_of_range_name_their_range(unox):
    assert usage_error(unox("press", "--cards", "200"), "press").endswith(
        "argument --cards: 200 is out of range; give a whole number from 0 to 112")
    assert usage_error(unox("press", "--min-gap", "-1"), "press").endswith(
        "argument --min-gap: -1 is out of range; give a number from 0 to 10 seconds")
    assert usage_error(unox("diagnose", "--button-timeout", "-1"), "diagnose").endswith(
        "argument --button-timeout: -1 is out of range; give a number from 0.1 to 600 seconds")
    assert usage_error(unox("diagnose", "--cards", "x"), "diagnose").endswith(
        "argument --cards: 'x' is not a whole number; give one from 1 to 13")


def test_the_simulator_without_virtual_presses_says_how_to_press_it(unox):
    err = one_line_error(unox("press", "--launcher", "sim"))
    assert "add --presses N" in err and "unox simulate-device --pty" in err
