"""The launcher with an emulated Raspberry Pi Pico inside: real MicroPython (rp2 port) on rp2040js.

`PicoDevice` has the public face of `unoxsim.device.VirtualDevice` (advance, press_button, open_lid,
take_stuck, unplug, host_write/host_read, model, boots, wire(name).history, ...), so `unoxsim.control`, the
pty server and the `pico` serial port work with either. The physics is the one `LauncherModel`; the chip is
`firmware/emu/pico.mjs` (Node), stepped in lockstep: Python sends the input pads (beam, button, lid, battery
ADC) and the USB bytes, the chip runs a slice of emulated time, Node answers with the output pads (motor
IN1/IN2 duty, buzzer duty and tone) and the USB bytes it sent; the physics then steps the same slice. Time is
the chip's own clock (`now_ms()`): nothing here looks at the wall clock, so a run depends only on its inputs.

The images come from the folder `UNOX_PICO_DIR` names (docs/pico.md says how to get them).
"""

from __future__ import annotations

import heapq
import itertools
import json
import os
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unoxsim.physics import FaultRates, LauncherModel
from unoxsim.usb import UsbCable

ENV = "UNOX_PICO_DIR"
UF2 = "micropython-v1.28.0-RPI_PICO.uf2"
BOOTROM = "rp2040-bootrom-b1.bin"
HARNESS = Path(__file__).resolve().parents[2] / "firmware" / "emu" / "pico.mjs"
WHAT_TO_GET = (f"set {ENV} to a folder holding {UF2} (micropython.org/download/RPI_PICO) and {BOOTROM} "
               "(the B1 boot ROM, sha256 90b31e10…), and run `npm ci --prefix firmware`: docs/pico.md says "
               "where to get both")
BUSY_STEP_MS = 1  # while anything moves or bytes flow: every beam edge lands on its own millisecond
ADC_COUNTS = 4095  # the RP2040 ADC is 12 bits; read_u16() scales it up
PRESS_GAP_MS = 60
RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n>"
BOUNCE_MS = 1


def pico_dir() -> Path:
    """The folder with the UF2 and the boot ROM; ValueError saying what to get when it is missing."""
    where = os.environ.get(ENV)
    if not where:
        raise ValueError(f"no emulated Pico: {WHAT_TO_GET}")
    folder = Path(where)
    missing = [name for name in (UF2, BOOTROM) if not (folder / name).is_file()]
    if missing:
        raise ValueError(f"{folder} lacks {', '.join(missing)}: {WHAT_TO_GET}")
    if not HARNESS.is_file():  # an installed wheel: firmware/emu and its node_modules stay in the checkout
        raise ValueError("the emulated Pico runs from a checkout of unox (its firmware/emu harness, with "
                         "`npm ci --prefix firmware`), not from an installed unox: docs/pico.md")
    if shutil.which("node") is None or not (HARNESS.parent.parent / "node_modules" / "rp2040js").is_dir():
        raise ValueError(f"rp2040js is not installed: {WHAT_TO_GET}")
    return folder


def chip_uid(seed: int) -> bytes:
    """The emulated chip's flash id for `seed` (its `machine.unique_id()`): stable per seed, one per chip,
    and not the id of `VirtualDevice(seed=seed)` (another kind of launcher)."""
    rng = random.Random(f"{seed}:pico-uid")
    return bytes(rng.randrange(256) for _ in range(8))


