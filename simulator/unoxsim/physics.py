"""The card launcher's physics: hopper, roller, card path, IR beam, faults, lid and button.

Geometry and speeds (typical values for the UNO Extreme launcher; every one is a `LauncherGeometry` field):
- A card is 87 mm long (UNO cards are 56 x 87 mm) and is fed long edge first.
- The roller drives the bottom card out of the stack; its leading edge reaches the IR beam at the exit slot
  after 60 mm, and the card leaves the roller's nip 6 mm before its trailing edge clears the beam.
- The roller's surface moves at 2.0 mm/ms at free speed on a 4.5 V pack, so a card blocks the beam for
  ~45 ms and the beam sees ~30 ms of light between cards. Slower with a weak pack or a low PWM duty (L5).
- Only one card is in the nip at a time: the next card is picked once the previous one has left the nip,
  after the roller has slipped 2..12 mm under it. So when card n clears the beam, card n+1 is still
  >= 54 mm behind it. A coasting roller carries it out (an extra card); braking alone is marginal; a short
  reverse pulse pulls it back into the stack. That is why the firmware reverses after the last card.

Faults, each a probability per card picked, all drawn from one `random.Random(seed)`:
- `double`: the card above is dragged along, shingled 30..70 % of a card behind; both leave together and
  the beam sees ONE long block (1.3..1.7 card lengths). Firmware that measures block lengths can tell.
- `jam`: the card wedges in the exit slot, in the beam, while the roller still grips it, and holds the
  roller (the motor stalls and draws ~1.7 A, which sags a 4.5 V pack by ~0.8 V, visible on the battery
  ADC). A reverse of >= 3 mm frees it with probability `unjam` (it is pulled back into the stack);
  otherwise it stays wedged until the lid is opened and closed (`clear_jam()`: back on the stack) or a
  player pulls it out of the slot (`take_stuck()`: ejected). The beam stays blocked meanwhile, which is
  how the firmware tells a jam from an empty hopper.
- `stuck`: the card snags in the slot as it leaves the nip and stays in the beam until someone takes it
  (`take_stuck()`; T4: it belongs to the presser). The next card jams behind it (`behind_stuck`), out of
  the beam; `clear_jam()` then puts both back on the stack. A card also stays in the slot if the roller
  stops while the card is still in the nip, or lets it go too slowly to fly.
- An empty hopper: the roller turns freely (no-load current) and nothing reaches the beam (L4).
Safety bookkeeping for tests: the longest motor run and the motor time with the lid open.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from unoxsim.motor import BatteryPack, Motor

HOPPER_CAPACITY = 112  # a whole UNO Extreme deck


@dataclass
class LauncherGeometry:
    card_mm: float = 87.0
    beam_mm: float = 60.0
    nip_to_beam_mm: float = 6.0
    roller_mm_per_ms: float = 2.0
    pickup_slip_mm: tuple[float, float] = (2.0, 12.0)
    double_offset: tuple[float, float] = (0.3, 0.7)
    unjam_reverse_mm: float = 3.0
    fling_mm_per_ms: float = 0.2  # slower than this when the nip lets go, the card stays in the slot


@dataclass
class FaultRates:
    """Probabilities per card picked (0..1)."""

    jam: float = 0.0
    double: float = 0.0
    stuck: float = 0.0
    unjam: float = 0.5

    def __post_init__(self) -> None:
        for name in ("jam", "double", "stuck", "unjam"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name}={value}: a probability must be between 0 and 1")


@dataclass
class Card:
    """One card (or a double-fed pair) on its way out. `pos` is the leading edge's travel in mm."""

    count: int
    length: float
    jam_at: float | None
    snags: bool
    pos: float = 0.0
    free_speed: float | None = None  # mm/ms once out of the nip; None while the roller drives it
    jammed: bool = False
    stuck: bool = False
    behind_stuck: bool = False
    reverse_mm: float = 0.0


