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
    assert " ".join(out.split()) == ("stopped: 0 presses, 0 cards fired in 0 fires, 0 refused as too quick, "
                                     "0 reloads; faults: none")
    assert all(len(line) <= 80 for line in out.splitlines())


def test_systemd_stopping_the_boot_service_sums_up_too(user_env, tmp_path, device):
    """Issue 26 item 9: exit 0, a stop asked for (130 made `systemctl stop unox` leave a failed unit)."""
    process = start_press(user_env, tmp_path, "--launcher", f"serial:{device}", "--json")
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 0
    assert json.loads(out.splitlines()[-1]) == {"summary": {
        "presses": 0, "fires": 0, "cards_fired": 0, "refused": 0, "reloads": 0, "faults": {},
        "cards_left": 83, "unknown_fires": 0}, "stopped": True}


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
    done = unox("press", "--launcher", "sim:?seed=1", "--presses", "30", "--json", "--config", str(path),
                "--seed", "4")
    records = [json.loads(line) for line in done.out.splitlines()[:-1]]
    assert done.code == 0 and all(r["event"] in ("fire", "nothing", "mash") for r in records)
    assert_anti_mash(records, 2.0)
    refused = sum(r["event"] == "mash" for r in records)
    assert json.loads(done.out.splitlines()[-1])["summary"]["refused"] == refused
    flag = unox("press", "--launcher", "sim:?seed=1", "--presses", "4", "--json", "--config", str(path),
                "--min-gap", "0")
    assert "mash" not in flag.out  # the flag overrides the file


def assert_anti_mash(records: list[dict], gap: float) -> None:
    """A press is refused as too quick exactly when it came less than `gap` after the press before it."""
    refused = [r["at"] - before["at"] < gap for before, r in zip(records, records[1:], strict=False)]
    assert [r["event"] == "mash" for r in records[1:]] == refused
    assert any(refused) and not all(refused)  # the virtual presses, spaced in virtual time, try both


def test_min_gap_can_be_tried_on_the_simulator_with_presses_spaced_in_virtual_time(unox):
    # Issue 13 item 10: virtual presses came ~0.2 s apart, so --min-gap refused every press after the first.
    done = unox("press", "--launcher", "sim:?seed=2&cards=112", "--presses", "60", "--seed", "7", "--json",
                "--min-gap", "1.5")
    records = [json.loads(line) for line in done.out.splitlines()[:-1]]
    assert done.code == 0 and len(records) == 60
    assert_anti_mash(records, 1.5)
    fired = [r for r in records if r["event"] == "fire"]
    assert fired and all(r["fired"] == r["requested"] for r in fired)


def test_the_simulators_summary_has_only_reloads_that_happened(unox):
    # Issue 13 item 10: with the hopper empty, quick virtual presses read as "reloaded" double presses, so
    # the summary counted reloads the simulated hopper never had and showed cards_left as full.
    done = unox("press", "--launcher", "sim:?seed=1&cards=20", "--presses", "150", "--seed", "3", "--json")
    *records, last = [json.loads(line) for line in done.out.splitlines()]
    summary = last["summary"]
    assert done.code == 0 and summary["reloads"] >= 2
    since = 0  # cards fired since the last reload: each reload put 20 cards into the simulated hopper
    for record in records:
        if record["event"] == "reload":
            assert since == 20, record  # the hopper had run dry (L4) before it was reloaded
            since = 0
        since += record["fired"]
    assert summary["cards_fired"] == 20 * summary["reloads"] + since
    assert summary["cards_left"] == 20 - since
    awaiting = since == 20
    assert summary["faults"] == {"empty": summary["reloads"] + awaiting}


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


def test_play_on_the_simulator_honours_its_cards_as_press_does(unox):
    # Issue 13 item 10: `sim:?cards=6` was topped up with the whole deal, so the launcher never ran dry.
    lines = "deal Ann\nflip G7\n" + "press\n" * 8 + "quit\nyes\n"
    done = unox("play", "--plain", "--no-journal", "--players", "Ann,Bob", "--seed", "1", "--launcher",
                "sim:?cards=6", stdin=lines)
    fired = [int(line.split(": ")[1].split()[0]) for line in done.out.splitlines()
             if " presses: " in line and " cards fired" in line]
    assert done.code == 0 and sum(fired) == 6  # all the simulated launcher held, and nothing more
    assert "Launcher fault (empty): the launcher is empty (L4)" in done.out
    plain = unox("play", "--plain", "--no-journal", "--players", "Ann,Bob", "--seed", "1",
                 "--launcher", "sim", stdin=lines)
    assert "Launcher fault (empty)" not in plain.out  # without cards= the deal loads the launcher, as before


def test_every_line_fits_80_columns_and_breaks_between_words(unox):
    """Issue 26 item 7: `press   6: ... | lid: the launche` / `r's lid is open`: the terminal broke the line
    mid-word. Every line is now at most 80 columns, a fault's words on lines of their own."""
    done = unox("press", "--launcher", "sim:?seed=1&cards=20&jam=0.3", "--presses", "25", "--profile",
                "brutal", "--seed", "2")
    lines = done.out.splitlines()
    assert done.code == 0 and max(len(line) for line in lines) <= 80
    told = [line for line in lines if line.startswith(" " * 11)]
    assert any(line.strip().startswith("jam: the launcher jammed") for line in told)
    assert " ".join(" ".join(lines).split()).count("put the wedged card back on the stack") >= 1
