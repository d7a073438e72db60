"""Tournament results through one mosquitto: 20 simulated tables, 1,000 hands, the broker restarted twice.

    python3 bench/tournament.py [--tables 20] [--hands 1000] [--restarts 2] [--pace 0.5]

A private mosquitto (authentication on, loopback) carries the traffic of one coordinator and `--tables`
simulated tables, each with its own client, session and journal, as in `unox table --tournament`. A simulated
table draws each hand's result at random (the transport is measured, not the rules) and reports it the way
a real table does: journal, send, go on (the receipt comes back on the table's client), the next hand
`--pace` seconds later on average (a real hand takes minutes: 20 tables at 0.5 s are 40 results a second).
The broker is restarted (SIGTERM, then started again on the same port) `--restarts` times, evenly through
the run.

Measured:
- `lost`: hands a table reported that the coordinator never counted;
- `duplicated`: hands the coordinator counted more than once (its standings' hands against the hand ids);
- `result_p99_ms`: from a table's report to the coordinator's receipt arriving back, p99 over all hands;
- the baseline: the same round trip with raw paho clients (publish QoS 1, the peer answers at once; 300 of
  them), no journal, no restarts; `ratio` = result p99 / baseline p99.

Then the same run again beside `--hogs` busy processes (default 2: one CPU hog per core of a two-core
machine), reported as `result_p99_loaded_ms` (its baseline measured under the same load).

The last line is JSON: {"tables", "hands", "lost", "duplicated", "result_p99_ms", "baseline_p99_ms",
"ratio", "result_p99_calm_ms", "result_p99_loaded_ms", "baseline_p99_loaded_ms",
"result_p99_calm_loaded_ms", "commit_p99_ms", "commit_p99_loaded_ms"}; `commit_p99_*` is one SQLite
commit's p99 measured in the same run (a receipt waits for the coordinator's); `*_calm_*` leave out the
hands reported within a second of a restart; `lost` and `duplicated` count both runs. Before it, the bench
prints how long the broker was down each time and the 15 slowest hands.

The coordinator's journal is durable against a crash of its process (`ResultsJournal(durable="process")`:
WAL, synchronous=NORMAL, no disk flush per commit), as `unox tournament start` opens it; `--compare` runs the
loaded run a second time with every commit flushed (`durable="power"`, as before issue 24's last step), beside
the same hogs, and adds `result_p99_loaded_flushed_ms` and `commit_p99_loaded_flushed_ms`. Each run prints
the load average (1 minute) before and after it; the JSON has `load_avg` and `load_avg_loaded` (the highest
of the two).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "host"))

from unox.tournament.address import parse  # noqa: E402
from unox.tournament.broker import PrivateBroker  # noqa: E402
from unox.tournament.coordinator import Coordinator  # noqa: E402
from unox.tournament.journal import ResultsJournal  # noqa: E402
from unox.tournament.link import Link  # noqa: E402
from unox.tournament.schedule import Plan, seats  # noqa: E402
from unox.tournament.seat import TableSeat  # noqa: E402

WAIT = 60.0


class TimedSeat(TableSeat):
    """A table seat that notes when each receipt comes back."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sent: dict[str, float] = {}
        self.acked: dict[str, float] = {}

    def _on_ack(self, topic, payload):
        if isinstance(payload, dict) and payload.get("hand_id") in self.sent:
            self.acked.setdefault(payload["hand_id"], time.perf_counter())
        super()._on_ack(topic, payload)


def simulated_table(seat: TimedSeat, plan: Plan, hands: int, rng: random.Random, done: threading.Event,
                    pace: float) -> None:
    """Report `hands` results of this table's schedule, round by round, as a table does, one every `pace`
    seconds (a real hand takes minutes)."""
    reported = 0
    for round_no, matches in enumerate(plan.rounds, 1):
        if reported == hands:
            break
        seat.wait_round(round_no, WAIT)
        seated = seats(matches[seat.number - 1])
        for hand in range(1, plan.hands_per_round + 1):
            if reported == hands:
                break
            went_out = rng.choice(seated)
            points = {p: 0 if p == went_out else rng.randrange(0, 120) for p in seated}
            hid = f"r{round_no}-t{seat.number}-h{hand}"
            seat.sent[hid] = time.perf_counter()
            seat.report({"hand_id": hid, "round": round_no, "table": seat.number, "hand": hand,
                         "went_out": went_out, "points": points})
            reported += 1
            time.sleep(rng.uniform(0.5, 1.5) * pace)
    seat.flush(WAIT)
    done.set()


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98] if len(values) > 1 else values[0]


