"""The firmware on real MicroPython v1.28.0 (rp2 port) on an emulated Pico (rp2040js), wired to the physics.

Run: UNOX_PICO_DIR=/path/to/images python3 bench/pico.py [--presses N]   (docs/pico.md; about 5-10 min)

It flashes the firmware onto a fresh chip the way `unox firmware flash` does, then measures in the chip's
emulated time (so the figures do not depend on how fast this machine emulates it):
- realtime_ratio: emulated seconds per wall second over the whole run (the emulator's speed here), with the
  machine's load average (1 minute) at its start and end beside it: on a shared machine the ratio moves with
  the load, so compare two figures only at a like load. The goal (issue 27) is >= 1.0 on an idle 2-core
  machine: the emulated chip as fast as a real one;
- cpu_ratio: emulated seconds per second of CPU the run took (this process, Node's chips and mpremote): what
  the ratio would be with a core to itself and no waiting, so it moves far less with the load;
- phases: each part of the run (the flash through mpremote, and the chips booted for heap, frame, standalone
  and hosted) with its emulated s, wall s, CPU s and ratio: where the time goes;
- awake: the share of the emulated time the chip's core executed (the rest it slept in WFE/WFI);
- standalone_us p50/p99: button edge to motor IN1 pin high, no host (presses whose profile draw fires);
- hosted_ms p50/p99: button edge -> BUTTON frame -> host driver -> FIRE -> motor IN1 pin high (the host runs
  on the chip's clock, so its own CPU time is not in the figure);
- heap_free: gc.mem_free() after main.py's boot, read on the chip with every module compiled once
  (unoxsim.pico.heap_after_boot: a soft reboot, then `import main` and its boot with 20 loop steps);
- frame_us: what one HEARTBEAT frame costs the firmware's link on the chip (crc16, encode, Decoder.feed),
  with the bitwise CRC loop on the same bytes as its baseline (`crc_ratio_to_bitwise`);
and, as the baseline measured in the same run, hosted_ms p50 on the CPython simulator (`sim://`): the
ratio says how much slower the real interpreter and its USB stack answer than the model.
Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for folder in ("host", "simulator", "firmware", "."):
    sys.path.insert(0, str(ROOT / folder))


def flashed_image(folder: Path, into: Path) -> Path:
    from unox.cli.commands.firmware import flash
    from unoxsim.pico import PicoDevice
    from unoxsim.pico_pty import ChipPtyServer

    device = PicoDevice(folder=folder)
    server = ChipPtyServer(device)
    try:
        device.advance(300)
        boots = device.boots  # before the flash: mpremote's reset lands while its last step is served
        with open(into / "flash.log", "w") as log:
            flash(server.path, runner=server.runner(log.fileno()))
        device.advance_until(5000, lambda: device.boots > boots)
        image = into / "flash.bin"
        device.save_flash(image)
        return image
    finally:
        server.close()
        device.close()


def booted(folder: Path, image: Path, **physics):
    from unoxsim.pico import PicoDevice

    device = PicoDevice(folder=folder, image=image, **physics)
    device.advance_until(5000, lambda: device.host_pending() > 0)
    return device


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def refill(device) -> None:
    """As a player does before the hopper runs dry: lid up, cards in, lid down. A press into an empty
    launcher is not the press path's figure: with no card in place, its fire starts with a brake and a
    pull-back, which the loop runs (the brake raises IN1 too, about 1 ms later; docs/benchmarks.md)."""
    if device.model.hopper >= REFILL_BELOW:
        return
    device.open_lid()
    device.advance(500)
    device.load_cards(112 - device.model.hopper)
    device.close_lid()
    device.advance(1000)


REFILL_BELOW = 12  # cards: more than a standalone draw takes


def standalone_us(folder: Path, image: Path, presses: int) -> list[float]:
    device = booted(folder, image, seed=41, cards=112)
    samples: list[float] = []
    try:
        while len(samples) < presses:
            refill(device)
            edge_us = device.now_us()
            rises = len(device.rises["motor_in1"])
            device.press_button(hold_ms=40)
            device.advance_until(300, lambda seen=rises: len(device.rises["motor_in1"]) > seen)
            if len(device.rises["motor_in1"]) > rises:  # this press's draw fired (40 % fire nothing)
                samples.append(device.rises["motor_in1"][rises] * 1000 - edge_us)
            device.advance_until(3000, lambda: device.wire("motor_in1").level() == 0
                                 and device.wire("motor_in2").level() == 0)
            device.advance(300)
    finally:
        device.close()
    return samples


def hosted_ms(folder: Path, image: Path, presses: int) -> list[float]:
    from unox.launcher.serial import SerialLauncher
    from unoxsim.pico import chip_port

    device = booted(folder, image, seed=42, cards=112)
    launcher = SerialLauncher(chip_port(device), seed=42)  # its epoch and fire ids: every run the same
    samples: list[float] = []
    try:
        launcher.status()
        for _ in range(presses):
            refill(device)
            edge_us = device.now_us()
            rises = len(device.rises["motor_in1"])
            device.press_button(hold_ms=40)
            if launcher.wait_press(timeout=2.0) and launcher.fire(1).fired == 1:
                samples.append(device.rises["motor_in1"][rises] - edge_us / 1000)
    finally:
        launcher.close()
        device.close()
    return samples


def sim_hosted_ms(presses: int) -> list[float]:
    """The baseline: the same press -> fire on the CPython simulator (1 ms resolution)."""
    from unox.launcher import open_launcher

    launcher = open_launcher("sim:?seed=42&cards=112")
    device = launcher.device  # type: ignore[attr-defined]
    samples: list[float] = []
    for _ in range(presses):
        edge = device.now_ms()
        seen = len(device.wire("motor_in1").history)
        device.press_button(hold_ms=40)
        if launcher.wait_press(timeout=2.0) and launcher.fire(1).fired == 1:
            rises = [t for t, v in device.wire("motor_in1").history[seen:] if v > 0]
            samples.append(rises[0] - edge)
    launcher.close()
    return samples


def heap_free(folder: Path, image: Path) -> int:
    from unoxsim.pico import heap_after_boot

    device = booted(folder, image)
    try:
        return heap_after_boot(device)
    finally:
        device.close()


FRAME_COSTS = """
import time
from unoxfw.decode import _crc16_bits
from unoxfw.link import Decoder, crc16, encode
frame = encode(0, "HEARTBEAT", ("1A2B", "3C4D", "host"))
body = frame[:-6]
crc16(body)  # the table is made on the first frame
decoder = Decoder()
def cost(name, call):
    start = time.ticks_us()
    for _ in range(10):
        call()
    print(name, time.ticks_diff(time.ticks_us(), start) // 10)
cost("crc16", lambda: crc16(body))
cost("bitwise", lambda: _crc16_bits(body))
cost("encode", lambda: encode(0, "HEARTBEAT", ("1A2B", "3C4D", "host")))
cost("feed", lambda: decoder.feed(frame))
"""


def frame_us(folder: Path, image: Path) -> dict[str, int]:
    """Each cost in emulated us, an average of 10, timed by the chip itself in its raw REPL."""
    from unoxsim.pico import repl_exec

    device = booted(folder, image)
    try:
        lines = repl_exec(device, FRAME_COSTS, limit_ms=60_000).split("\n")
    finally:
        device.close()
    return {name: int(value) for name, value in (line.split() for line in lines if line.strip())}


def cpu_s() -> float:
    """CPU seconds of this process and of its children that ended (every chip's Node, mpremote)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Phases:
    """Emulated s, wall s and CPU s of each part of the run (every chip of a part is closed at its end)."""

    def __init__(self) -> None:
        self.figures: dict[str, dict[str, float]] = {}

    def run(self, name: str, call):
        from unoxsim.pico import PicoDevice

        emulated, wall, cpu = PicoDevice.emulated_ms_total, time.monotonic(), cpu_s()
        result = call()
        emulated = (PicoDevice.emulated_ms_total - emulated) / 1000
        wall, cpu = time.monotonic() - wall, cpu_s() - cpu
        self.figures[name] = {"emulated_s": round(emulated, 2), "wall_s": round(wall, 2),
                              "cpu_s": round(cpu, 2), "ratio": round(emulated / wall, 3)}
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=20, help="presses per latency figure (default 20)")
    args = parser.parse_args()
    from unoxsim.pico import pico_dir

    try:
        folder = pico_dir()
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    load0 = os.getloadavg()[0]
    wall0, cpu0, emulated = time.monotonic(), cpu_s(), 0.0
    phases = Phases()
    with tempfile.TemporaryDirectory() as tmp:
        image = phases.run("flash", lambda: flashed_image(folder, Path(tmp)))
        heap = phases.run("heap", lambda: heap_free(folder, image))
        frame = phases.run("frame", lambda: frame_us(folder, image))
        alone = phases.run("standalone", lambda: standalone_us(folder, image, args.presses))
        hosted = phases.run("hosted", lambda: hosted_ms(folder, image, args.presses))
    wall, cpu = time.monotonic() - wall0, cpu_s() - cpu0
    from unoxsim.pico import PicoDevice

    emulated = PicoDevice.emulated_ms_total / 1000
    load1 = os.getloadavg()[0]
    baseline = sim_hosted_ms(args.presses)
    record = {
        "realtime_ratio": round(emulated / wall, 3),
        "load_avg_1min": [round(load0, 2), round(load1, 2)],
        "cpu_ratio": round(emulated / cpu, 3),
        "phases": phases.figures,
        "awake": round(PicoDevice.awake_ns_total / 1e6 / PicoDevice.emulated_ms_total, 3),
        "standalone_us": {"p50": round(percentile(alone, 0.5)), "p99": round(percentile(alone, 0.99)),
                          "n": len(alone)},
        "hosted_ms": {"p50": round(percentile(hosted, 0.5), 1), "p99": round(percentile(hosted, 0.99), 1),
                      "n": len(hosted)},
        "heap_free": heap,
        "frame_us": {key: frame[key] for key in ("crc16", "encode", "feed")},
        "crc_ratio_to_bitwise": round(frame["crc16"] / frame["bitwise"], 3),
        "sim_hosted_ms_p50": round(statistics.median(baseline), 1),
        "hosted_ratio_to_sim": round(statistics.median(hosted) / statistics.median(baseline), 2),
    }
    print(f"emulated {emulated:.1f} s in {wall:.1f} s wall ({cpu:.1f} s CPU), load average {load0:.2f} -> "
          f"{load1:.2f}", file=sys.stderr)
    print(json.dumps(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
