"""`unox tournament demo`: a whole C-V3 tournament, bots at two tables (two processes), through a broker.

Without `--broker` a private mosquitto is started on a free loopback port (with a password per client, as
a club's broker has) and stopped at the end; the coordinator runs here, and each table is its own
`unox table --tournament ... --bots` process, as at a club where each table has its own Pi.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from unox.cli.commands.tournament import DEMO_LIMIT_S, DEMO_PLAYERS, _address, _print_standings
from unox.cli.errors import CommandError

TABLES = 2


def run(args: argparse.Namespace) -> int:
    from unox.tournament.broker import BrokerError, PrivateBroker

    seed = args.seed  # 0 to SEED_MAX, checked by argparse (default 0)
    with tempfile.TemporaryDirectory(prefix="unox-tournament-") as folder:
        work = Path(folder)
        if args.broker is not None:
            url = args.broker
            _address(url)
            return _play(work, {name: url for name in _clients()}, args.bots, seed, args.json)
        try:
            broker = PrivateBroker.with_users(work / "broker", _clients()).start()
        except BrokerError as exc:
            raise CommandError(str(exc)) from exc
        try:
            print(f"started a private mosquitto on 127.0.0.1:{broker.port} (stopped at the end)", flush=True)
            urls = {name: broker.url(name, "demo") for name in _clients()}
            return _play(work, urls, args.bots, seed, args.json)
        finally:
            broker.stop()
            print("stopped the private mosquitto", flush=True)


def _clients() -> list[str]:
    return ["coordinator", *[f"table{n}" for n in range(1, TABLES + 1)]]


def _play(work: Path, urls: dict[str, str], bots: str, seed: int, as_json: bool) -> int:
    from unox.tournament.coordinator import Coordinator
    from unox.tournament.journal import ResultsJournal
    from unox.tournament.link import LinkError
    from unox.tournament.schedule import Plan

    plan = Plan(tuple(DEMO_PLAYERS.split(",")))
    journal = ResultsJournal(work / "coordinator.db")
    coordinator = Coordinator(_address(urls["coordinator"]), journal, plan, say=_say).start()
    tables: list[subprocess.Popen[str]] = []
    try:
        if not coordinator.link.wait_connected(10):
            raise CommandError("the broker did not answer within 10 s; is mosquitto running?")
        for n in range(1, TABLES + 1):
            tables.append(_start_table(n, urls[f"table{n}"], work / f"table{n}.db", bots, seed))
        deadline = time.monotonic() + DEMO_LIMIT_S
        while not coordinator.over.wait(0.2):
            if time.monotonic() > deadline or any(t.poll() not in (None, 0) for t in tables):
                raise CommandError("the demo tournament did not finish; see the tables' lines above")
        for table in tables:
            if table.wait(timeout=60) != 0:
                raise CommandError(f"a table exited with status {table.returncode}")
        standings = coordinator.standings()
    except LinkError as exc:
        raise CommandError(str(exc)) from exc
    finally:
        for table in tables:
            if table.poll() is None:
                table.terminate()
                table.wait(timeout=10)
        coordinator.stop()
        journal.close()
    _print_standings(standings, as_json=as_json)
    if not as_json:
        print(f"{standings['hands_per_player']} hands per player: {standings['results']} hands in all at "
              f"{TABLES} tables, each result counted once", flush=True)
    return 0


def _start_table(number: int, url: str, journal: Path, bots: str, seed: int) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "unox", "table", "--tournament", url, "--table", str(number),
               "--bots", bots, "--seed", str(seed), "--journal", str(journal)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               stdin=subprocess.DEVNULL)
    threading.Thread(target=_relay, args=(process, f"table {number} | "), daemon=True).start()
    return process


def _relay(process: subprocess.Popen[str], prefix: str) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        _say(prefix + line.rstrip("\n"))


def _say(text: str) -> None:
    print(text, flush=True)
