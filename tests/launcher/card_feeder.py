"""A mock launcher mechanism for gpiozero's MockFactory: cards reach the beam while the motor runs forward.

It hooks the test's ManualClock, so it moves exactly when the driver lets virtual time pass.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class CardFeeder:
    """`out` counts the cards that really left (cleared the beam); a card stopped in the beam is `in_slot`."""

    factory: object
    pins: dict
    hopper: int = 83
    card_ms: float = 150.0  # forward motor time before the next card reaches the beam
    block_ms: float = 20.0  # how long a passing card blocks the beam
    wedged_card: int | None = None  # this card (1-based) stops inside the beam and stays
    fed: int = 0  # cards that came off the hopper into the beam
    out: int = 0
    in_slot: int = 0
    forward_s: float = 0.0
    in_beam_until: float | None = None
    last_t: float = 0.0

    def attach(self, clock) -> CardFeeder:
        self.last_t = clock.now()
        clock.hooks.append(self.step)
        return self

    @property
    def beam(self):
        return self.factory.pin(self.pins["beam"])

    def motor_value(self) -> float:
        fwd = self.factory.pin(self.pins["motor_in1"]).state
        back = self.factory.pin(self.pins["motor_in2"]).state
        return float(fwd) - float(back)

    def step(self, t: float) -> None:
        dt, self.last_t = t - self.last_t, t
        if self.in_beam_until is not None:
            if t >= self.in_beam_until:
                self.in_beam_until = None
                self.out += 1  # its trailing edge cleared the beam: it left the launcher
                self.beam.drive_high()
            return
        if self.in_slot or self.motor_value() <= 0:
            return
        self.forward_s += dt
        if self.forward_s * 1000 >= self.card_ms and self.fed < self.hopper:
            self.forward_s = 0.0
            self.fed += 1
            self.beam.drive_low()
            if self.fed == self.wedged_card:
                self.in_slot = 1  # it never leaves the beam by itself
            else:
                self.in_beam_until = t + self.block_ms / 1000
