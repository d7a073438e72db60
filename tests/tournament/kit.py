"""Helpers for the tournament tests: run `unox`, read journals, score the hands independently of unox."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from unox.rules.variants import multi_table_rounds

UNOX = [sys.executable, "-m", "unox"]
C_V3_PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
C_V2_PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
# seconds: every wait on a process or a broker is bounded by this, against a hang only (each waits on an
# event or a line, so a passing test never sits it out): 60 s was once too short for `unox serve` to open
# its second round at a load of 28 on two cores
WAIT = 300.0


def journal_rows(path: Path) -> list[dict]:
    """(result, acked, copies) rows of a tournament journal, read with plain SQLite."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT result, acked, copies FROM results ORDER BY round, table_no, hand"
        ).fetchall()
    finally:
        db.close()
    return [{**json.loads(text), "_acked": acked, "_copies": copies} for text, acked, copies in rows]


def pairs_of(players: list[str], round_no: int, table: int) -> list[tuple[str, ...]]:
    """The pairs the rules give (C-V3: the circle method; C-V2: D7's A+C, A+B, A+D)."""
    if len(players) == 8:  # a second cycle ("varias rondas") plays the rotation again
        return [tuple(p) for p in multi_table_rounds(players)[(round_no - 1) % 7][table - 1]]
    a, b, c, d = players
    return [[(a, c), (b, d)], [(a, b), (c, d)], [(a, d), (b, c)]][(round_no - 1) % 3]


def scored_by_hand(players: list[str], results: list[dict]) -> dict[str, int]:
    """C-V1/C-V2 by hand: the pair of whoever went out scores the other pair's points, both partners."""
    totals = {p: 0 for p in players}
    for result in results:
        pairs = pairs_of(players, result["round"], result["table"])
        own = next(pair for pair in pairs if result["went_out"] in pair)
        won = sum(points for player, points in result["points"].items() if player not in own)
        for player in own:
            totals[player] += won
    return totals


def wait_for(check, what: str, timeout: float = WAIT):
    """Poll `check` until it returns something true, bounded by `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def read_until(process: subprocess.Popen, needle: str, timeout: float = WAIT) -> list[str]:
    """Lines of `process`'s stdout up to the first holding `needle` (the process must print it).

    Read from the pipe itself, not through Python's text buffer: a buffered line is invisible to `select`,
    so two lines arriving in one read would leave the second waiting for the timeout. What was read past
    the needle is kept for the next call."""
    import os
    import selectors

    lines: list[str] = []
    pending: str = getattr(process, "_unread", "")
    deadline = time.monotonic() + timeout
    fd = process.stdout.fileno()
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while True:
            while "\n" in pending:
                line, pending = pending.split("\n", 1)
                lines.append(line + "\n")
                if needle in line:
                    process._unread = pending  # type: ignore[attr-defined]
                    return lines
            if time.monotonic() >= deadline or not selector.select(max(deadline - time.monotonic(), 0)):
                break
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            pending += chunk.decode(errors="replace")
    raise AssertionError(f"no {needle!r} in the output: {(''.join(lines) + pending)[-2000:]}")


def table_process(url: str, number: int, journal: Path, seed: int = 3) -> subprocess.Popen:
    return subprocess.Popen(
        [
            *UNOX,
            "table",
            "--tournament",
            url,
            "--table",
            str(number),
            "--bots",
            "heuristic",
            "--seed",
            str(seed),
            "--journal",
            str(journal),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        stdin=subprocess.DEVNULL,
    )