class PicoChip:
    """The Node process running the emulated RP2040; `run(us, ...)` is one lockstep slice."""

    def __init__(self, folder: Path, image: Path | None = None, *, plain: bool = False,
                 uid: bytes | None = None) -> None:
        command = ["node", str(HARNESS), str(folder)]
        if uid is not None:  # what the flash answers to Read Unique ID: machine.unique_id(), HELLO's board
            command += ["--uid", uid.hex()]
        if image is not None:
            command += ["--image", str(image)]
        if plain:  # no jumping over WFE/WFI sleep: the reference its shortcut is tested against
            command.append("--plain")
        self._proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                      bufsize=1)
        self._ask(None)

    def _ask(self, message: dict[str, Any] | None) -> dict[str, Any]:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        if message is not None:
            self._proc.stdin.write(json.dumps(message) + "\n")
            self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the emulated Pico stopped (node exit {self._proc.wait()})")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"the emulated Pico failed: {reply['error']}")
        return reply

    def run(self, us: int, inputs: dict[int, int], adc: list[int], tx: bytes) -> dict[str, Any]:
        return self._ask({"op": "run", "us": us, "in": inputs, "adc": adc, "tx": tx.hex()})

    def reset(self, reason: int = 0) -> dict[str, Any]:
        return self._ask({"op": "reset", "reason": reason})

    def save(self, path: Path) -> None:
        self._ask({"op": "save", "path": str(path)})

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.close()
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()


class PadLog:
    """One output pad as the physics saw it: `history` of (ms, value), value the PWM duty (tone: Hz)."""

    def __init__(self) -> None:
        self.history: list[tuple[float, float]] = [(0.0, 0.0)]

    def record(self, t_ms: float, value: float) -> None:
        if value != self.history[-1][1]:
            self.history.append((t_ms, value))

    def level(self) -> float:
        return self.history[-1][1]


