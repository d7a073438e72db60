"""Time sources for the drivers: real time on hardware, the port's virtual clock against the simulator,
the emulated chip's clock against `unox simulate-device --chip` (which runs slower than real time)."""

from __future__ import annotations

import os
import struct
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale."""

    def sleep(self, seconds: float) -> None:
        """Let `seconds` pass."""


class RealClock:
    """Wall-clock time; only used against real hardware."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """Virtual time that moves only when slept on; `on_advance` hooks let a test play the hardware."""

    def __init__(self, start: float = 0.0):
        self.t = start
        self.hooks: list[Callable[[float], None]] = []

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += max(seconds, 0.0)
        for hook in list(self.hooks):
            hook(self.t)


class PortClock:
    """The clock of a simulated port: `virtual_clock()` in ms; reading the port is what advances it."""

    def __init__(self, port: object):
        self.port = port

    def now(self) -> float:
        return self.port.virtual_clock() / 1000.0  # type: ignore[attr-defined]

    def sleep(self, seconds: float) -> None:
        advance = getattr(self.port, "advance", None)
        if advance is not None:
            advance(seconds * 1000.0)


EMULATED_CLOCK = struct.Struct("<qq")  # writer's pid, emulated microseconds
_STALL_FACTOR = 50  # a sleep gives up when the emulated clock moves 50x slower than the wall (a dead writer)


def emulated_clock_path(port_name: str) -> Path | None:
    """Where `unox simulate-device --chip` publishes the emulated Pico's clock for the pty it serves:
    the host's link timers (heartbeats, reply and loss timeouts) then run on the chip's time, so a chip
    emulated at 0.2-0.45x real time looks to the host like a Pico at full speed. Only ptys have one."""
    if not port_name.startswith("/dev/pts/"):
        return None
    return Path(tempfile.gettempdir()) / f"unox-chip-clock-{os.getuid()}-pts-{port_name.rsplit('/', 1)[1]}"


class EmulatedClock:
    """The emulated chip's clock, read from the file its simulator keeps current."""

    def __init__(self, path: Path):
        self.fd = os.open(path, os.O_RDONLY)

    def read(self) -> tuple[int, int]:
        return EMULATED_CLOCK.unpack(os.pread(self.fd, EMULATED_CLOCK.size, 0))

    def now(self) -> float:
        return self.read()[1] / 1e6

    def sleep(self, seconds: float) -> None:
        end = self.now() + seconds
        give_up = time.monotonic() + seconds * _STALL_FACTOR + 1.0
        while self.now() < end and time.monotonic() < give_up:
            time.sleep(0.001)


def emulated_clock(port_name: str) -> EmulatedClock | None:
    """The clock a live `simulate-device --chip` publishes for this port, or None (a real port)."""
    path = emulated_clock_path(port_name)
    if path is None or not path.is_file():
        return None
    try:
        clock = EmulatedClock(path)
        os.kill(clock.read()[0], 0)  # a file left by a simulator that is gone is not a clock
    except (OSError, struct.error):
        return None
    return clock


def clock_for(port: object) -> Clock:
    """The port's own virtual clock when it has one, so nothing sleeps against the simulator; the emulated
    chip's clock for a pty served by `simulate-device --chip`; else real time."""
    if hasattr(port, "virtual_clock"):
        return PortClock(port)
    return emulated_clock(str(getattr(port, "port", "") or "")) or RealClock()
