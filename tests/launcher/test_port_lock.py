"""Issue 13 item 1: one program at a time on a launcher's serial port.

`unox play --launcher serial:PTY` holds the port; every other unox command that would open it (diagnose,
firmware version and flash, press, calibrate) is refused in one line naming play's PID and command, never
blaming the cable, and fires nothing. Real processes on the pty `unox simulate-device` serves; every wait
is bounded and only reached on failure.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

import pytest
from unox.launcher import LauncherError
from unox.launcher.port_lock import holder
from unox.launcher.serial import SerialLauncher
from unox.lock_holder import command_line
from unoxsim.control import send

BOUND_S = 60.0


def unox(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "unox", *args], input="", capture_output=True, text=True,
                          timeout=BOUND_S)


@pytest.fixture
def simulator(tmp_path):
    control = str(tmp_path / "sim.sock")
    proc = subprocess.Popen(
        [sys.executable, "-m", "unox", "simulate-device", "--pty", "--seed", "1", "--control", control],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        ready, _, _ = select.select([proc.stdout], [], [], BOUND_S)
        assert ready, "simulate-device printed no pty path"
        yield proc.stdout.readline().strip(), control
    finally:
        proc.kill()
        proc.communicate()


def ejected(control: str) -> int:
    return json.loads(send(control, "count"))["ejected"]


def test_while_play_holds_the_port_every_other_opener_is_refused_naming_it(simulator, tmp_path):
    path, control = simulator
    play = subprocess.Popen(
        [sys.executable, "-m", "unox", "play", "--plain", "--no-journal", "--players", "Ann,Bob",
         "--launcher", f"serial:{path}"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        ready, _, _ = select.select([play.stdout], [], [], BOUND_S)
        assert ready and play.stdout.readline(), play.stderr.read() if play.poll() is not None else ""
        before = ejected(control)
        config = str(tmp_path / "config.toml")
        for args in (
            ["diagnose", "--launcher", f"serial:{path}"],
            ["firmware", "version", "--port", path],
            ["firmware", "flash", "--port", path],
            ["press", "--launcher", f"serial:{path}"],
            ["calibrate", "--launcher", f"serial:{path}", "--config", config],
        ):
            second = unox(*args)
            assert second.returncode == 1, (args, second.stdout, second.stderr)
            assert second.stderr.count("\n") == 1, second.stderr
            assert f"in use by PID {play.pid} (unox play --plain" in second.stderr, second.stderr
            assert "cable" not in second.stderr
        assert ejected(control) == before  # nobody but the table fired the launcher
        assert not os.path.exists(config)
        assert play.poll() is None  # the table goes on
    finally:
        play.stdin.close()
        play.wait(BOUND_S)
        play.stdout.close()
        play.stderr.close()
    freed = unox("firmware", "version", "--port", path)  # the lock went with the table
    assert freed.returncode == 0 and "unoxfw" in freed.stdout, freed.stderr


def test_the_driver_holds_the_port_for_its_whole_life(simulator):
    path, _ = simulator
    first = SerialLauncher.open_port(path)
    try:
        assert holder(path) == (os.getpid(), command_line(os.getpid()))
        with pytest.raises(LauncherError, match=f"in use by PID {os.getpid()}") as refused:
            SerialLauncher.open_port(path)
        assert "cable" not in str(refused.value)
    finally:
        first.close()
    assert holder(path) is None
    SerialLauncher.open_port(path).close()  # free again