@dataclass
class LauncherModel:
    """Cards, roller, beam and faults. Call `step(dt_ms, in1, in2)` with the H-bridge inputs' duties."""

    cards: int = 83
    seed: int = 0
    faults: FaultRates = field(default_factory=FaultRates)
    geometry: LauncherGeometry = field(default_factory=LauncherGeometry)
    battery: BatteryPack = field(default_factory=BatteryPack)
    motor: Motor = field(default_factory=Motor)
    lid_open: bool = False
    button_down: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.cards <= HOPPER_CAPACITY:
            raise ValueError(f"cards={self.cards}: the hopper holds 0..{HOPPER_CAPACITY} cards")
        self.rng = random.Random(self.seed)
        self.hopper = self.cards
        self.loaded = self.cards
        self.path: list[Card] = []
        self.ejected = 0
        self.picked = 0
        self.fault_counts = {"jam": 0, "double": 0, "stuck": 0}
        self.now_ms = 0
        self._pick_travel = 0.0
        self._pick_slip = self._draw_slip()
        self._run_start: int | None = None
        self.longest_run_ms = 0
        self.lid_open_motor_ms = 0

    # -- what the sensors see ---------------------------------------------------------------------------
    def beam_blocked(self) -> bool:
        return any(self._in_beam(c) for c in self.path)

    def _in_beam(self, card: Card) -> bool:
        beam = self.geometry.beam_mm
        return card.pos >= beam and card.pos - card.length < beam

    def stuck_in_slot(self) -> int:
        return sum(c.count for c in self.path if c.stuck)

    def past_beam(self) -> int:
        """Cards stopped with their front past the beam and not jammed: they stick out of the slot for the
        presser, so FIRED k counts them ("What FIRED k counts", docs/protocol.md)."""
        beam = self.geometry.beam_mm
        return sum(c.count for c in self.path if c.pos >= beam and not c.jammed)

    def jammed(self) -> bool:
        return any(c.jammed for c in self.path)

    def in_path(self) -> int:
        return sum(c.count for c in self.path)

    def moving(self) -> bool:
        """True while anything can still change without new input (skip big idle steps then)."""
        return self.motor.speed != 0.0 or any(c.free_speed for c in self.path if not c.stuck)

    def quiet_ms(self, applied: float) -> float:
        """A lower bound on the time until the beam, a nip or a pick can next change, while the bridge
        applies `applied` (-1..1): the device takes longer steps when nothing can happen sooner."""
        geo = self.geometry
        reach = max(abs(self.motor.speed), 1.2 * abs(applied) * self.battery.open_mv / self.motor.nominal_mv)
        roller = max(reach * geo.roller_mm_per_ms, 1e-6)
        nip_busy = any(c.free_speed is None and not c.stuck for c in self.path)
        forward = applied > 0 or self.motor.speed > 0
        if self.motor.speed > 0.05 and any(c.jammed for c in self.path):
            return 1.0  # a held roller stops within a few ms: the battery ADC sees its stall current at once
        gaps = [self._pick_slip - self._pick_travel] if forward and self.hopper and not nip_busy else []
        tails = [c.pos - c.length for c in self.path if c.stuck]  # where the next card jams behind one
        for card in self.path:
            if card.stuck or card.jammed:
                continue
            marks = (geo.beam_mm, geo.beam_mm + card.length, geo.beam_mm + card.length - geo.nip_to_beam_mm,
                     card.jam_at or 0.0, 0.0, *tails)
            gaps.extend(abs(mark - card.pos) for mark in marks)
            if card.free_speed:
                roller = max(roller, card.free_speed)
        return min(gaps, default=float("inf")) / roller

    # -- people ---------------------------------------------------------------------------------------------
    def load(self, n: int) -> None:
        if n < 0 or self.hopper + n > HOPPER_CAPACITY:
            raise ValueError(f"cannot load {n} cards: the hopper holds {self.hopper} of {HOPPER_CAPACITY}")
        self.hopper += n
        self.loaded += n

    def take_stuck(self) -> int:
        """A player pulls the card(s) sticking out of the slot; they count as ejected (T4). That is a card
        snagged in the slot, and a card jammed in the beam too: when the last card of a fire wedges and no
        reverse pulse frees it, all `n` are counted and the firmware reports STUCK, so the presser takes that
        one the same way."""
        taken = [c for c in self.path if c.stuck or (c.jammed and self._in_beam(c))]
        for card in taken:
            self.path.remove(card)
            self.ejected += card.count
        for card in self.path:
            if card.behind_stuck:
                card.jammed = card.behind_stuck = False
        return sum(c.count for c in taken)

    def clear_jam(self) -> int:
        """Lid opened: jammed cards go back on the stack, and with them a stuck card that a jammed one is
        behind (the beam cannot tell it from a wedged card: the firmware reports a JAM wedged and does not
        count it). Returns how many cards went back."""
        back = [c for c in self.path if c.jammed]
        if any(c.behind_stuck for c in back):
            back += [c for c in self.path if c.stuck]
        for card in back:
            self.path.remove(card)
            self.hopper += card.count
        return sum(c.count for c in back)

    # -- time ---------------------------------------------------------------------------------------------
    def step(self, dt_ms: int, in1: float, in2: float) -> None:
        applied, brake = in1 - in2, min(in1, in2)
        held = any(c.jammed for c in self.path)
        self.motor.step(dt_ms, applied, brake, self.battery, held)
        self._bookkeep(dt_ms, applied)
        travel = self.motor.speed * self.geometry.roller_mm_per_ms * dt_ms
        self._move_cards(travel, dt_ms)
        if travel > 0:
            self._maybe_pick(travel)
        self.now_ms += dt_ms

    def _bookkeep(self, dt_ms: int, applied: float) -> None:
        if applied != 0:
            if self._run_start is None:
                self._run_start = self.now_ms
            self.longest_run_ms = max(self.longest_run_ms, self.now_ms + dt_ms - self._run_start)
            if self.lid_open:
                self.lid_open_motor_ms += dt_ms
        else:
            self._run_start = None

    def _move_cards(self, travel: float, dt_ms: int) -> None:
        geo = self.geometry
        for card in list(self.path):
            if card.stuck:
                continue
            if card.jammed:
                self._try_unjam(card, travel)
                continue
            if card.free_speed is not None:
                card.pos += card.free_speed * dt_ms
            else:
                card.pos += travel
                self._nip_events(card, travel)
                if not card.stuck:
                    self._blocked_by_stuck(card)
            if card.pos <= 0:
                self.path.remove(card)
                self.hopper += card.count  # pulled back into the stack
            elif card.pos - card.length >= geo.beam_mm:
                self.path.remove(card)
                self.ejected += card.count

    def _nip_events(self, card: Card, travel: float) -> None:
        geo = self.geometry
        if card.jam_at is not None and travel > 0 and card.pos >= card.jam_at:
            card.pos, card.jam_at, card.jammed = card.jam_at, None, True
            return
        release = geo.beam_mm + card.length - geo.nip_to_beam_mm
        if card.pos < release:
            return
        if card.snags:
            card.pos = release + self.rng.uniform(0.0, geo.nip_to_beam_mm - 1.0)
            card.stuck = True
        elif self.motor.speed * geo.roller_mm_per_ms < geo.fling_mm_per_ms:
            card.pos, card.stuck = release, True
        else:
            card.free_speed = self.motor.speed * geo.roller_mm_per_ms

    def _blocked_by_stuck(self, card: Card) -> None:
        """A card stuck in the slot stops the next one short of the beam: that one jams behind it."""
        for other in self.path:
            if other is not card and other.stuck and card.pos >= other.pos - other.length:
                card.pos, card.jammed, card.jam_at = other.pos - other.length - 0.1, True, None
                card.behind_stuck = True
                return

    def _try_unjam(self, card: Card, travel: float) -> None:
        if travel >= 0:
            card.reverse_mm = 0.0
            return
        before = card.reverse_mm
        card.reverse_mm -= travel
        if before < self.geometry.unjam_reverse_mm <= card.reverse_mm:
            if self.rng.random() < self.faults.unjam:
                card.jammed = False
                card.pos += travel

    def _maybe_pick(self, travel: float) -> None:
        if self.hopper == 0 or any(c.free_speed is None and not c.stuck for c in self.path):
            return
        self._pick_travel += travel
        if self._pick_travel < self._pick_slip:
            return
        self._pick_travel, self._pick_slip = 0.0, self._draw_slip()
        self.path.append(self._new_card())

    def _new_card(self) -> Card:
        geo, faults, rng = self.geometry, self.faults, self.rng
        count, length = 1, geo.card_mm
        if self.hopper >= 2 and rng.random() < faults.double:
            count, length = 2, geo.card_mm * (1 + rng.uniform(*geo.double_offset))
            self.fault_counts["double"] += 1
        jam_at = None
        if rng.random() < faults.jam:
            jam_at = rng.uniform(geo.beam_mm + 5.0, geo.beam_mm + length - geo.nip_to_beam_mm - 5.0)
            self.fault_counts["jam"] += 1
        snags = rng.random() < faults.stuck
        if snags:
            self.fault_counts["stuck"] += 1
        self.hopper -= count
        self.picked += count
        return Card(count=count, length=length, jam_at=jam_at, snags=snags)

    def _draw_slip(self) -> float:
        return self.rng.uniform(*self.geometry.pickup_slip_mm)
