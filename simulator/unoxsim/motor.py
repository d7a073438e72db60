"""The launcher's power train: the 3 x C battery pack and the DC motor behind an H-bridge.

An average-value model, stepped in whole virtual milliseconds. The numbers are typical values, not
measurements of one launcher; each is a parameter, so `unox calibrate` against a real build can replace them.

Battery (RULES L5: "3 x C cells, 4.5 V"):
- open-circuit voltage 4500 mV nominal (fresh alkaline cells read up to ~4.8 V, flat ones ~3.0 V);
- internal resistance 0.45 ohm for the pack (~0.15 ohm per alkaline C cell at these currents);
- drain 0.0625 mV per ampere-second: an alkaline C cell gives ~8 Ah while its voltage falls by ~0.6 V, so
  the pack loses ~1.8 V over 28,800 As. Tests that want a visibly sagging pack pass a larger `drain`.
- Under load the terminal voltage sags by I x R: a stalled (jammed) roller draws ~1.5 A and pulls the pack
  down by ~0.7 V, a freely turning one ~0.3 A and ~0.15 V. The battery ADC sees this sag.

Motor (a 130-size 3-6 V brushed motor, the kind these toys use):
- free speed proportional to the applied voltage: speed 1.0 = the free speed at 4500 mV;
- winding resistance 2.5 ohm, no-load current 0.25 A;
- spin-up / braking time constant 25 ms while the bridge drives (or shorts) it, 100 ms when it coasts;
- stiction: a stopped motor does not start below 900 mV applied;
- H-bridge (DRV8833 / TB6612FNG): applied = (IN1 duty - IN2 duty) x pack voltage; both inputs high brakes,
  both low coasts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass
class BatteryPack:
    """The motor pack: open-circuit voltage that drains with use, and an internal resistance."""

    open_mv: float = 4500.0
    internal_ohm: float = 0.45
    drain_mv_per_as: float = 0.0625
    flat_mv: float = 2400.0
    terminal_mv: float = field(init=False)
    current_a: float = field(init=False, default=0.0)

    def __post_init__(self) -> None:
        self.terminal_mv = self.open_mv

    def set_open_mv(self, mv: float) -> None:
        self.open_mv = float(mv)
        self.terminal_mv = self.open_mv - self.current_a * self.internal_ohm * 1000

    def draw(self, current_a: float, dt_ms: int) -> None:
        self.current_a = current_a
        self.terminal_mv = self.open_mv - current_a * self.internal_ohm * 1000
        self.open_mv = max(self.flat_mv, self.open_mv - self.drain_mv_per_as * current_a * dt_ms / 1000)


@dataclass
class Motor:
    """A brushed DC motor: signed speed (1.0 = free speed at the nominal voltage) and its current."""

    nominal_mv: float = 4500.0
    resistance_ohm: float = 2.5
    noload_a: float = 0.25
    tau_drive_ms: float = 25.0
    tau_coast_ms: float = 100.0
    tau_held_ms: float = 4.0
    start_mv: float = 900.0
    speed: float = 0.0
    current_a: float = 0.0

    def step(self, dt_ms: int, applied: float, brake: float, battery: BatteryPack, held: bool) -> None:
        """Advance `dt_ms`. `applied` in -1..1 is the bridge's signed duty, `brake` the shorted fraction,
        `held` is True while a jammed card stops the roller turning forwards."""
        self.current_a = self._solve_current(applied, battery)
        battery.draw(self.current_a, dt_ms)
        volts_fraction = applied * battery.terminal_mv / self.nominal_mv
        if held and applied > 0:
            target, tau = 0.0, self.tau_held_ms
        elif applied != 0:
            target, tau = volts_fraction, self.tau_drive_ms
        else:
            target, tau = 0.0, (self.tau_drive_ms if brake > 0 else self.tau_coast_ms)
        if self.speed == 0.0 and abs(applied) * battery.terminal_mv < self.start_mv:
            return  # stiction: too little voltage to break the motor loose
        self.speed += (target - self.speed) * (1.0 - math.exp(-dt_ms / tau))
        if abs(self.speed) < 0.01 and abs(target) < 0.002:
            self.speed = 0.0

    def _solve_current(self, applied: float, battery: BatteryPack) -> float:
        """Pack current with the terminal voltage consistent with it (closed form of V = Voc - I R)."""
        if applied == 0:
            return 0.0
        duty = abs(applied)
        emf_mv = (self.speed if applied > 0 else -self.speed) * self.nominal_mv
        r_in, r_m = battery.internal_ohm, self.resistance_ohm
        noload_mv = self.noload_a * r_in * 1000
        terminal = (battery.open_mv + r_in * emf_mv / r_m - noload_mv) / (1 + r_in * duty / r_m)
        current = (battery.open_mv - terminal) / (r_in * 1000)
        return max(self.noload_a, current)
