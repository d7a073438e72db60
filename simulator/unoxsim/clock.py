"""Virtual time for the simulator: milliseconds that move only when someone advances them.

Nothing in the simulator sleeps. Tests, the `sim://` port and the pty server all move this clock
explicitly, so a run is as fast as the CPU allows and identical every time.
"""

from __future__ import annotations

_TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms() wraps at 2**30 on the rp2 port


class VirtualClock:
    """A millisecond counter advanced explicitly; `now_ms()` never goes backwards."""

    def __init__(self, start_ms: int = 0) -> None:
        if start_ms < 0:
            raise ValueError(f"start_ms must be >= 0, got {start_ms}")
        self._now = int(start_ms)

    def now_ms(self) -> int:
        return self._now

    def __call__(self) -> int:
        return self._now

    def advance(self, ms: int) -> int:
        """Move time forward by `ms` (>= 0) and return the new time."""
        if ms < 0:
            raise ValueError(f"virtual time cannot go backwards (advance by {ms} ms)")
        self._now += int(ms)
        return self._now

    def advance_to(self, t_ms: int) -> int:
        if t_ms < self._now:
            raise ValueError(f"virtual time cannot go backwards (from {self._now} to {t_ms} ms)")
        self._now = int(t_ms)
        return self._now

    # MicroPython-style tick helpers, for code that wants `time.ticks_ms()` semantics.
    def ticks_ms(self) -> int:
        return self._now % _TICKS_PERIOD

    @staticmethod
    def ticks_add(ticks: int, delta: int) -> int:
        return (ticks + delta) % _TICKS_PERIOD

    @staticmethod
    def ticks_diff(end: int, start: int) -> int:
        half = _TICKS_PERIOD // 2
        return ((end - start + half) % _TICKS_PERIOD) - half