def baseline(broker: PrivateBroker, runs: int) -> float:
    """p99 of a raw paho QoS 1 publish -> answer round trip, in ms."""
    answered = threading.Event()
    echo: Link | None = None

    def on_ping(topic, payload):
        assert echo is not None
        echo.publish("bench/pong", payload)

    echo = Link(parse(broker.url("coordinator", "bench")), "bench-echo", {"bench/ping": on_ping}).start()
    asker = Link(parse(broker.url("table1", "bench")), "bench-ask",
                 {"bench/pong": lambda topic, payload: answered.set()}).start()
    assert echo.wait_connected(WAIT) and asker.wait_connected(WAIT)
    times = []
    for index in range(runs):
        answered.clear()
        start = time.perf_counter()
        asker.publish("bench/ping", {"n": index})
        if not answered.wait(WAIT):
            raise RuntimeError("the baseline's echo did not answer")
        times.append((time.perf_counter() - start) * 1000)
    echo.stop()
    asker.stop()
    return p99(times)


def commit_p99(folder: Path, durable: str, runs: int = 200) -> float:
    """p99 of one SQLite commit as the coordinator's journal makes it (`durable`: "process", no disk flush;
    "power", one flush), in ms: the floor under a receipt, which waits for the coordinator's commit."""
    with ResultsJournal(folder / f"commits-{durable}.db", durable=durable) as journal:
        times = []
        for index in range(runs):
            start = time.perf_counter()
            journal.set("n", index)
            times.append((time.perf_counter() - start) * 1000)
            time.sleep(0.005)  # spaced as results are: each commit its own flush
    return p99(times)


def load() -> float:
    return os.getloadavg()[0]


