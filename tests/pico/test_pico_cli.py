"""B. `unox simulate-device --pty --chip rp2040` as a user runs it: the firmware flashed onto the emulated
Pico through its USB serial, the pty's path on the first line, the control socket, a host on the pty."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess

from tests.pico.conftest import UNOX

BOUND_S = 600  # only reached when something is broken: the flash alone takes 15-60 s of wall time


def read_line(proc: subprocess.Popen, bound_s: float = BOUND_S) -> str:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], bound_s)
    assert ready, "no line from simulate-device"
    return proc.stdout.readline().decode().strip()


def test_simulate_device_chip_flashes_serves_a_pty_answers_control_and_a_host(pico_folder, tmp_path):
    sock = str(tmp_path / "pico.sock")
    proc = subprocess.Popen([*UNOX, "simulate-device", "--pty", "--chip", "rp2040", "--control", sock,
                             "--cards", "7"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "UNOX_PICO_DIR": str(pico_folder)})
    try:
        path = read_line(proc)
        assert path.startswith("/dev/pts/")
        count = json.loads(subprocess.run([*UNOX, "simulate-device", "--control", sock, "--send", "count"],
                                          capture_output=True, text=True, timeout=60).stdout)
        assert count["boots"] == 2 and count["hopper"] == 7  # flashed, then reset by mpremote
        # ready soon after that reset (main.py speaks about 1 emulated s after it): the reset is not waited
        # for a second time, which cost 5 emulated s (the boots were counted after the flash, when
        # mpremote's reset had already landed)
        assert count["now_ms"] - count["booted_ms"] < 4000, count  # 1.6 s here; was over 5 s
        version = subprocess.run([*UNOX, "firmware", "version", "--port", path], capture_output=True,
                                 text=True, timeout=BOUND_S)
        assert version.returncode == 0 and version.stdout.startswith("unoxfw 0.1.0 on serial:"), version
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert b"cp " in err and b"simulated launcher stopped" in err  # mpremote's output went to stderr
    assert proc.returncode == 0


def test_without_the_images_chip_says_what_to_get_in_one_line(tmp_path):
    result = subprocess.run([*UNOX, "simulate-device", "--pty", "--chip", "rp2040"], capture_output=True,
                            text=True, timeout=60, env={**os.environ, "UNOX_PICO_DIR": str(tmp_path)})
    assert result.returncode != 0 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "micropython-v1.28.0-RPI_PICO.uf2" in result.stderr
    assert "docs/pico.md" in result.stderr
