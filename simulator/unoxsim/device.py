"""The virtual launcher: fake `machine`, launcher physics and the REAL firmware, on virtual time.

`VirtualDevice(seed=1, cards=83, jam=0.01)` builds a `VirtualBoard`, a `LauncherModel` and boots the
firmware exactly as `firmware/main.py` does, in the same order: the watchdog armed first
(`machine.WDT(timeout=runner.WDT_MS)`), then `unoxfw.runner.boot`, then `runner.step` every loop.
`advance(ms)` moves virtual time in steps of up to 10 ms while anything moves (shorter as a beam edge, a
pick, a nip release or a card's jam behind a stuck one nears, so every edge lands on its own millisecond;
1 ms while a jammed card stops a turning roller, so the battery ADC shows the stall when it comes),
`idle_step` ms otherwise, 1 ms right after an input changed or bytes arrived, never past a scheduled event.
The firmware asks for a tick every 1-10 ms. Nothing sleeps.

The host side is `host_write()` / `host_read()` (the `sim://` port uses them). Faults: the physics'
per-card rates, the cable's per-frame rates, electrical noise on the beam line (`glitch`: the probability per
ms, while the bridge drives the motor, of a 0.2 ms spurious edge pair inside one firmware tick: a low on a
clear beam, which an edge-counting firmware takes for a card, or a high inside a card, which one that starts
a block at every falling edge counts twice), and the people around it:
`press_button()`, `open_lid()`, `set_battery()`, `take_stuck()`, `unplug()`, `power_cycle()`, `freeze()`
(a hung firmware loop).
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable
from typing import Any

from unoxsim.clock import VirtualClock
from unoxsim.machine import PWRON_RESET, MachineReset, VirtualBoard
from unoxsim.physics import FaultRates, LauncherModel
from unoxsim.usb import UsbCable

WDT_TIMEOUT_MS = 5000  # as firmware/main.py (unoxfw.runner.WDT_MS), armed first thing at boot
BOUNCE_MS = 1  # contact chatter: one edge per ms
PRESS_GAP_MS = 60  # a finger needs this long between releasing the button and pressing it again
BUSY_STEP_MS = 10  # longest step while the motor or a card moves; shorter when a beam edge is near


class _BoardIO:
    """What the firmware gets as `io`: the board's end of the USB cable."""

    def __init__(self, cable: UsbCable) -> None:
        self._cable = cable

    def read(self) -> bytes:
        return self._cable.board_read()

    def write(self, data: bytes) -> None:
        self._cable.board_write(data)


