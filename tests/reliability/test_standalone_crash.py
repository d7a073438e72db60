"""A fire the launcher made alone is never lost to a host that dies before journalling it (issue 13, item 9).

The launcher is `unox simulate-device --pty` in its own process (it outlives the table, as a Pico on USB
does); the table is the real `unox table` on its pty, SIGKILLed by `crashing_table.py` just before it commits
the standalone fire (or just after, before the launcher hears TAKEN). The resumed table must get the fire
from the launcher and journal it exactly once. Real time behind a pty: every wait is bounded and waits on
an event (the device's clock, a reply, the journal), never a fixed sleep.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from unox.table.journal import Journal
from unoxsim.control import send

HERE = Path(__file__).resolve().parent
BOUND_S = 60.0  # only reached when something is broken


class Process:
    """A `unox table` (through crashing_table.py) on the simulator's pty, spoken to in JSON lines."""

    def __init__(self, argv: list[str]):
        pipe = subprocess.PIPE
        self.proc = subprocess.Popen(argv, stdin=pipe, stdout=pipe, stderr=pipe)
        self.buffer = b""

    def ask(self, request: dict) -> dict | None:
        """The reply, or None once the process died."""
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return None
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.proc.stdout], [], [], BOUND_S)
            assert ready, "the table neither answered nor died"
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def stop(self) -> tuple[int, str]:
        try:
            self.proc.stdin.close()  # end of input: a live table closes its journal and exits
        except BrokenPipeError:
            pass
        self.proc.wait(timeout=BOUND_S)
        err = self.proc.stderr.read().decode()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return self.proc.returncode, err


def count(control: str) -> dict:
    return json.loads(send(control, "count"))


def device_wait(control: str, ms: int) -> None:
    """Until the simulated device's clock has run `ms` on."""
    until, deadline = count(control)["now_ms"] + ms, time.monotonic() + BOUND_S
    while count(control)["now_ms"] < until:
        assert time.monotonic() < deadline
        select.select([], [], [], 0.05)


def standalone_rows(path: Path) -> list[dict]:
    with Journal(path) as journal:
        return [fire for fire in journal.fires() if fire["settled_by"] == "standalone"]


@pytest.fixture
def device(tmp_path):
    control = str(tmp_path / "sim.sock")
    argv = ["simulate-device", "--pty", "--seed", "4", "--cards", "112", "--control", control]
    pipe = subprocess.PIPE
    sim = subprocess.Popen([sys.executable, "-m", "unox", *argv], stdout=pipe, stderr=pipe, text=True)
    ready, _, _ = select.select([sim.stdout], [], [], BOUND_S)
    assert ready, "simulate-device printed no pty path"
    yield sim.stdout.readline().strip(), control
    sim.kill()
    sim.communicate()


@pytest.mark.parametrize("kill", ["standalone:1", "standalone_after:1"])
def test_a_standalone_fire_survives_a_host_killed_around_its_commit_and_is_journalled_once(device, tmp_path,
                                                                                          kill):
    path, control = device
    journal = tmp_path / "j.db"
    crashing = [sys.executable, str(HERE / "crashing_table.py"), str(tmp_path / "witness"), kill, "--"]
    first = Process([*crashing, "table", "--players", "Ann,Bob", "--journal", str(journal), "--launcher",
                     f"serial:{path}", "--seed", "1"])
    assert (first.ask({"cmd": "state"}) or {}).get("ok"), first.stop()
    # The table is idle, so the launcher hears no host past its link_ms (4 s): presses now fire alone.
    device_wait(control, 4500)
    presses = 0
    while count(control)["ejected"] + count(control)["in_slot"] == 0:  # until one fired cards (not 0)
        assert presses < 12, "the launcher fired nothing alone"
        assert send(control, "press") == "ok"
        presses += 1
        device_wait(control, 2500)  # the press, its fire and its run-down
    cards_out = count(control)["ejected"] + count(control)["in_slot"]
    deadline = time.monotonic() + BOUND_S
    while first.ask({"cmd": "state"}) is not None:  # each state takes what the launcher sent: it dies
        assert time.monotonic() < deadline, "the table never reached its standalone commit"
    code, err = first.stop()
    assert code == -9 and "Traceback" not in err
    assert count(control)["alone"] == presses  # nothing was acknowledged: the launcher keeps them all
    committed = 1 if kill.startswith("standalone_after") else 0
    assert len(standalone_rows(journal)) == committed

    second = Process([sys.executable, "-m", "unox", "table", "--resume", str(journal), "--launcher",
                      f"serial:{path}"])
    deadline = time.monotonic() + BOUND_S
    while count(control)["alone"]:  # the resumed table journals them, then the launcher hears TAKEN
        assert second.ask({"cmd": "state"})["ok"]
        assert time.monotonic() < deadline, "the resumed table never acknowledged the standalone fires"
    code, err = second.stop()
    assert code == 0 and "Traceback" not in err, err[-2000:]
    rows = standalone_rows(journal)
    assert len(rows) == presses  # each once: none lost with the first table, none taken twice
    assert sum(row["fired"] for row in rows) == cards_out
