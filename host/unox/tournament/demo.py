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


def run_demo(brokers: list[str] | None, bots: str, seed: int, say: Say,
             report: Callable[[dict], None]) -> None:
    """Play the demo tournament through `brokers` (the URLs of `--broker`, see `addresses`), else a private
    mosquitto; the final standings go to `report` before a private broker stops."""
    from unox.tournament.broker import BrokerError, PrivateBroker

    say = one_at_a_time(say)
    with tempfile.TemporaryDirectory(prefix="unox-tournament-") as folder:
        work = Path(folder)
        if brokers:
            report(_play(work, addresses(brokers), bots, seed, say))
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


def addresses(urls: list[str]) -> dict[str, str]:
    """Each client's address: one `--broker` per client on a broker with `unox install broker`'s ACL (where
    each user publishes only its own topics, so the coordinator and each table need their own user), or one
    address for all on a broker without it. Anything else is a TournamentError saying what to give."""
    from unox.tournament.address import parse

    parsed = [parse(url, option="--broker") for url in urls]
    places = {(a.host, a.port, a.name) for a in parsed}
    if len(places) > 1:
        raise TournamentError("the --broker addresses name different brokers or tournaments; give the same "
                              "HOST:PORT/NAME in each, with the coordinator's and each table's user")
    users = [a.username for a in parsed]
    needed = clients()
    if len(urls) == 1 and users[0] not in needed:
        return {name: urls[0] for name in needed}  # a broker without the club's ACL: one user for all
    missing = [name for name in needed if name not in users]
    extra = sorted({str(u) for u in users if u not in needed or users.count(u) > 1})
    if missing or extra:
        why = f"missing: {', '.join(missing)}" if missing else f"not one each: {', '.join(extra)}"
        raise TournamentError(
            f"the demo needs one --broker per client on a broker set up by unox install broker (its ACL lets "
            f"each user publish only its own topics): give the addresses it printed for {', '.join(needed)} "
            f"({why})")
    return {a.username: url for a, url in zip(parsed, urls, strict=True)}


def _play(work: Path, urls: dict[str, str], bots: str, seed: int, say: Say) -> dict:
    from unox.tournament.coordinator import Coordinator
    from unox.tournament.journal import ResultsJournal
    from unox.tournament.link import LinkError
    from unox.tournament.schedule import Plan

    plan = Plan(tuple(DEMO_PLAYERS.split(",")))
    journal = ResultsJournal(work / "coordinator.db", durable="process")
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
    import os

    from unox.tournament.address import PASSWORD_VARIABLE

    address = parse(url)
    env = dict(os.environ)
    if address.username is not None and address.password is not None:
        # the password in the table's environment, not its command line (`ps` shows that to everyone)
        env[PASSWORD_VARIABLE] = address.password
        url = f"mqtt://{address.username}@{address.host}:{address.port}/{address.name}"
    command = [sys.executable, "-m", "unox", "table", "--tournament", url, "--table", str(number),
               "--bots", bots, "--seed", str(seed), "--journal", str(journal)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               stdin=subprocess.DEVNULL, env=env)
    threading.Thread(target=_relay, args=(process, f"table {number} | ", say), daemon=True).start()
    return process


def _relay(process: subprocess.Popen[str], prefix: str, say: Say) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        say(prefix + line.rstrip("\n"))