class VirtualDevice:
    """One simulated launcher running the real firmware. All randomness comes from `seed`."""

    def __init__(self, *, seed: int = 0, cards: int = 83, jam: float = 0.0, double: float = 0.0,
                 stuck: float = 0.0, unjam: float = 0.5, battery_mv: float = 4500.0, drain: float = 0.0625,
                 lid: str = "shut", bounce: int = 2, drop: float = 0.0, corrupt: float = 0.0,
                 dup: float = 0.0, idle_step: int = 10, config: dict[str, int] | None = None,
                 glitch: float = 0.0) -> None:
        if lid not in ("open", "shut"):
            raise ValueError(f"lid={lid!r}: use 'open' or 'shut'")
        if not 0 <= bounce <= 10:
            raise ValueError(f"bounce={bounce}: chatter edges per press must be 0..10")
        if not 1 <= idle_step <= 100:
            raise ValueError(f"idle_step={idle_step}: use 1..100 ms")
        if not 0.0 <= glitch <= 1.0:
            raise ValueError(f"glitch={glitch}: a probability per ms must be between 0 and 1")
        self.glitch = glitch
        self.glitches = 0  # spurious edges put on the beam line so far (lows on a clear beam, and highs)
        self.clear_glitches = 0  # of those, the highs inside a card (the beam lit for a moment)
        self._glitch_rng = random.Random(f"{seed}:glitch")  # its own stream: the faults' draws stay the same
        self._dt = 0
        self.seed, self.bounce, self.idle_step, self.config = seed, bounce, idle_step, config
        self.clock = VirtualClock()
        self.model = LauncherModel(cards=cards, seed=seed, faults=FaultRates(jam, double, stuck, unjam))
        if not 0 < battery_mv <= 7000:
            raise ValueError(f"battery_mv={battery_mv}: a 3 x C pack reads 1..7000 mV")
        self.model.battery.set_open_mv(battery_mv)
        self.model.battery.drain_mv_per_as = drain
        self.model.lid_open = lid == "open"
        self.cable = UsbCable(seed, drop=drop, corrupt=corrupt, dup=dup)
        self.board = VirtualBoard(self.clock, seed=seed)
        self._pins, self._divider = self._pin_map()
        self._in1, self._in2, self._beam, self._button, self._lid = (
            self.board.wire(self._pins[name]) for name in ("motor_in1", "motor_in2", "beam", "button", "lid"))
        self._kick = False
        self._button_free_at = -PRESS_GAP_MS
        self.board.set_adc_source(self._pins["battery_adc"] - 26,
                                  lambda: self.model.battery.terminal_mv * self._divider)
        self._events: list[tuple[int, int, bool, Callable[[], None]]] = []  # (when, order, physical, action)
        self._order = itertools.count()
        self.frozen = False
        self.boots = 0
        self._boot(PWRON_RESET)

    # -- boot -------------------------------------------------------------------------------------
    @staticmethod
    def _pin_map() -> tuple[dict[str, int], float]:
        from unoxfw.pins import BATTERY, PINS

        return dict(PINS), BATTERY["r_bottom_ohm"] / (BATTERY["r_top_ohm"] + BATTERY["r_bottom_ohm"])

    def _boot(self, cause: int) -> None:
        from unoxfw import runner
        from unoxfw.pins import PINS

        if self.boots:
            self.board.hardware_reset(cause)
            self.cable.reset()
            self._events = [event for event in self._events if event[2]]  # a reboot forgets its own plans
            heapq.heapify(self._events)
        self.boots += 1
        self.frozen = False
        self._apply_sensors()
        io = _BoardIO(self.cable)
        machine = self.board.machine
        for pin in (PINS["motor_in1"], PINS["motor_in2"]):  # main.py's first statements: the motor pins low
            machine.Pin(pin, machine.Pin.OUT, value=0)
        wdt = machine.WDT(timeout=runner.WDT_MS)  # then the watchdog, before anything else
        self._fw: tuple[Any, Any] = runner.boot(machine, io, self.clock.now_ms(), wdt, self.config,
                                                ticks=self.clock.now_ms)

    @property
    def firmware_board(self) -> Any:
        return self._fw[0]

    @property
    def app(self) -> Any:
        return self._fw[1]

    # -- time ---------------------------------------------------------------------------------------
    def now_ms(self) -> int:
        return self.clock.now_ms()

    def schedule(self, delay_ms: int, action: Callable[[], None], *, physical: bool = False) -> None:
        """Run `action` at now + delay_ms. Physical events (a finger on the button) survive a reboot."""
        heapq.heappush(self._events, (self.clock.now_ms() + delay_ms, next(self._order), physical, action))

    def advance(self, ms: int) -> None:
        """Run the launcher for `ms` virtual milliseconds."""
        self.advance_until(ms, lambda: False)

    def advance_until(self, ms: int, done: Callable[[], bool]) -> bool:
        """Run for up to `ms` virtual ms, stopping after the first step at which `done()` holds."""
        clock = self.clock
        end = clock.now_ms() + ms
        while True:
            if self._events and self._events[0][0] <= clock.now_ms():
                self._guarded(self._run_due_events)
            if done():
                return True
            now = clock.now_ms()
            if now >= end:
                return False
            self._step(self._step_size(end - now))

    def _step_size(self, left: int) -> int:
        if self._kick or self.cable.to_board.pending():
            self._kick = False
            return 1  # an input just changed or bytes wait: the firmware's next loop comes at once
        step = min(left, self.idle_step)
        if self._busy():
            applied = self._in1.drive() - self._in2.drive()
            step = min(step, BUSY_STEP_MS, max(1, int(min(self.model.quiet_ms(applied), BUSY_STEP_MS))))
        deadline = self.board.next_deadline()
        if deadline is not None:
            step = min(step, max(1, deadline - self.clock.now_ms()))
        if self._events:
            step = min(step, max(1, self._events[0][0] - self.clock.now_ms()))
        return step

    def _busy(self) -> bool:
        return self.model.moving() or self._in1.drive() > 0 or self._in2.drive() > 0

    def _step(self, dt: int) -> None:
        in1, in2 = self._in1.drive(), self._in2.drive()
        self.clock.advance(dt)
        self.model.step(dt, in1, in2)
        self._dt = dt if in1 > 0 or in2 > 0 else 0
        self._guarded(self._tick)

    def _tick(self) -> None:
        self._apply_sensors()
        if self.glitch and self._dt:
            self._glitch_beam(self._dt)
        self.board.run_timers()
        if not self.frozen:
            from unoxfw import runner

            runner.step(self._fw[0], self._fw[1], self.clock.now_ms())
        self.board.check_watchdog()

    def _run_due_events(self) -> None:
        while self._events and self._events[0][0] <= self.clock.now_ms():
            heapq.heappop(self._events)[3]()
            self._kick = True

    def _guarded(self, work: Callable[[], None]) -> None:
        try:
            work()
        except MachineReset as reset:
            self._boot(reset.cause)

    def _glitch_beam(self, dt: int) -> None:
        """Spurious edges drawn for each ms the motor ran, each over before the firmware's next tick: a low
        on a clear beam (a phantom card if counted), or a high inside a card (the beam lit for a moment: the
        card counted twice if a new block started there)."""
        flips = sum(1 for _ in range(dt) if self._glitch_rng.random() < self.glitch)
        if not flips:
            return
        blocked = self.model.beam_blocked()
        for _ in range(flips):
            self.glitches += 1
            if blocked:
                self.clear_glitches += 1
                self._beam.set_external(None)
                self._beam.set_external(0)
            else:
                self._beam.set_external(0)
                self._beam.set_external(None)

    def _apply_sensors(self) -> None:
        model = self.model
        self._beam.set_external(0 if model.beam_blocked() else None)
        self._button.set_external(0 if model.button_down else None)
        self._lid.set_external(None if model.lid_open else 0)

    # -- people and cables -----------------------------------------------------------------------------
    def press_button(self, hold_ms: int = 120) -> None:
        """A finger on the front button for `hold_ms`, with `bounce` chatter edges on press and release.
        A press while the button is still held from the last one starts after that one's release."""
        if hold_ms < 2 * self.bounce + 2:
            raise ValueError(f"hold_ms={hold_ms}: too short for {self.bounce} bounce edges")
        start = max(0, self._button_free_at + PRESS_GAP_MS - self.clock.now_ms())
        for i in range(2 * self.bounce + 1):
            self.schedule(start + i * BOUNCE_MS, self._button_setter(i % 2 == 0), physical=True)
        for i in range(2 * self.bounce + 1):
            self.schedule(start + hold_ms + i * BOUNCE_MS, self._button_setter(i % 2 == 1), physical=True)
        self._button_free_at = self.clock.now_ms() + start + hold_ms + 2 * self.bounce * BOUNCE_MS

    def _button_setter(self, down: bool) -> Callable[[], None]:
        def act() -> None:
            self.model.button_down = down
            self._apply_sensors()

        return act

    def open_lid(self) -> None:
        self.model.lid_open = True
        self._guarded(self._apply_sensors)

    def close_lid(self) -> int:
        """Closing the lid after opening it: jammed cards were straightened back onto the stack, and so was
        a stuck card that a jammed one was behind (the firmware reported that as a JAM wedged and did not
        count it). Returns how many cards went back (0 if the lid was not open)."""
        back = self.model.clear_jam() if self.model.lid_open else 0
        self.model.lid_open = False
        self._guarded(self._apply_sensors)
        return back

    def set_battery(self, mv: float) -> None:
        if not 0 < mv <= 7000:
            raise ValueError(f"battery {mv} mV: a 3 x C pack reads 1..7000 mV")
        self.model.battery.set_open_mv(mv)

    def load_cards(self, n: int) -> None:
        self.model.load(n)

    def take_stuck(self) -> int:
        """A player pulls what sticks out of the exit slot (T4): a snagged card, or a card jammed in the
        beam (a last card that wedged: the firmware reported STUCK and counted it). Returns how many."""
        taken = self.model.take_stuck()
        self._guarded(self._apply_sensors)
        return taken

    def unplug(self, *, vanish: bool = False) -> None:
        """Pull the USB cable: no bytes either way. `vanish=True`: the host's port disappears too."""
        self.cable.unplug(vanish=vanish)

    def plug(self) -> None:
        self.cable.plug()

    def power_cycle(self) -> None:
        """Batteries out and in: the firmware reboots; the cards stay where they are."""
        self._boot(PWRON_RESET)

    def freeze(self) -> None:
        """The firmware's main loop hangs (stops ticking and feeding the watchdog) until the next reset."""
        self.frozen = True

    # -- the host's end of the cable ---------------------------------------------------------------------
    def host_write(self, data: bytes) -> None:
        self.cable.host_write(bytes(data))

    def host_read(self, size: int = -1) -> bytes:
        return self.cable.host_read(size)

    def host_pending(self) -> int:
        return self.cable.to_host.pending()

    # -- what tests look at ----------------------------------------------------------------------------
    def wire(self, name: str) -> Any:
        """The pad behind a pin name of hardware/pins.toml (history, level, drive)."""
        return self.board.wire(self._pins[name])

    @property
    def cards_out(self) -> int:
        """Cards that really left the launcher (ground truth, not the beam's count)."""
        return self.model.ejected

    def beeps(self, since_ms: int = 0) -> int:
        """Buzzer starts since `since_ms`."""
        history = self.wire("buzzer").history
        return sum(1 for (t, v), (_, prev) in zip(history[1:], history, strict=False)
                   if t >= since_ms and v > 0 and prev == 0)
