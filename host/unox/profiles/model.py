"""How many cards one press fires: a hazard over presses since the last firing, and a count per firing.

The real launcher is not memoryless: after it fires, the next press rarely fires again, and it never goes
more than five presses without firing (RULES, "The launcher as players know it"). A hazard table captures
that: `fire_hazard[k-1]` is the chance that the k-th press since the last firing fires. The last entry is
always 1, so pressing until it fires (Wild Hit-Fire, A8) ends within `max_gap` presses.
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass


class ProfileError(ValueError):
    """A bad profile name or a bad custom profile value; the message says what to use instead."""


@dataclass(frozen=True)
class ProfileSpec:
    """An eject profile's parameters: validated once, then shared by every launcher that uses it."""

    name: str
    fire_hazard: tuple[float, ...]
    card_min: int
    card_max: int
    card_means: tuple[float, ...]
    description: str = ""

    @property
    def max_gap(self) -> int:
        return len(self.fire_hazard)

    def gap_shares(self) -> tuple[float, ...]:
        """The share of firings that come k presses after the previous one, from the hazard alone."""
        shares, alive = [], 1.0
        for hazard in self.fire_hazard:
            shares.append(alive * hazard)
            alive *= 1.0 - hazard
        return tuple(shares)

    def expected_cards_per_fire(self) -> float:
        return sum(s * m for s, m in zip(self.gap_shares(), self.card_means, strict=True))


def shifted_binomial_cdf(low: int, high: int, mean: float) -> tuple[float, ...]:
    """Cumulative chances of low..high cards: low + Binomial(high - low, p), whose mean is exactly `mean`.

    A binomial keeps every count in range, peaks near the mean and needs nothing but the mean to fit.
    """
    span = high - low
    if span == 0:
        return (1.0,)
    p = (mean - low) / span
    cdf, total = [], 0.0
    for k in range(span + 1):
        total += math.comb(span, k) * p**k * (1.0 - p) ** (span - k)
        cdf.append(total)
    cdf[-1] = 1.0
    return tuple(cdf)


class EjectProfile:
    """One launcher's eject logic: remembers presses since the last firing, so keep one per launcher."""

    def __init__(self, spec: ProfileSpec, rng: random.Random | None = None):
        self.spec = spec
        self.name = spec.name
        self.rng = rng if rng is not None else random.SystemRandom()
        self.presses_since_fire = 0
        self.last_fired = False
        self._cdfs = tuple(shifted_binomial_cdf(spec.card_min, spec.card_max, m) for m in spec.card_means)

    @property
    def max_gap(self) -> int:
        """The most presses in a row that can pass without a firing (the last one always fires)."""
        return self.spec.max_gap

    def next_count(self, available: int, *, must_fire: bool = False) -> int:
        """Cards one press fires: 0 for nothing, never more than `available`.

        `must_fire=True` makes this press fire whatever the hazard says. When the launcher is empty
        (`available` 0) a firing still runs the motor and resets the gap, but gives 0 cards: reload (R2).
        """
        if available < 0:
            raise ProfileError(f"available cards must be 0 or more, not {available}")
        gap = self.presses_since_fire
        fires = must_fire or self.rng.random() < self.spec.fire_hazard[gap]
        self.last_fired = fires
        if not fires:
            self.presses_since_fire = gap + 1
            return 0
        self.presses_since_fire = 0
        count = self.spec.card_min + bisect.bisect_right(self._cdfs[gap], self.rng.random())
        return min(count, available)

    def until_fire(self, available: int) -> list[int]:
        """Press until the launcher fires (Wild Hit-Fire): the count of each press, the last one fired.

        Ends within `max_gap` presses because the hazard's last entry is 1.
        """
        counts = [self.next_count(available)]
        while not self.last_fired:
            counts.append(self.next_count(available))
        return counts

    def reset(self) -> None:
        """Forget the presses since the last firing, as a launcher that was just reloaded."""
        self.presses_since_fire = 0
        self.last_fired = False

    def __repr__(self) -> str:
        return f"EjectProfile({self.name!r}, max_gap={self.max_gap})"
