"""Heap the firmware uses after boot, measured under the real MicroPython (WebAssembly port, Node).

Run: python3 bench/firmware_mem.py   (needs `npm ci --prefix firmware`)

In one MicroPython run (separate runPython steps, between which the port's GC frees all garbage) it
measures gc.mem_alloc() after gc.collect() three times: the baseline (the
interpreter with only the fake `machine` imported; on a Pico `machine` is built in and costs no heap), after
boot (unoxfw imported, Board and App built, 100 loop steps), and after a host session (HELLO, FIRE 3 fired,
STATUS). The .py files are compiled to bytecode in RAM, as they are when copied to a Pico's /lib.
Beside it, where the emulated Pico is at hand (UNOX_PICO_DIR, docs/pico.md), the heap the real rp2 port
has free after main.py's boot, read on the chip with gc.mem_free() (bench/pico.py's heap_free; pico_heap_free
in the JSON, null without the images). Last line: one JSON object with heap_bytes (after boot minus
baseline). Goal: <= 32 KiB.
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "firmware" / "tests" / "run_mp.mjs"
GOAL = 32 * 1024

SCRIPT = r"""
import gc
import machine


class FakeIO:
    def __init__(self):
        self.inbox = b""
        self.out = b""

    def read(self):
        data = self.inbox
        self.inbox = b""
        return data

    def write(self, data):
        self.out += data


io = FakeIO()
# ---- step ----
gc.collect()
base = gc.mem_alloc()
# ---- step ----
from unoxfw.runner import boot, step
board, app = boot(machine, io, 0, None, None, 1)
machine.pin(18).drive(0)  # lid shut
for t in range(1, 101):
    step(board, app, t * 5)
io.out = b""
# ---- step ----
gc.collect()
boot = gc.mem_alloc()
# ---- step ----
from unoxfw.link import Endpoint
host_out = []
host = Endpoint(host_out.append, epoch=77)
host.hello(("1", "bench"), 500)
host.send("FIRE", ("3",), 500)
host.send("STATUS", (), 500)
beam = machine.pin(16)
for t in range(101, 1101):
    io.inbox = b"".join(host_out)
    del host_out[:]
    if board.motor_value() > 0 and t % 30 == 0:
        beam.drive(0)  # a card blocks the beam for 45 ms (a shorter blip is a glitch, not a card)
    elif t % 30 == 9:
        beam.drive(1)
    step(board, app, t * 5)
    host.receive(io.out, t * 5)
    io.out = b""
    if t % 50 == 0:
        host.send_unreliable("HEARTBEAT")
# ---- step ----
gc.collect()
session = gc.mem_alloc()
print("mem base %d boot %d session %d counted %d" % (base, boot, session, app.counted))
"""


def main() -> int:
    node = shutil.which("node")
    if node is None or not (ROOT / "firmware" / "node_modules").exists():
        print("needs Node and `npm ci --prefix firmware`", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "mem.py"
        script.write_text(SCRIPT)
        result = subprocess.run([node, str(RUNNER), "--exec", str(script)], capture_output=True, text=True)
    found = re.search(r"mem base (\d+) boot (\d+) session (\d+) counted (\d+)", result.stdout)
    if result.returncode != 0 or not found:
        print(result.stdout + result.stderr, file=sys.stderr)
        return 1
    base, boot, session, counted = (int(x) for x in found.groups())
    heap = boot - base
    print(f"baseline (interpreter + fake machine): {base} B")
    print(f"after boot:                          {boot} B  -> firmware heap {heap} B")
    print(f"after a session (FIRE 3, {counted} counted): {session} B  -> {session - base} B")
    print(f"ratio after-boot / baseline: {boot / base:.2f}; share of the 32 KiB goal: {heap / GOAL:.2f}")
    record = {
        "heap_bytes": heap,
        "session_heap_bytes": session - base,
        "baseline_bytes": base,
        "ratio_to_baseline": round(boot / base, 2),
        "goal_bytes": GOAL,
        "within_goal": heap <= GOAL,
    }
    record["pico_heap_free"] = pico_heap_free()
    if record["pico_heap_free"] is not None:
        print(f"emulated Pico (MicroPython v1.28.0): gc.mem_free() after boot {record['pico_heap_free']}")
    print(json.dumps(record))
    return 0


def pico_heap_free() -> int | None:
    """gc.mem_free() after boot on the emulated Pico, or None when its images are not at hand."""
    sys.path.insert(0, str(Path(__file__).parent))
    import pico  # bench/pico.py
    from unoxsim.pico import pico_dir

    try:
        folder = pico_dir()
    except ValueError as exc:
        print(f"no emulated Pico figure: {exc}", file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory() as tmp:
        return pico.heap_free(folder, pico.flashed_image(folder, Path(tmp)))


if __name__ == "__main__":
    sys.exit(main())