class PicoDevice:
    """The launcher's physics around an emulated Pico running whatever is on its flash."""

    emulated_ms_total = 0.0  # over every PicoDevice of this process: bench/pico.py's realtime ratio
    awake_ns_total = 0  # of it, the ns the cores executed (not asleep in WFE/WFI)

    def __init__(self, *, seed: int = 0, cards: int = 83, jam: float = 0.0, double: float = 0.0,
                 stuck: float = 0.0, unjam: float = 0.5, battery_mv: float = 4500.0, drain: float = 0.0625,
                 lid: str = "shut", bounce: int = 2, drop: float = 0.0, corrupt: float = 0.0,
                 dup: float = 0.0, idle_step: int = 5, image: Path | None = None,
                 folder: Path | None = None, plain: bool = False) -> None:
        if lid not in ("open", "shut"):
            raise ValueError(f"lid={lid!r}: use 'open' or 'shut'")
        if not 0 < battery_mv <= 7000:
            raise ValueError(f"battery_mv={battery_mv}: a 3 x C pack reads 1..7000 mV")
        from unoxfw.pins import BATTERY, PINS

        self.pins = dict(PINS)
        self._adc_scale = (BATTERY["r_bottom_ohm"] / (BATTERY["r_top_ohm"] + BATTERY["r_bottom_ohm"])
                           * ADC_COUNTS / BATTERY["adc_ref_mv"])
        self.seed, self.bounce, self.idle_step = seed, bounce, idle_step
        self.model = LauncherModel(cards=cards, seed=seed, faults=FaultRates(jam, double, stuck, unjam))
        self.model.battery.set_open_mv(battery_mv)
        self.model.battery.drain_mv_per_as = drain
        self.model.lid_open = lid == "open"
        self.cable = UsbCable(seed, drop=drop, corrupt=corrupt, dup=dup)
        self.pads = {name: PadLog() for name in ("motor_in1", "motor_in2", "buzzer", "led")}
        self._pad_names = {str(self.pins[name]): name for name in self.pads}
        self.rises: dict[str, list[float]] = {name: [] for name in self.pads}
        self.resets: list[tuple[float, int]] = []  # (ms, WATCHDOG.REASON: 0 power, 1 timer, 2 forced)
        self._events: list[tuple[float, int, bool, Callable[[], None]]] = []
        self._order = itertools.count()
        self._button_free_at = -PRESS_GAP_MS
        self._now_ns = 0
        self._duty = (0.0, 0.0)
        self._kick = False
        self._carry_ms = 0.0
        self.queued_to_chip = 0
        self.boots = 1
        self.boot_info: dict[str, Any] = {}  # this boot: when the watchdog was armed, when pads came up (ns)
        self.awake_ns = 0  # emulated ns the chip's core executed; the rest of now_us() it slept in WFE/WFI
        self.uid = chip_uid(seed)
        self.chip = PicoChip(folder or pico_dir(), image, plain=plain, uid=self.uid)

    # -- time -----------------------------------------------------------------------------------------
    def now_ms(self) -> int:
        return self._now_ns // 1_000_000

    def now_us(self) -> int:
        return self._now_ns // 1000

    def schedule(self, delay_ms: float, action: Callable[[], None], *, physical: bool = False) -> None:
        heapq.heappush(self._events, (self._now_ns / 1e6 + delay_ms, next(self._order), physical, action))

    def advance(self, ms: float) -> None:
        self.advance_until(ms, lambda: False)

    def advance_until(self, ms: float, done: Callable[[], bool]) -> bool:
        """Run for up to `ms` emulated ms, stopping after the first slice at which `done()` holds."""
        end_ns = self._now_ns + int(ms * 1_000_000)
        while True:
            self._run_due_events()
            if done():
                return True
            if self._now_ns >= end_ns:
                return False
            self._slice(self._step_us(end_ns - self._now_ns))

    def _step_us(self, left_ns: int) -> int:
        step_ms = float(self.idle_step)
        if (self._kick or self.cable.to_board.pending() or self._duty != (0.0, 0.0) or self.model.moving()):
            step_ms = BUSY_STEP_MS
        self._kick = False
        if self._events:
            step_ms = min(step_ms, max(0.001, self._events[0][0] - self._now_ns / 1e6))
        return max(1, min(int(step_ms * 1000), left_ns // 1000))

    def _run_due_events(self) -> None:
        while self._events and self._events[0][0] <= self._now_ns / 1e6 + 1e-9:
            heapq.heappop(self._events)[3]()
            self._kick = True

    def _inputs(self) -> dict[int, int]:
        model, pins = self.model, self.pins
        return {pins["beam"]: 0 if model.beam_blocked() else 1, pins["button"]: 0 if model.button_down else 1,
                pins["lid"]: 1 if model.lid_open else 0}

    def _slice(self, us: int) -> None:
        adc = [min(ADC_COUNTS, round(self.model.battery.terminal_mv * self._adc_scale))]
        tx = self.cable.board_read()
        reply = self.chip.run(us, self._inputs(), adc, tx)
        self.queued_to_chip = reply["queued"]  # bytes the chip's USB has not taken in yet
        self.awake_ns += reply["awake"]
        PicoDevice.awake_ns_total += reply["awake"]
        if self.queued_to_chip:
            self._kick = True
        dt_ms = (reply["ns"] - self._now_ns) / 1e6
        PicoDevice.emulated_ms_total += dt_ms
        self._now_ns = reply["ns"]
        now = self._now_ns / 1e6
        if reply["resets"]:
            self._rebooted(reply)
        self.boot_info = reply["boot"]
        out = reply["out"]
        for pin, changes in reply.get("edges", {}).items():  # the buzzer's, each at its own ns
            name = self._pad_names[pin]
            for t_ns, duty, hz in changes:
                self.pads[name].record(t_ns / 1e6, (hz if duty > 0 else 0) if name == "buzzer" else duty)
        for name in self.pads:
            duty, hz = out[str(self.pins[name])]
            self.pads[name].record(now, (hz if duty > 0 else 0) if name == "buzzer" else duty)
            rise = reply["rise"].get(str(self.pins[name]))
            if rise is not None:
                self.rises[name].append(rise / 1e6)
        self._duty = (float(out[str(self.pins["motor_in1"])][0]), float(out[str(self.pins["motor_in2"])][0]))
        self._carry_ms += dt_ms
        whole = int(self._carry_ms + 1e-9)
        if whole:
            self._carry_ms -= whole
            self.model.step(whole, *self._duty)
        rx = bytes.fromhex(reply["rx"])
        if rx:
            self.cable.board_write(rx)
            self._kick = True

    def _rebooted(self, reply: dict[str, Any]) -> None:
        self.boots = reply["boots"]
        for t_ns, reason in reply["resets"]:
            self.resets.append((t_ns / 1e6, reason))
        self.cable.reset()
        self._events = [event for event in self._events if event[2]]
        heapq.heapify(self._events)

    # -- people and cables (as VirtualDevice) ---------------------------------------------------------
    def press_button(self, hold_ms: int = 120) -> None:
        if hold_ms < 2 * self.bounce + 2:
            raise ValueError(f"hold_ms={hold_ms}: too short for {self.bounce} bounce edges")
        now = self.now_ms()
        start = max(0, self._button_free_at + PRESS_GAP_MS - now)
        for i in range(2 * self.bounce + 1):
            self.schedule(start + i * BOUNCE_MS, self._button_setter(i % 2 == 0), physical=True)
        for i in range(2 * self.bounce + 1):
            self.schedule(start + hold_ms + i * BOUNCE_MS, self._button_setter(i % 2 == 1), physical=True)
        self._button_free_at = now + start + hold_ms + 2 * self.bounce * BOUNCE_MS

    def _button_setter(self, down: bool) -> Callable[[], None]:
        def act() -> None:
            self.model.button_down = down

        return act

    def open_lid(self) -> None:
        self.model.lid_open = True
        self._kick = True

    def close_lid(self) -> int:
        back = self.model.clear_jam() if self.model.lid_open else 0
        self.model.lid_open = False
        self._kick = True
        return back

    def set_battery(self, mv: float) -> None:
        if not 0 < mv <= 7000:
            raise ValueError(f"battery {mv} mV: a 3 x C pack reads 1..7000 mV")
        self.model.battery.set_open_mv(mv)

    def load_cards(self, n: int) -> None:
        self.model.load(n)

    def take_stuck(self) -> int:
        return self.model.take_stuck()

    def unplug(self, *, vanish: bool = False) -> None:
        self.cable.unplug(vanish=vanish)

    def plug(self) -> None:
        self.cable.plug()

    def power_cycle(self) -> None:
        """Batteries out and in: a fresh chip from the same flash; the cards stay where they are."""
        self._rebooted({"boots": self.boots + 1, "resets": [[self._now_ns, 0]]})
        self.chip.reset(0)

    def set_link_faults(self, drop: float = 0.0, corrupt: float = 0.0, dup: float = 0.0) -> None:
        """Per-frame faults on the USB bridge from now on (the flash itself runs on a clean link)."""
        for channel in (self.cable.to_board, self.cable.to_host):
            channel.drop, channel.corrupt, channel.dup = drop, corrupt, dup

    def save_flash(self, path: Path) -> None:
        self.chip.save(path)

    def close(self) -> None:
        self.chip.close()

    # -- the host's end of the cable --------------------------------------------------------------------
    def host_write(self, data: bytes) -> None:
        self.cable.host_write(bytes(data))

    def host_read(self, size: int = -1) -> bytes:
        return self.cable.host_read(size)

    def host_pending(self) -> int:
        return self.cable.to_host.pending()

    # -- what tests look at ---------------------------------------------------------------------------
    def wire(self, name: str) -> PadLog:
        return self.pads[name]

    @property
    def cards_out(self) -> int:
        return self.model.ejected

    def beeps(self, since_ms: float = 0) -> int:
        history = self.pads["buzzer"].history
        return sum(1 for (t, v), (_, prev) in zip(history[1:], history, strict=False)
                   if t >= since_ms and v > 0 and prev == 0)


class ReplError(RuntimeError):
    """The chip's raw REPL did not answer as MicroPython's does, or the code raised."""


def hand_over(device: PicoDevice, limit_ms: int = 5000) -> None:
    """What `unox firmware flash` does first (unox.launcher.handover): a HELLO, then the frame REPL; main.py
    stops its motor, answers `REPL ok` and ends into MicroPython's friendly REPL (watchdog paused).
    No Ctrl-C: the firmware keeps the keyboard interrupt off while it runs."""
    from unoxfw.link import PROTOCOL, Endpoint

    out: list[bytes] = []
    host = Endpoint(out.append, epoch=0x7E97)
    got: list[tuple[str, tuple[str, ...]]] = []
    tail = bytearray()

    def heard() -> bool:
        data = device.host_read()
        tail.extend(data)
        got.extend((kind, args) for _, kind, args in host.receive(data, device.now_ms()))
        return True

    def send_and_wait(kind: str, args: tuple, answer: str) -> None:
        if kind == "HELLO":
            host.hello(args, device.now_ms())
        else:
            host.send(kind, args, device.now_ms())
        device.host_write(b"".join(out))
        out.clear()
        if not device.advance_until(limit_ms, lambda: heard() and any(k == answer for k, _ in got)):
            raise ReplError(f"main.py did not answer {kind} within {limit_ms} ms; got {bytes(tail[-200:])!r}")

    send_and_wait("HELLO", (PROTOCOL,), "HELLO")
    send_and_wait("REPL", (), "REPL")  # the ACK of `REPL ok` is never sent: the REPL would take it as text
    if not device.advance_until(limit_ms, lambda: heard() and b"\n>>> " in tail):
        raise ReplError(f"no MicroPython prompt after REPL ok; got {bytes(tail[-200:])!r}")


def repl_exec(device: PicoDevice, code: str, *, stop_firmware: bool = True, limit_ms: int = 20_000) -> str:
    """Runs `code` in the chip's raw REPL (as mpremote does) and returns what it printed. With
    `stop_firmware`, main.py is first asked for its REPL over the protocol (`hand_over`: it pauses its
    watchdog) and the raw REPL is entered."""
    seen = bytearray()

    def expect(marker: bytes) -> bytes:
        start = 0
        if not device.advance_until(limit_ms, lambda: _collect(device, seen) and marker in seen):
            raise ReplError(f"the raw REPL did not send {marker!r} within {limit_ms} ms; got {bytes(seen)!r}")
        start = seen.index(marker)
        before = bytes(seen[:start])
        del seen[: start + len(marker)]
        return before

    if stop_firmware:
        hand_over(device, limit_ms)
        device.host_write(b"\r\x01")
        expect(RAW_PROMPT)
    device.host_write(code.encode() + b"\x04")
    expect(b"OK")
    out = expect(b"\x04")
    err = expect(b"\x04")
    expect(b">")
    if err:
        raise ReplError(err.decode(errors="replace").strip())
    return out.decode(errors="replace")


def write_files(device: PicoDevice, files: dict[str, bytes], *, limit_ms: int = 20_000,
                chunk: int = 2048) -> None:
    """Writes `files` (path on the chip: bytes) onto a chip at MicroPython's own REPL (no main.py on its
    flash) through its raw REPL, folders made first. Everything runs in lockstep from the chip's power-on,
    so the same files leave the same flash, byte for byte: mpremote on a pty, paced by the wall, leaves
    littlefs's mtimes (the RTC at each write) and so its block layout wherever the wall's timing put them,
    and main.py's boot from such an image takes a different number of emulated us each time."""
    seen = bytearray()
    device.host_write(b"\r\x01")
    if not device.advance_until(limit_ms, lambda: _collect(device, seen) and RAW_PROMPT in seen):
        raise ReplError(f"no raw REPL within {limit_ms} ms; got {bytes(seen[-200:])!r}")
    folders = sorted({"/".join(path.split("/")[:i]) for path in files for i in range(2, path.count("/") + 1)})
    repl_exec(device, f"import os\nfor d in {folders!r}:\n try: os.mkdir(d)\n except OSError: pass",
              stop_firmware=False, limit_ms=limit_ms)
    for path, data in files.items():
        for at in range(0, max(1, len(data)), chunk):
            mode = "ab" if at else "wb"
            repl_exec(device, f"with open({path!r}, {mode!r}) as f: f.write({data[at:at + chunk]!r})",
                      stop_firmware=False, limit_ms=limit_ms)


FILES_ON_CHIP = """
import os, hashlib, binascii
def walk(folder):
    for entry in os.ilistdir(folder):
        path = folder.rstrip('/') + '/' + entry[0]
        if entry[1] == 0x4000:
            walk(path)
        else:
            digest = hashlib.sha256()
            with open(path, 'rb') as f:
                digest.update(f.read())
            print(path, binascii.hexlify(digest.digest()).decode())
walk('/')
"""


def files_on_chip(device: PicoDevice, *, stop_firmware: bool = True) -> dict[str, str]:
    """Every file on the chip's flash as {path: sha256 hex}, read through its raw REPL: what a flash left
    there, to compare with what was meant to go there."""
    out = repl_exec(device, FILES_ON_CHIP, stop_firmware=stop_firmware)
    return dict(line.split() for line in out.splitlines() if line.strip())


def _collect(device: PicoDevice, into: bytearray) -> bool:
    into += device.host_read()
    return True


def chip_port(device: PicoDevice, timeout: float = 0.5) -> Any:
    """A pyserial port on the emulated Pico's USB serial, in this process: reads advance the chip, and a
    driver on it takes the chip's clock (`virtual_clock()`), so host timers run in emulated time."""
    from unoxsim.protocol_sim import Serial

    port = Serial(timeout=timeout)
    port.device = device  # type: ignore[assignment]  # the same public face as VirtualDevice
    port._device_url = "pico://emulated"
    port.port = "pico://emulated"
    port.open()
    return port


HEAP_AFTER_BOOT = """
import gc, time, machine
import main
board, app = main.boot(machine, main.UsbIO(), time.ticks_ms(), main.WDT, ticks=time.ticks_ms,
                       schedule=main.scheduler())
for _ in range(20):
    main.step(board, app, time.ticks_ms())
main.pause_watchdog(machine)
gc.collect()
print(gc.mem_free())
"""
SOFT_REBOOT = b"soft reboot\r\n"


def heap_after_boot(device: PicoDevice, limit_ms: int = 20_000) -> int:
    """`gc.mem_free()` after main.py's own boot, with every module compiled once: the figure bench/pico.py
    reports and tests/pico bounds. main.py hands the REPL over, then a soft reboot from the raw REPL (as
    mpremote's) clears the heap without running main.py (MicroPython runs it only from the friendly REPL);
    then `import main` compiles it once (its loop runs only as `__main__`) and its boot, with 20 loop steps,
    leaves the firmware's objects alive while measured. A figure taken over the running main.py instead
    counts main.py twice (its first compile stays referenced by the interrupted loop)."""
    hand_over(device, limit_ms)
    seen = bytearray()
    device.host_write(b"\r\x01")
    if not device.advance_until(limit_ms, lambda: _collect(device, seen) and RAW_PROMPT in seen):
        raise ReplError(f"no raw REPL within {limit_ms} ms; got {bytes(seen[-200:])!r}")
    del seen[:]
    device.host_write(b"\x04")  # Ctrl-D on an empty raw REPL line: a soft reboot back into the raw REPL
    if not device.advance_until(limit_ms, lambda: _collect(device, seen) and SOFT_REBOOT in seen
                                and RAW_PROMPT in seen[seen.index(SOFT_REBOOT):]):
        raise ReplError(f"no soft reboot within {limit_ms} ms; got {bytes(seen[-200:])!r}")
    return int(repl_exec(device, HEAP_AFTER_BOOT, stop_firmware=False, limit_ms=limit_ms).split()[-1])
