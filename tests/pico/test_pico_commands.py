"""`unox diagnose`, `press`, `calibrate`, `play` and `serve` against the emulated Pico, unchanged, as against
a real one: each a subprocess on `--launcher serial:PTY` of one `unox simulate-device --pty --chip rp2040`
(booted and flashed once for this module), judged by the launcher's truth, the control socket's `count`.

The serial port is exclusive (one program at a time), so they run one after another, in one test."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest
from unoxsim.control import send

from tests.pico.conftest import UNOX
from tests.web.conftest import OPERATOR_PIN, PIN, Served, seat

BOUND_S = 600  # only reached when something is broken: a command runs 5-60 s of wall time on a loaded machine


class Chip:
    """The running `simulate-device --chip rp2040`: its pty, its control socket, a fresh user's env."""

    def __init__(self, proc: subprocess.Popen, path: str, sock: str, env: dict[str, str], home: Path):
        self.proc, self.path, self.sock, self.env, self.home = proc, path, sock, env, home

    @property
    def launcher(self) -> str:
        return f"serial:{self.path}"

    def count(self) -> dict:
        return json.loads(send(self.sock, "count", timeout=60))

    def cards_out(self) -> int:
        count = self.count()
        return count["ejected"] + count["in_slot"]

    def press(self) -> None:
        assert send(self.sock, "press", timeout=60) == "ok"

    def unox(self, *argv: str, stdin: str = "") -> subprocess.CompletedProcess:
        return subprocess.run([*UNOX, *argv], input=stdin, capture_output=True, text=True, env=self.env,
                              cwd=self.home, timeout=BOUND_S)

    def start(self, *argv: str, stdin: bool = False) -> subprocess.Popen:
        """Unbuffered pipes: `read_line` takes one line at a time and leaves the rest to `finish`."""
        return subprocess.Popen([*UNOX, *argv], stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0, env=self.env,
                                cwd=self.home)


def read_line(stream, bound_s: float = BOUND_S) -> str:
    """One line from an unbuffered pipe (read a byte at a time, so nothing is held back in a buffer)."""
    ready, _, _ = select.select([stream], [], [], bound_s)
    assert ready, "no line within the bound"
    return stream.readline().decode()


def finish(proc: subprocess.Popen, typed: bytes | None = None) -> tuple[str, str]:
    out, err = proc.communicate(typed, timeout=BOUND_S)
    return out.decode(), err.decode()


@pytest.fixture(scope="module")
def chip(pico_folder, tmp_path_factory):
    home = tmp_path_factory.mktemp("pico-user")
    env = {key: value for key, value in os.environ.items() if not key.startswith("XDG_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_STATE_HOME=str(home / ".state"),
               PYTHONUNBUFFERED="1", UNOX_PICO_DIR=str(pico_folder))
    sock = str(home / "pico.sock")
    proc = subprocess.Popen([*UNOX, "simulate-device", "--pty", "--chip", "rp2040", "--control", sock],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0, env=env, cwd=home)
    try:
        path = read_line(proc.stdout).strip()
        assert path.startswith("/dev/pts/"), path
        yield Chip(proc, path, sock, env, home)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)


def diagnose(chip: Chip) -> None:
    """Every check passes; the button is pressed from the control socket when diagnose asks for it."""
    before = chip.cards_out()
    proc = chip.start("diagnose", "--launcher", chip.launcher, "--cards", "2", "--json")
    assert "press the launcher's button" in read_line(proc.stderr)
    chip.press()
    out, err = finish(proc)
    report = json.loads(out)
    checks = {check["name"]: check for check in report["checks"]}
    assert proc.returncode == 0 and report["ok"] and not report["simulated"], (out, err)
    assert [check["result"] for check in report["checks"]] == ["pass"] * len(checks), checks
    assert re.fullmatch(r"unoxfw 0\.1\.0, board [0-9a-f]{16}", checks["firmware"]["detail"])
    assert checks["motor"]["detail"] == "fired 2 of 2"
    assert chip.cards_out() == before + 2  # the beam's count is the physics' count


