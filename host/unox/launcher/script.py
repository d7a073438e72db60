"""A launcher whose outcomes the caller scripts: for tests and for tables without hardware."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from unox.launcher.base import FAULTS, FireResult, Launcher, LauncherStatus, check_count, check_pattern

Outcome = int | str | tuple[int, str | None] | FireResult


class ScriptLauncher(Launcher):
    """Plays queued outcomes, then fires exactly what is asked (limited by `cards` when given).

    An outcome is a fired count (`2`), a fault (`"jam"`: nothing fired), a pair (`(1, "jam")`) or a
    ready FireResult whose `requested` is replaced by the real request.

    Like the firmware, it remembers each fire by its `fire_id` for `fire_result()` while this object
    lives (a new ScriptLauncher, like a rebooted device, cannot tell: None). `standalone` holds fires a
    test says the device made alone; `take_standalone_fires()` hands them over once.
    """

    def __init__(
        self,
        outcomes: Iterable[Outcome] = (),
        *,
        presses: int = 0,
        cards: int | None = None,
        firmware: str | None = None,
        battery_mv: int | None = 4500,
        lid_open: bool = False,
        config: dict | None = None,
    ):
        self.outcomes: deque[Outcome] = deque(_checked(o) for o in outcomes)
        self.presses = presses
        self.cards = cards
        self.firmware = firmware
        self.battery_mv = battery_mv
        self.lid_open = lid_open
        self.fires: list[FireResult] = []
        self.beeps: list[str] = []
        self.cards_counted = 0
        self.closed = False
        self.config = config
        self.configured: dict[str, int] = {}
        self.remembered: dict[int, FireResult] = {}
        self.standalone: list[FireResult] = []

    def queue(self, *outcomes: Outcome) -> None:
        self.outcomes.extend(_checked(o) for o in outcomes)

    def press_button(self, times: int = 1) -> None:
        """A press the caller makes, as the simulator's virtual button."""
        self.presses += times

    def fire(self, n: int, fire_id: int | None = None) -> FireResult:
        check_count(n)
        if self.lid_open:
            result = FireResult(n, 0, "lid")
        elif self.outcomes:
            result = _result(n, self.outcomes.popleft())
        else:
            result = FireResult(n, n, None)
        if self.cards is not None:
            if result.fired > self.cards:
                result = FireResult(n, self.cards, "empty")
            self.cards -= result.fired
        self.cards_counted += result.fired
        self.fires.append(result)
        if fire_id is not None:
            self.remembered[fire_id] = result
        return result

    def fire_result(self, fire_id: int) -> FireResult | None:
        return self.remembered.get(fire_id)

    def take_standalone_fires(self) -> list[FireResult]:
        taken, self.standalone = self.standalone, []
        return taken

    def configure(self, values: dict[str, int]) -> None:
        self.configured.update(values)

    def beep(self, pattern: str) -> None:
        self.beeps.append(check_pattern(pattern))

    def status(self) -> LauncherStatus:
        faults = ["lid"] if self.lid_open else []
        return LauncherStatus(
            connected=not self.closed,
            firmware=self.firmware,
            cards_counted=self.cards_counted,
            battery_mv=self.battery_mv,
            lid_open=self.lid_open,
            faults=faults,
        )

    def wait_press(self, timeout: float | None = None) -> bool:
        if self.presses <= 0:
            return False
        self.presses -= 1
        return True

    def close(self) -> None:
        self.closed = True


def _checked(outcome: Outcome) -> Outcome:
    fault = outcome if isinstance(outcome, str) else None
    if isinstance(outcome, tuple):
        fault = outcome[1]
    if fault is not None and fault not in FAULTS:
        raise ValueError(f"unknown fault {fault!r} in script; use one of: {', '.join(FAULTS)}")
    return outcome


def _result(n: int, outcome: Outcome) -> FireResult:
    if isinstance(outcome, FireResult):
        return FireResult(n, outcome.fired, outcome.fault, dict(outcome.details))
    if isinstance(outcome, str):
        return FireResult(n, 0, outcome)
    if isinstance(outcome, tuple):
        return FireResult(n, outcome[0], outcome[1])
    return FireResult(n, outcome, None)
