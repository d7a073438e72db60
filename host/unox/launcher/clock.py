"""Time sources for the drivers: real time on hardware, the port's virtual clock against the simulator."""

from __future__ import annotations

import time
from collections.abc import Callable
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


def clock_for(port: object) -> Clock:
    """The port's own virtual clock when it has one, so nothing sleeps against the simulator."""
    return PortClock(port) if hasattr(port, "virtual_clock") else RealClock()
