"""Issue 7 item 10 with real processes: `unox simulate-device --pty` is killed mid-session (the USB cable
pulled). The driver must call the link down within 1 s, refuse fires at once, and `unox press` must end
with a clear error instead of waiting on; Ctrl-C ends `unox press` at once.

Real time here (a pty between two processes), so every wait is bounded: the bounds only matter on failure,
except the 1 s the issue promises, which is measured.
"""

from __future__ import annotations

import select
import signal
import subprocess
import sys
import time

import pytest
from unox.launcher import LauncherError
from unox.launcher.serial import SerialLauncher

BOUND_S = 30.0  # only reached when something is broken


def start_simulator(*extra: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "unox", "simulate-device", "--pty", "--seed", "1", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready, _, _ = select.select([proc.stdout], [], [], BOUND_S)
    assert ready, "simulate-device printed no pty path"
    return proc, proc.stdout.readline().strip()


def read_line(stream, bound: float = BOUND_S) -> str:
    ready, _, _ = select.select([stream], [], [], bound)
    return stream.readline() if ready else ""


@pytest.fixture
def simulator():
    procs: list[subprocess.Popen] = []

    def start(*extra: str) -> tuple[subprocess.Popen, str]:
        proc, path = start_simulator(*extra)
        procs.append(proc)
        return proc, path

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_a_killed_device_shows_as_link_down_within_one_second_and_fires_are_refused(simulator):
    proc, path = simulator()
    launcher = SerialLauncher.open_port(path)
    try:
        assert launcher.status().connected
        proc.kill()  # the cable is pulled: the device's end of the pty is gone
        proc.wait(BOUND_S)
        killed = time.monotonic()
        while launcher.status().connected and time.monotonic() - killed < BOUND_S:
            pass
        assert time.monotonic() - killed < 1.0  # the heartbeat timeout, or sooner
        started = time.monotonic()
        result = launcher.fire(2, fire_id=7)
        assert (result.fired, result.fault, result.details["detail"]) == (0, "link", "down")
        assert time.monotonic() - started < 1.0  # refused at once, nothing sent
        with pytest.raises(LauncherError, match="lost the launcher|stopped answering"):
            launcher.wait_press()  # a front end waiting for presses hears of it instead of hanging
    finally:
        launcher.close()


def test_unox_press_ends_with_a_clear_error_when_its_device_dies(simulator):
    sim, path = simulator()
    press = subprocess.Popen([sys.executable, "-m", "unox", "press", "--launcher", f"serial:{path}"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "press the launcher button" in read_line(press.stderr)  # it is waiting for presses
        sim.kill()
        killed = time.monotonic()
        _, err = press.communicate(timeout=BOUND_S)
        ended = time.monotonic() - killed
    finally:
        if press.poll() is None:
            press.kill()
            press.communicate()
    assert press.returncode == 1
    assert err.startswith("unox: error: ") and path in err and "USB cable" in err
    assert ended < 5.0  # the issue saw over 90 s of silence


def test_ctrl_c_ends_unox_press_at_once(simulator):
    _, path = simulator()
    press = subprocess.Popen([sys.executable, "-m", "unox", "press", "--launcher", f"serial:{path}"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "press the launcher button" in read_line(press.stderr)
        press.send_signal(signal.SIGINT)  # the first Ctrl-C
        sent = time.monotonic()
        press.communicate(timeout=BOUND_S)
        assert time.monotonic() - sent < 5.0
    finally:
        if press.poll() is None:
            press.kill()
            press.communicate()
    assert press.returncode == 130
