"""Helpers for the tournament tests: run `unox`, read journals, score the hands independently of unox, and
run a coordinator and bot tables in the test's own process."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from unox.rules.variants import multi_table_rounds
from unox.tournament.address import parse
from unox.tournament.bot_table import play_table
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.schedule import Plan
from unox.tournament.seat import TableSeat

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


def kill_left(*processes: subprocess.Popen | None) -> None:
    """A test's `finally`: what it started and did not see end is killed and reaped (None: never started)."""
    for process in processes:
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(WAIT)


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


@contextmanager
def coordinator_here(broker, tmp_path: Path, name: str, plan: Plan, *, keep_plan: bool = False
                     ) -> Iterator[Coordinator]:
    """The coordinator of tournament `name` in this process, journalled to `tmp_path/club.db`; with
    `keep_plan` the plan is kept in that journal first, as `tournament start` keeps it (for `status
    --journal`). Stopped, and its journal closed, after."""
    with ResultsJournal(tmp_path / "club.db") as journal:
        if keep_plan:
            journal.set("plan", plan.to_json())
        coordinator = Coordinator(parse(broker.url("coordinator", name)), journal, plan, say=lambda t: None)
        coordinator.start()
        try:
            yield coordinator
        finally:
            coordinator.stop()


@contextmanager
def bot_tables(broker, tmp_path: Path, name: str, tables: tuple[int, ...] = (1, 2), *, seed: int,
               bot: str = "heuristic", on_line: Callable[[TableSeat, str], None] | None = None
               ) -> Iterator[list[TableSeat]]:
    """Bot tables `tables` of tournament `name` in this process, each on its own thread with its results
    journal `tmp_path/tableN.db`, played to the end of their schedule (each thread waited for up to
    WAIT * 2); `on_line(seat, line)` sees each line a table says. A table's error fails the test here.
    Yields the seats once every table has finished; stops them and closes their journals after."""
    seats = [TableSeat(parse(broker.url(f"table{n}", name)), n, ResultsJournal(tmp_path / f"table{n}.db"))
             for n in tables]
    errors: list[BaseException] = []

    def run(seat: TableSeat) -> None:
        try:
            play_table(seat, bot=bot, seed=seed, wait=WAIT,
                       say=(lambda line: None) if on_line is None else (lambda line: on_line(seat, line)))
        except BaseException as exc:  # reported by the test's thread
            errors.append(exc)

    try:
        threads = [threading.Thread(target=run, args=(seat.start(),)) for seat in seats]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT * 2)
        assert not errors, errors
        yield seats
    finally:
        for seat in seats:
            seat.stop()
            seat.journal.close()


def night_in_process(broker, tmp_path: Path, name: str, plan: Plan, tables: tuple[int, ...] = (1, 2), *,
                     seed: int, bot: str = "heuristic",
                     on_line: Callable[[TableSeat, str], None] | None = None,
                     keep_plan: bool = False) -> tuple[dict, dict[str, int]]:
    """A whole tournament here: the coordinator and the bot tables, until the coordinator says it is over;
    the standings and how often each hand id arrived at the coordinator."""
    with coordinator_here(broker, tmp_path, name, plan, keep_plan=keep_plan) as coordinator, \
            bot_tables(broker, tmp_path, name, tables, seed=seed, bot=bot, on_line=on_line):
        assert coordinator.over.wait(WAIT)
        return coordinator.standings(), coordinator.journal.copies()