def run(tables: int, hands: int, restarts: int, pace: float, folder: Path, durable: str = "process") -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    load_before = load()
    users = ["coordinator", *[f"table{n}" for n in range(1, tables + 1)]]
    broker = PrivateBroker.with_users(folder / "broker", users, acl=("pattern readwrite bench/#",)).start()
    try:
        base = baseline(broker, min(hands, 300))
        commit = commit_p99(folder, durable)
        plan = Plan(tuple(f"P{n}" for n in range(1, 4 * tables + 1)))
        journal = ResultsJournal(folder / "coordinator.db", durable=durable)
        coordinator = Coordinator(parse(broker.url("coordinator", "bench")), journal, plan,
                                  say=lambda text: None).start()
        assert coordinator.link.wait_connected(WAIT)
        per_table = [hands // tables + (1 if n < hands % tables else 0) for n in range(tables)]
        seats_ = [TimedSeat(parse(broker.url(f"table{n}", "bench")), n, ResultsJournal(folder / f"t{n}.db"))
                  for n in range(1, tables + 1)]
        finished = [threading.Event() for _ in seats_]
        threads = [
            threading.Thread(target=simulated_table, daemon=True,
                             args=(seat.start(), plan, per_table[i], random.Random(i), finished[i], pace))
            for i, seat in enumerate(seats_)
        ]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        outages = []
        for k in range(1, restarts + 1):
            mark = hands * k // (restarts + 1)
            deadline = time.monotonic() + WAIT
            while coordinator.counted() < mark and time.monotonic() < deadline:
                coordinator.changed.wait(0.05)
                coordinator.changed.clear()
            down = time.perf_counter()
            broker.restart()
            outages.append((down, time.perf_counter()))
        for event in finished:
            if not event.wait(WAIT):
                raise RuntimeError("a simulated table did not finish")
        elapsed = time.perf_counter() - started
        reported = {hid for seat in seats_ for hid in seat.sent}
        counted = {r["hand_id"] for r in journal.results()}
        standings = coordinator.standings()
        counted_hands = sum(row["hands"] for row in standings["players"]) // 4
        latencies, calm = [], []
        for seat in seats_:
            for hid, sent in seat.sent.items():
                ms = (seat.acked[hid] - sent) * 1000
                latencies.append(ms)
                if not any(down - 1.0 <= sent <= up + 1.0 for down, up in outages):
                    calm.append(ms)
        for seat in seats_:
            seat.stop()
            seat.journal.close()
        coordinator.stop()
        journal.close()
    finally:
        broker.stop()
    result_p99 = p99(latencies)
    load_after = load()
    print(f"{tables} tables, {len(reported)} hands in {elapsed:.1f} s, broker restarted {restarts} times; "
          f"coordinator's journal durable against a {durable} loss; load average {load_before:.1f} before, "
          f"{load_after:.1f} after")
    print(f"result -> receipt: median {statistics.median(latencies):.2f} ms, p99 {result_p99:.2f} ms "
          f"(away from restarts: p99 {p99(calm):.2f} ms over {len(calm)} hands)")
    print(f"baseline raw paho QoS 1 round trip: p99 {base:.2f} ms; one commit of the coordinator's journal: "
          f"p99 {commit:.2f} ms")
    print("broker down (SIGTERM to listening again): "
          + ", ".join(f"{(up - down) * 1000:.0f} ms" for down, up in outages))
    slow = sorted(latencies)[-15:]
    print("the 15 slowest hands: " + ", ".join(f"{ms:.0f}" for ms in slow) + " ms")
    return {"tables": tables, "hands": len(reported), "lost": len(reported - counted),
            "duplicated": counted_hands - len(counted), "result_p99_ms": round(result_p99, 2),
            "baseline_p99_ms": round(base, 2), "ratio": round(result_p99 / base, 2),
            "result_p99_calm_ms": round(p99(calm), 2), "commit_p99_ms": round(commit, 2),
            "load_avg": round(max(load_before, load_after), 2)}


def hogs(count: int) -> list[subprocess.Popen]:
    """`count` busy processes (a CPU hog each), as other programs on a loaded Pi."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--restarts", type=int, default=2)
    parser.add_argument("--pace", type=float, default=0.5, help="mean seconds between a table's hands")
    parser.add_argument("--hogs", type=int, default=2, help="busy processes beside the loaded run (0: none)")
    parser.add_argument("--compare", action="store_true",
                        help="the loaded run again with a disk flush per coordinator commit (the old way)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="unox-bench-") as folder:
        summary = run(args.tables, args.hands, args.restarts, args.pace, Path(folder) / "calm")
        if args.hogs:
            print(f"again beside {args.hogs} busy processes (CPU hogs):")
            busy = hogs(args.hogs)
            try:
                loaded = run(args.tables, args.hands, args.restarts, args.pace, Path(folder) / "loaded")
                if args.compare:
                    print(f"and beside the same {args.hogs} hogs, every coordinator commit flushed to disk:")
                    flushed = run(args.tables, args.hands, args.restarts, args.pace, Path(folder) / "flushed",
                                  durable="power")
            finally:
                for hog in busy:
                    hog.kill()
                    hog.wait()
            summary.update(lost=summary["lost"] + loaded["lost"],
                           duplicated=summary["duplicated"] + loaded["duplicated"],
                           result_p99_loaded_ms=loaded["result_p99_ms"],
                           baseline_p99_loaded_ms=loaded["baseline_p99_ms"],
                           result_p99_calm_loaded_ms=loaded["result_p99_calm_ms"],
                           commit_p99_loaded_ms=loaded["commit_p99_ms"], load_avg_loaded=loaded["load_avg"])
            if args.compare:
                summary.update(lost=summary["lost"] + flushed["lost"],
                               duplicated=summary["duplicated"] + flushed["duplicated"],
                               result_p99_loaded_flushed_ms=flushed["result_p99_ms"],
                               commit_p99_loaded_flushed_ms=flushed["commit_p99_ms"],
                               load_avg_loaded_flushed=flushed["load_avg"])
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
