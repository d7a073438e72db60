"""Host reaction time over a real pty: BUTTON frame in -> FIRE frame out, against an echo doing the same I/O.

    python3 bench/latency.py [--rounds 2000] [--blocks 10] [--runs 5]

The parent process plays the launcher on the pty's master side; a child process runs the host on the
slave side. Case 1: the real `SerialLauncher` (`wait_press()` then `fire(1)`), timed from the BUTTON frame
written to the FIRE frame read back. Case 2, the baseline: an echo that opens the port with pyserial as the
driver does and then uses the driver's own I/O (one `select` on the port's descriptor, `os.read` of what
arrived, `os.write` of it back, as `PortLink` does on a local port), timed the same way with a line of the
same length. Both include two pty crossings and one read and one write on the host's side, so the ratio is
what the driver adds on top of its I/O. The two cases run in alternating blocks (a fresh pty and child each)
so both see the same background load on a shared machine; a run is `--rounds` timed rounds per case, and
the figures are the medians over `--runs` runs: `ratio` (p99 over the echo's p99) and `p50_ratio`, each the
median of the runs' ratios. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import pty
import select
import statistics
import sys
import time
import tty
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / d) for d in ("host", "firmware")]

from unoxfw.link import PROTOCOL, Endpoint, encode  # noqa: E402

WARMUP = 50


# ---- host side (child process) ----------------------------------------------------------------------
def host_driver(path: str, rounds: int) -> None:
    import serial
    from unox.launcher.serial import SerialLauncher

    launcher = SerialLauncher(serial.Serial(path, 115200), name=path)
    for _ in range(rounds + WARMUP):
        launcher.wait_press(timeout=10.0)
        launcher.fire(1)
    launcher.close()


def host_echo(path: str, rounds: int) -> None:
    """The baseline: the driver's own I/O (select, os.read, os.write) on a port pyserial opened."""
    import serial

    port = serial.Serial(path, 115200, timeout=0.01)
    fd = port.fileno()
    os.write(fd, b"READY\n")  # opening a port flushes its input: start only once it is open
    echoed = 0
    while echoed < rounds + WARMUP:
        if not select.select([fd], [], [], 1.0)[0]:
            continue
        data = os.read(fd, 4096)
        if data:
            os.write(fd, data)
            echoed += data.count(b"\n")
    port.close()


# ---- launcher side (this process, on the pty master) ------------------------------------------------
class Master:
    def __init__(self, fd: int):
        self.fd, self.buf = fd, b""

    def read_until(self, marker: bytes, timeout: float = 5.0) -> tuple[int, bytes]:
        """Reads until a whole line containing `marker` is in; returns (arrival ns, the bytes)."""
        deadline = time.monotonic() + timeout
        while True:
            start = self.buf.find(marker)
            if start >= 0 and self.buf.find(b"\n", start) >= 0:
                arrived = time.perf_counter_ns()
                data, self.buf = self.buf, b""
                return arrived, data
            if not select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                raise TimeoutError(f"no {marker!r} from the host")
            self.buf += os.read(self.fd, 4096)


def launcher_side(fd: int, rounds: int) -> list[float]:
    master = Master(fd)
    device = Endpoint(lambda frame: os.write(fd, frame), epoch=0x1234)
    _, data = master.read_until(b" HELLO ")
    for seq, kind, _args in device.receive(data, 0):
        if kind == "HELLO":
            device.hello((PROTOCOL, "bench"), 0, seq)
    times, presses = [], 0
    for i in range(rounds + WARMUP):
        presses += 1
        sent = time.perf_counter_ns()
        device.send("BUTTON", (presses,), 0)
        arrived, data = master.read_until(b" FIRE ")
        for seq, kind, _args in device.receive(data, 0):
            if kind == "FIRE":
                device.send("FIRED", (1, 1, "-", f"{seq:02X}"), 0, seq)
        if i >= WARMUP:
            times.append((arrived - sent) / 1000)
    return times


