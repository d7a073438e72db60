"""Calibration: measure what a card needs on this launcher and turn it into firmware settings.

1. Duty sweep: one card at rising PWM duty until one comes out; that is the lowest duty that feeds.
2. `cards` single-card fires at the working duty: the motor time one card needs (fire time minus the
   reverse pulse and the settle wait), and the beam block time where the driver sees the beam.
3. One three-card fire: the period from one card to the next.
Each run refines the stored means, weighted by the samples behind them. From the means: a jam timeout
with margin (`card_ms`), an exit timeout (`exit_ms`) and a duty with headroom (`duty`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from unoxfw.settings import LIMITS

from unox.launcher.base import FireResult, Launcher, LauncherError
from unox.words import counted

SWEEP = (20, 30, 40, 50, 60, 70, 80, 90, 100)
DUTY_HEADROOM = 30  # percent above the lowest working duty: worn rollers and a sagging pack still feed
TIMEOUT_MARGIN = 2.5
PERIOD_CARDS = 3


class CalibrationError(LauncherError):
    """A fire failed during calibration; nothing was written. The message names the fault and its fix."""


# What to do about each fault met while calibrating: the same faults as at a table, another next step.
CALIBRATION_ACTIONS: dict[str, str] = {
    "jam": "a card jammed (not counted): open the lid, take out the wedged card, close the lid",
    # One-card fires cannot tell a snagged last card from a wedged one (docs/protocol.md): both are STUCK.
    "stuck": "a card stopped in the exit slot, in the beam (snagged or wedged: a one-card fire cannot tell "
    "which): pull it out, or open the lid and take it out if it will not come; check the slot is clear",
    "empty": "no card came out: load the launcher (this run fires about {cards} cards)",
    "lid": "the lid is open: close it",
    "battery": "the batteries are too low to fire: fit 3 fresh C cells (4.5 V)",
    "link": "the launcher stopped answering: check its USB cable or wiring",
}
AGAIN = "then run `unox calibrate` again"


def fault_message(fault: str, *, cards: int, where: str = "") -> str:
    """`calibration stopped<where>: stuck (a card is stuck ...; then run ... again)`."""
    action = CALIBRATION_ACTIONS.get(fault, f"the launcher reported {fault!r}: check it with `unox diagnose`")
    return f"calibration stopped{where}: {fault} ({action.format(cards=cards)}; {AGAIN})"


@dataclass
class Measurements:
    min_duty: int = 0
    feed_ms: list[float] = field(default_factory=list)
    block_ms: list[float] = field(default_factory=list)
    period_ms: float | None = None
    fired: int = 0  # every card this run fired: the sweep's, the `cards` single fires and the period's


def _fire(launcher: Launcher, n: int, step: Callable[[], None], found: Measurements) -> FireResult:
    result = launcher.fire(n)
    found.fired += result.fired
    step()
    return result


def cards_fired(cards: int) -> int:
    """The cards a run fires when nothing fails and the first sweep duty feeds: 1 + `cards` + 3 (a weak
    motor's sweep fires no card until its duty feeds one, so this is also the usual count)."""
    return 1 + cards + PERIOD_CARDS


def measure(launcher: Launcher, firmware: dict, cards: int, step: Callable[[], None] = lambda: None
            ) -> Measurements:
    """Runs the three phases; `step()` is called after every fire (for a progress bar)."""
    found = Measurements()
    needed = cards_fired(cards)
    for duty in SWEEP:
        launcher.configure({"duty": duty})
        result = _fire(launcher, 1, step, found)
        if result.fired == 1 and result.fault is None:
            found.min_duty = duty
            break
        if result.fault not in (None, "empty", "jam"):  # a weak motor looks empty or jammed; others do not
            raise CalibrationError(fault_message(result.fault, cards=needed, where=f" at duty {duty} %"))
    else:
        last = result.fault or "empty"
        if last == "empty":
            raise CalibrationError(
                f"calibration stopped: no card came out even at 100 % duty: load the launcher (this run "
                f"fires about {counted(needed, 'card')}), check the motor wiring and the pack; {AGAIN}")
        raise CalibrationError(fault_message(last, cards=needed, where=" at 100 % duty"))
    working = min(100, found.min_duty + DUTY_HEADROOM)
    launcher.configure({"duty": working})
    overhead = firmware["reverse_ms"] + firmware["settle_ms"]
    for _ in range(cards):
        result = _checked(_fire(launcher, 1, step, found), 1, needed)
        found.feed_ms.append(max(1.0, result.details.get("fire_ms", 0) - overhead))
        if "block_ms" in result.details:
            found.block_ms.append(result.details["block_ms"])
    result = _checked(_fire(launcher, PERIOD_CARDS, step, found), PERIOD_CARDS, needed)
    single = sum(found.feed_ms) / len(found.feed_ms) + overhead
    found.period_ms = max(1.0, (result.details.get("fire_ms", 0) - single) / (PERIOD_CARDS - 1))
    return found


def _checked(result: FireResult, n: int, needed: int) -> FireResult:
    if result.fault:
        raise CalibrationError(fault_message(result.fault, cards=needed))
    if result.fired > n:
        raise CalibrationError(
            f"calibration stopped: a double feed ({counted(result.fired, 'card')} came out for {n}): fan the "
            f"cards so they do not cling together and reload them; {AGAIN}")
    if result.fired < n:
        raise CalibrationError(
            f"calibration stopped: {result.fired} of {counted(n, 'card')} came out and no fault was "
            f"reported: check the beam with `unox diagnose`; {AGAIN}")
    return result


def _mean(old: float, old_n: int, new: list[float]) -> float:
    return (old * old_n + sum(new)) / (old_n + len(new))


def refine(config: dict, found: Measurements) -> dict:
    """A new config: running means over all samples so far, and the firmware settings derived from them."""
    cal, fw = dict(config["calibration"]), dict(config["firmware"])
    old_n, new_n = int(cal["samples"]), len(found.feed_ms)
    cal["feed_ms"] = _mean(cal["feed_ms"], old_n, found.feed_ms)
    cal["duty"] = _mean(cal["duty"], old_n, [found.min_duty] * new_n)
    cal["period_ms"] = _mean(cal["period_ms"], old_n, [found.period_ms or 0.0] * new_n)
    if found.block_ms:
        blocks = found.block_ms + [cal["block_ms"]] * (old_n if cal["block_ms"] else 0)
        cal["block_ms"] = sum(blocks) / len(blocks)
    cal["samples"] = old_n + new_n
    worst = max(cal["feed_ms"], cal["period_ms"], *found.feed_ms)
    fw["card_ms"] = _clamp("card_ms", TIMEOUT_MARGIN * worst)
    fw["exit_ms"] = _clamp("exit_ms", 3 * (cal["block_ms"] or cal["period_ms"]))
    fw["duty"] = _clamp("duty", cal["duty"] + DUTY_HEADROOM)
    return {**config, "calibration": cal, "firmware": fw}


def _clamp(key: str, value: float) -> int:
    _, low, high = LIMITS[key]
    return max(low, min(high, math.ceil(value)))


def fires_needed(cards: int) -> int:
    """The most fires a run can take (for the progress bar)."""
    return len(SWEEP) + cards + 1
