"""No fire unrecorded, none fired twice (issue 7, item 1): a real `unox table --launcher sim` is SIGKILLed at
seeded random points, again and again, and resumed each time. In every cycle, the cards that really left the
simulated launcher (the simulator's own count, written by a witness before the kill can land) equal the cards
the journal says were fired.

Kill points: in the middle of a fire, between the intent and the fire, between the fire and its commit (in
the process, by `crashing_table.py`), right after a request was written (from outside, so it lands anywhere
in its handling), and between requests. The simulated launcher lives in the table's process and dies with
it, so the resumed table cannot ask it: it asks the operator, and the test answers as a person at the table
would, with the cards the witness saw come out after that fire began. `UNOX_CRASH_CYCLES` runs more cycles.

A classic table (`--rules classic`) goes through the same cycles: its launcher deals the hands (DL4) and
fires every draw, each one an intent before the motor turns, settled as that draw after a kill.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
from pathlib import Path

from unox.table.journal import Journal

HERE = Path(__file__).resolve().parent
CYCLES = int(os.environ.get("UNOX_CRASH_CYCLES", "24"))
SEED = int(os.environ.get("UNOX_CRASH_SEED", "7"))
REQUESTS_PER_LIFE = 30
KILLS = ("card", "intent", "resolve", "after_write", "between")
CLASSIC_CYCLES = max(len(KILLS) * 3, CYCLES // 2)
FIRING = ("press", "draw")  # the requests that make the launcher fire


class Life:
    """One process of the table, from its start (or resume) to its SIGKILL."""

    def __init__(self, witness: Path, kill: str, args: list[str]):
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "crashing_table.py"), str(witness), kill, "--", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.buffer = b""

    def send(self, request: dict) -> None:
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass

    def reply(self) -> dict | None:
        """The next reply, or None once the process is dead (an I/O wait, never a sleep)."""
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.proc.stdout], [], [], 60.0)
            assert ready, "the table neither answered nor died within 60 s"
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def ask(self, request: dict) -> dict | None:
        self.send(request)
        return self.reply()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.end()

    def end(self) -> None:
        self.proc.wait(timeout=60)
        stderr = self.proc.stderr.read().decode()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except BrokenPipeError:
                pass
        assert self.proc.returncode == -signal.SIGKILL, f"the table did not die by SIGKILL: {stderr[-2000:]}"
        assert "Traceback" not in stderr, stderr[-2000:]


def next_request(state: dict, rng: random.Random) -> dict:
    """A plausible next request: presses that fire for real, green number cards, reloads; no hand ends."""
    phase = state["phase"]
    if phase == "deal":
        return {"cmd": "deal", "dealer": "Ann"}
    if phase == "flip":
        return {"cmd": "flip", "card": "G7"}
    assert phase == "turn", state
    player = state["turn"]
    if state["owed"]:
        return {"cmd": "press"}
    if state["launcher"]["cards"] < 15 and state["discard"] > 1:
        return {"cmd": "reload"}
    if state["hands"][player] > 4 and rng.random() < 0.5:
        return {"cmd": "play", "player": player, "card": f"G{rng.randint(0, 9)}"}
    return {"cmd": "press"}


def next_classic_request(state: dict, rng: random.Random) -> dict:
    """Classic: the launcher deals the hands (DL4), then draws (the turn's, owed Draw Twos), passes, green
    number cards, reloads; no hand ends."""
    phase = state["phase"]
    if phase == "deal":
        return {"cmd": "deal", "dealer": "Ann", "launcher": True}
    if phase == "flip":
        return {"cmd": "draw", "player": state["turn"]} if state["owed"] else {"cmd": "flip", "card": "G7"}
    assert phase == "turn", state
    player = state["turn"]
    if state["owed"]:
        return {"cmd": "draw", "player": player}
    if state["drawn"] == player:
        return {"cmd": "pass", "player": player}
    if state["launcher"]["cards"] < 15 and state["discard"] > 1:
        return {"cmd": "reload"}
    if state["hands"][player] > 4 and rng.random() < 0.6:
        card = "G+2" if rng.random() < 0.3 else f"G{rng.randint(0, 9)}"
        return {"cmd": "play", "player": player, "card": card}
    return {"cmd": "draw", "player": player}


def cards_in_journal(path: Path) -> int:
    """What the journal says was fired: every settled fire, and (the same cards) every press or draw row."""
    with Journal(path) as journal:
        fires = journal.fires()
        rows = sum(row["fired"] for row in journal.entries() if row["cmd"] in FIRING)
    settled = sum(fire["fired"] for fire in fires if fire["fired"] is not None)
    assert settled == rows, "a fire and its press or draw row disagree"
    return settled


def witness(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def cards_out(lines: list[str]) -> int:
    return lines.count("card")


def cards_of_fire(lines: list[str], fire_id: int) -> int:
    """The cards that left the launcher after it was told to fire `fire_id`: what a person saw come out."""
    marker = f"fire {fire_id}"
    if marker not in lines:
        return 0  # the table died before it told the launcher to fire
    start = len(lines) - lines[::-1].index(marker)
    count = 0
    for line in lines[start:]:
        if line != "card":
            break
        count += 1
    return count


def live_once(life: Life, rng: random.Random, kill: str, path: Path, requests=next_request) -> str:
    """Resume (settling the fire the last life died in, as the operator), then play until the kill."""
    reply = life.ask({"cmd": "state"})
    assert reply is not None, "the resumed table died before its first reply"
    unsettled = reply["state"].get("unsettled")
    if unsettled is not None:
        reply = life.ask({"cmd": "settle", "fired": cards_of_fire(witness(path), unsettled["fire_id"])})
        if reply is None:  # killed while committing the settle itself: the next life asks again
            life.end()
            return "killed settling"
        assert "unsettled" not in reply["state"], reply
        outcome = "settled"
    else:
        outcome = "clean"
    state = reply["state"]
    stop_at = rng.randint(1, REQUESTS_PER_LIFE)
    for count in range(REQUESTS_PER_LIFE):
        request = requests(state, rng)
        if kill == "after_write" and count == stop_at and request["cmd"] in FIRING:
            life.send(request)
            life.kill()  # lands anywhere: before the read, mid-fire, before or after the commit
            return outcome
        if kill == "between" and count == stop_at:
            break
        reply = life.ask(request)
        if reply is None:  # killed in-process at its armed point
            life.end()
            return outcome
        state = reply["state"]
    life.kill()
    return outcome


def pending_cards(journal: Path, lines: list[str]) -> int:
    """The cards of the fire the journal has an intent for but no outcome (none: 0)."""
    with Journal(journal) as book:
        pending = book.pending_fire()
    return 0 if pending is None else cards_of_fire(lines, pending["fire_id"])


def test_cards_out_of_the_simulated_launcher_equal_the_journals_fires_in_every_cycle(tmp_path):
    outcomes = crash_cycles(tmp_path, CYCLES, [], next_request)
    assert outcomes.count("settled") >= 3, outcomes  # the window between fire and commit was hit and settled


def test_classic_draws_the_table_died_in_are_settled_as_draws_and_cards_out_equal_the_journal(tmp_path):
    """DL1/DL4 under SIGKILL: every card the launcher dealt or drew is a draw row, none fired twice."""
    outcomes = crash_cycles(tmp_path, CLASSIC_CYCLES, ["--rules", "classic"], next_classic_request)
    assert outcomes.count("settled") >= 2, outcomes
    with Journal(tmp_path / "crash.db") as journal:
        assert journal.settings["rules"] == "classic"
        commands = {row["cmd"] for row in journal.entries()}
        settled_by = {fire["settled_by"] for fire in journal.fires()}
    assert {"draw", "pass"} <= commands and "press" not in commands
    assert "operator" in settled_by  # a draw the table died in, settled as that draw


def crash_cycles(tmp_path: Path, cycles: int, extra: list[str], requests) -> list[str]:
    """Kill and resume a table `cycles` times, checking cards out == the journal's fires after each."""
    rng = random.Random(SEED)
    journal, path = tmp_path / "crash.db", tmp_path / "hopper.witness"
    args = [
        "table",
        "--players",
        "Ann,Bob,Cy",
        "--launcher",
        "sim",
        "--seed",
        str(SEED),
        *extra,
        "--journal",
        str(journal),
    ]
    outcomes = []
    for cycle in range(cycles):
        kind = KILLS[cycle % len(KILLS)] if cycle < len(KILLS) else rng.choice(KILLS)
        number = rng.randint(1, 12) if kind == "card" else rng.randint(1, 4)
        kill = f"{kind}:{number}" if kind in ("card", "intent", "resolve") else "none"
        outcomes.append(live_once(Life(path, kill, args), rng, kind, path, requests))
        args = ["table", "--resume", str(journal)]
        # In every cycle: what left the launcher is what the journal says, but for the one fire it died in,
        # whose cards the next life settles.
        lines = witness(path)
        assert cards_out(lines) == cards_in_journal(journal) + pending_cards(journal, lines), (
            f"cycle {cycle}: {kill}"
        )
    outcomes.append(live_once(Life(path, "none", args), rng, "between", path, requests))
    total = cards_out(witness(path))
    assert total == cards_in_journal(journal)
    print(
        f"{cycles} SIGKILL cycles, {total} cards fired, "
        f"{outcomes.count('settled')} fires settled by the operator after a kill between intent and commit"
    )
    assert total > 100, "the cycles fired cards"
    return outcomes