def echo_side(fd: int, rounds: int) -> list[float]:
    master = Master(fd)
    master.read_until(b"READY")
    line = encode(1, "BUTTON", (1,))
    times = []
    for i in range(rounds + WARMUP):
        sent = time.perf_counter_ns()
        os.write(fd, line)
        arrived, _ = master.read_until(b" BUTTON ")
        if i >= WARMUP:
            times.append((arrived - sent) / 1000)
    return times


def measure(host, side, rounds: int) -> list[float]:
    master, slave = pty.openpty()
    tty.setraw(slave)  # a pty slave starts cooked: echo and \n -> \r\n would garble the frames
    child = multiprocessing.get_context("fork").Process(target=host, args=(os.ttyname(slave), rounds))
    child.start()
    try:
        return side(master, rounds)
    finally:
        child.join(timeout=10)
        os.close(master)
        os.close(slave)


def percentile(values: list[float], p: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def measure_interleaved(rounds: int, blocks: int) -> tuple[list[float], list[float]]:
    """Host and echo in alternating blocks: a burst of other work on the machine then lands in both
    cases alike, where one case after the other let it fall on whichever case ran at that moment."""
    driver: list[float] = []
    echo: list[float] = []
    for block in range(blocks):
        size = rounds // blocks + (block < rounds % blocks)
        driver += measure(host_driver, launcher_side, size)
        echo += measure(host_echo, echo_side, size)
    return driver, echo


def one_run(rounds: int, blocks: int) -> dict[str, float]:
    driver, echo = measure_interleaved(rounds, blocks)
    run = {
        "p50_us": statistics.median(driver),
        "p99_us": percentile(driver, 99),
        "echo_p50_us": statistics.median(echo),
        "echo_p99_us": percentile(echo, 99),
    }
    run["p50_ratio"] = run["p50_us"] / run["echo_p50_us"]
    run["ratio"] = run["p99_us"] / run["echo_p99_us"]
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="timed rounds per case and run")
    parser.add_argument("--blocks", type=int, default=10, help="alternating blocks per case (1: sequential)")
    parser.add_argument("--runs", type=int, default=5, help="runs; the figures are their medians")
    args = parser.parse_args()
    rounds, blocks, runs = args.rounds, max(1, min(args.blocks, args.rounds)), max(1, args.runs)
    results = []
    for index in range(runs):
        run = one_run(rounds, blocks)
        results.append(run)
        print(f"run {index + 1}: driver p50 {run['p50_us']:7.1f} us p99 {run['p99_us']:7.1f} us | echo p50 "
              f"{run['echo_p50_us']:7.1f} us p99 {run['echo_p99_us']:7.1f} us | ratio p50 "
              f"{run['p50_ratio']:.2f} p99 {run['ratio']:.2f}")

    def median(key: str, digits: int = 1) -> float:
        return round(statistics.median(r[key] for r in results), digits)

    result = {
        "rounds": rounds,
        "blocks": blocks,
        "runs": runs,
        "p50_us": median("p50_us"),
        "p99_us": median("p99_us"),
        "echo_p50_us": median("echo_p50_us"),
        "echo_p99_us": median("echo_p99_us"),
        "ratio": median("ratio", 2),
        "p50_ratio": median("p50_ratio", 2),
        "baseline": "echo with the driver's I/O: select, os.read, os.write",
    }
    print(f"BUTTON -> FIRE  p50 {result['p50_us']:8.1f} us   p99 {result['p99_us']:8.1f} us   (medians of "
          f"{runs} runs)")
    print(f"fd echo         p50 {result['echo_p50_us']:8.1f} us   p99 {result['echo_p99_us']:8.1f} us")
    print(f"ratio: p99 {result['ratio']:.2f}, p50 {result['p50_ratio']:.2f} (each the median of the runs' "
          "ratios)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