def press(chip: Chip) -> None:
    """`unox press --presses 3`: three presses of the launcher's button; its summary is what came out."""
    before = chip.cards_out()
    proc = chip.start("press", "--launcher", chip.launcher, "--presses", "3", "--seed", "2", "--json")
    assert read_line(proc.stderr).startswith("press the launcher button")
    records = []
    for _ in range(3):
        chip.press()
        records.append(json.loads(read_line(proc.stdout)))  # one record per press, before the next press
    out, err = finish(proc)
    summary = json.loads(out.splitlines()[-1])["summary"]
    assert proc.returncode == 0 and summary["presses"] == 3, (out, err)
    assert summary["cards_fired"] == sum(record["fired"] for record in records)
    assert chip.cards_out() == before + summary["cards_fired"]
    assert summary["faults"] == {}


def calibrate(chip: Chip) -> None:
    """`unox calibrate --config FILE`: the duty sweep, a timed card, the period run; the file is written."""
    before = chip.cards_out()
    config = chip.home / "calibrated.toml"
    done = chip.unox("calibrate", "--launcher", chip.launcher, "--cards", "1", "--config", str(config),
                     "--silent", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["config"] == str(config) and report["calibration"]["samples"] == 1
    assert 20 <= report["calibration"]["duty"] <= 100
    from unox import config as config_file
    from unox.launcher.calibration import PERIOD_CARDS

    assert config_file.load(config)["firmware"] == report["firmware"]  # what it reported is what it kept
    # at least: the sweep's card, the timed card and the period run's cards came out of the launcher
    assert chip.cards_out() - before >= 1 + 1 + PERIOD_CARDS


def typed(proc: subprocess.Popen, line: str, answer: str) -> str:
    """Types one line into `play --plain` and reads until its answer: one line at a time, as a person types
    (two lines in one write wait in play's stdin buffer while it polls the launcher: see the report)."""
    proc.stdin.write(line.encode() + b"\n")
    return until(proc, answer)


def until(proc: subprocess.Popen, text: str) -> str:
    line = read_line(proc.stdout)
    while text not in line:
        line = read_line(proc.stdout)
    return line


def play(chip: Chip) -> None:
    """`unox play --plain`: dealt by hand, a card flipped, Bob presses the launcher's button, then quit."""
    before = chip.cards_out()
    proc = chip.start("play", "--plain", "--no-journal", "--players", "Ann,Bob", "--seed", "1", "--launcher",
                      chip.launcher, stdin=True)
    until(proc, "next: ")
    typed(proc, "deal Ann", "flip G7")
    typed(proc, "flip G7", "Bob: play a card on G7")
    chip.press()  # a real launcher's button is pressed on the launcher, not typed
    line = until(proc, "Bob presses: ")
    fired = 0 if "nothing fired" in line else int(line.split("Bob presses: ")[1].split()[0])
    typed(proc, "quit", "leave the table?")
    out, err = finish(proc, b"yes\n")
    assert proc.returncode == 0, out + err
    assert chip.cards_out() == before + fired, line


def serve(chip: Chip) -> None:
    """`unox serve` on 127.0.0.1 with the launcher attached: GET /api/state says it is connected; stopped."""
    served = Served(["--host", "127.0.0.1", "--port", "0", "--pin", PIN, "--operator-pin", OPERATOR_PIN,
                     "--players", "Ann,Bob", "--no-journal", "--launcher", chip.launcher], chip.home)
    try:
        client = seat(served, "Ann")
        deadline = time.monotonic() + BOUND_S
        welcome = client.state()
        while welcome["launcher"] is None and time.monotonic() < deadline:  # the first status is on its way
            time.sleep(0.2)
            welcome = client.state()
        assert welcome["ok"] and welcome["launcher"]["connected"], welcome
        assert welcome["launcher"]["firmware"] == "0.1.0" and welcome["launcher"]["faults"] == []
    finally:
        out = served.stop()
    assert served.proc.returncode in (0, 130), out


def test_diagnose_press_calibrate_play_and_serve_work_on_the_emulated_pico_one_after_another(chip):
    boots = chip.count()["boots"]
    for command in (diagnose, press, calibrate, play, serve):
        command(chip)
    assert chip.count()["boots"] == boots  # no command restarted the chip
