"""`unox tournament demo`: a whole C-V3 tournament, bots at two tables (two processes), through a broker.

Without a broker a private mosquitto is started on a free loopback port (with a password per client, as
a club's broker has) and stopped at the end; the coordinator runs here, and each table is its own
`unox table --tournament ... --bots` process, as at a club where each table has its own Pi.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from unox.tournament.address import parse
from unox.tournament.join import TournamentError

TABLES = 2
DEMO_PLAYERS = "Ann,Bob,Cy,Dee,Eve,Fay,Gus,Hal"
DEMO_LIMIT_S = 300.0  # the demo's bots play 56 hands in seconds; this bounds a broken setup

Say = Callable[[str], None]


def run_demo(broker: str | None, bots: str, seed: int, say: Say, report: Callable[[dict], None]) -> None:
    """Play the demo tournament through `broker` (a URL), else a private mosquitto; the final standings go
    to `report` before a private broker stops."""
    from unox.tournament.broker import BrokerError, PrivateBroker

    say = one_at_a_time(say)
    with tempfile.TemporaryDirectory(prefix="unox-tournament-") as folder:
        work = Path(folder)
        if broker is not None:
            report(_play(work, {name: broker for name in clients()}, bots, seed, say))
            return
        try:
            private = PrivateBroker.with_users(work / "broker", clients()).start()
        except BrokerError as exc:
            raise TournamentError(str(exc)) from exc
        try:
            say(f"started a private mosquitto on 127.0.0.1:{private.port} (stopped at the end)")
            urls = {name: private.url(name, "demo") for name in clients()}
            report(_play(work, urls, bots, seed, say))
        finally:
            private.stop()
            say("stopped the private mosquitto")


def one_at_a_time(say: Say) -> Say:
    """`say` for several threads (the coordinator, each table's relay): one line at a time. print writes a
    line and its newline apart, so two tables' lines once came out merged."""
    lock = threading.Lock()

    def said(line: str) -> None:
        with lock:
            say(line)

    return said


def clients() -> list[str]:
    return ["coordinator", *[f"table{n}" for n in range(1, TABLES + 1)]]


def _play(work: Path, urls: dict[str, str], bots: str, seed: int, say: Say) -> dict:
    from unox.tournament.coordinator import Coordinator
    from unox.tournament.journal import ResultsJournal
    from unox.tournament.link import LinkError
    from unox.tournament.schedule import Plan

    plan = Plan(tuple(DEMO_PLAYERS.split(",")))
    journal = ResultsJournal(work / "coordinator.db")
    coordinator = Coordinator(parse(urls["coordinator"]), journal, plan, say=say).start()
    tables: list[subprocess.Popen[str]] = []
    try:
        if not coordinator.link.wait_connected(10):
            raise TournamentError("the broker did not answer within 10 s; is mosquitto running?")
        for n in range(1, TABLES + 1):
            tables.append(_start_table(n, urls[f"table{n}"], work / f"table{n}.db", bots, seed, say))
        deadline = time.monotonic() + DEMO_LIMIT_S
        while not coordinator.over.wait(0.2):
            if time.monotonic() > deadline or any(t.poll() not in (None, 0) for t in tables):
                raise TournamentError("the demo tournament did not finish; see the tables' lines above")
        for table in tables:
            if table.wait(timeout=60) != 0:
                raise TournamentError(f"a table exited with status {table.returncode}")
        return coordinator.standings()
    except LinkError as exc:
        raise TournamentError(str(exc)) from exc
    finally:
        for table in tables:
            if table.poll() is None:
                table.terminate()
                table.wait(timeout=10)
        coordinator.stop()
        journal.close()


def _start_table(number: int, url: str, journal: Path, bots: str, seed: int, say: Say
                 ) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "unox", "table", "--tournament", url, "--table", str(number),
               "--bots", bots, "--seed", str(seed), "--journal", str(journal)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               stdin=subprocess.DEVNULL)
    threading.Thread(target=_relay, args=(process, f"table {number} | ", say), daemon=True).start()
    return process


def _relay(process: subprocess.Popen[str], prefix: str, say: Say) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        say(prefix + line.rstrip("\n"))
