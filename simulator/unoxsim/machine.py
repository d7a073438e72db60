"""A fake MicroPython `machine` module on virtual time: what the firmware gets instead of the real one.

`VirtualBoard(clock)` is the simulated RP2040. Its `.machine` attribute is a module object with `Pin`, `PWM`,
`ADC`, `Timer`, `WDT`, `reset()`, `unique_id()`, `freq()`, ... bound to that board, so the firmware's
`Board(machine, pins)` runs unchanged. The simulator side of the board (pads to drive, ADC voltages, the
clock) stays on the `VirtualBoard`.

The watchdog behaves as on the RP2040: 1..8388 ms, cannot be stopped, and a board it was not fed on time
resets (`VirtualBoard.poll()` raises `MachineReset`, which the device turns into a reboot of the firmware).
`machine.reset()` raises the same exception. It derives from BaseException so that the firmware's own
`except Exception:` cannot swallow a reset.
"""

from __future__ import annotations

import random
import types
from collections.abc import Callable
from typing import Any

from unoxsim import gpio
from unoxsim.clock import VirtualClock

PWRON_RESET, WDT_RESET = 1, 3
WDT_MAX_MS = 8388
ADC_REF_MV = 3300
_TEMP_SENSOR_MV = 706  # RP2040 datasheet: 0.706 V at 27 C


class MachineReset(BaseException):
    """The virtual board resets now (watchdog starved or `machine.reset()` called)."""

    def __init__(self, cause: int, why: str) -> None:
        super().__init__(why)
        self.cause = cause


class ADC:
    """`machine.ADC`: GPIO26..29 are channels 0..3, channel 4 is the temperature sensor."""

    _board: Any = None

    def __init__(self, dest: gpio.Pin | int) -> None:
        number = dest._wire.gpio if isinstance(dest, gpio.Pin) else int(dest)
        if 26 <= number <= 29:
            self.channel = number - 26
        elif 0 <= number <= 4:
            self.channel = number
        else:
            raise ValueError(f"ADC needs GPIO26..29 or channel 0..4, got {number}")

    def read_u16(self) -> int:
        return self._board.adc_read_u16(self.channel)


class Timer:
    """`machine.Timer` (virtual): callbacks run when the board's clock passes their deadline."""

    ONE_SHOT, PERIODIC = 0, 1
    _board: Any = None

    def __init__(self, id: int = -1, **kwargs: Any) -> None:
        self.deadline: int | None = None
        self.period = 0
        self.mode = self.PERIODIC
        self.callback: Callable[[Any], None] | None = None
        if kwargs:
            self.init(**kwargs)

    def init(self, *, mode: int = PERIODIC, freq: float = -1, period: int = -1,
             callback: Callable[[Any], None] | None = None, **_ignored: Any) -> None:
        if freq > 0:
            if freq > 1000:
                raise ValueError(f"virtual Timer freq {freq} Hz: the simulator ticks in 1 ms steps, "
                                 "so at most 1000 Hz")
            period = round(1000 / freq)
        if period <= 0:
            raise ValueError("Timer needs period (ms) > 0 or freq (Hz) > 0")
        self.mode, self.period, self.callback = mode, int(period), callback
        self.deadline = self._board.clock.now_ms() + self.period
        self._board.add_timer(self)

    def deinit(self) -> None:
        self.deadline = None
        self._board.remove_timer(self)


class WDT:
    """`machine.WDT`: starts at once, cannot be stopped; a second WDT() sets a new timeout."""

    _board: Any = None

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        if not 1 <= timeout <= WDT_MAX_MS:
            raise ValueError(f"WDT timeout {timeout} ms out of range 1..{WDT_MAX_MS} (RP2040 limit)")
        self._board.wdt_start(int(timeout))

    def feed(self) -> None:
        self._board.wdt_feed()


class VirtualBoard:
    """The simulated Pico: pads, PWM slices, ADC inputs, timers, watchdog, and the fake `machine` module."""

    def __init__(self, clock: VirtualClock, *, seed: int = 0, adc_noise_lsb: int = 1) -> None:
        self.clock = clock
        self._rng = random.Random(f"{seed}:adc")
        self.adc_noise_lsb = adc_noise_lsb
        self.wires: dict[int, gpio.Wire] = {}
        self.pwm_freq = [1000] * 8
        self.adc_sources: dict[int, Callable[[], float]] = {4: lambda: _TEMP_SENSOR_MV}
        self.timers: list[Timer] = []
        self.wdt_timeout: int | None = None
        self.wdt_last_feed = 0
        self.wdt_feeds = 0
        self.reset_cause = PWRON_RESET
        self.resets: list[tuple[int, int]] = []  # (virtual ms, cause)
        self.cpu_hz = 125_000_000
        uid = random.Random(f"{seed}:uid")  # one stream: eight different bytes (a fresh Random each gave one)
        self.uid = bytes(uid.randrange(256) for _ in range(8))
        self.machine = self._make_module()

    # -- pads --------------------------------------------------------------------------------------
    def wire(self, gpio_id: int | str) -> gpio.Wire:
        number = gpio.NAMED_PINS.get(gpio_id, gpio_id) if isinstance(gpio_id, str) else gpio_id
        if not isinstance(number, int) or not 0 <= number < gpio.NUM_GPIO:
            raise ValueError(f"invalid pin {gpio_id!r}: the RP2040 has GPIO0..{gpio.NUM_GPIO - 1} and 'LED'")
        if number not in self.wires:
            self.wires[number] = gpio.Wire(number, self.clock.now_ms)
        return self.wires[number]

    # -- ADC -----------------------------------------------------------------------------------------
    def set_adc_source(self, channel: int, millivolts: Callable[[], float]) -> None:
        self.adc_sources[channel] = millivolts

    def adc_read_u16(self, channel: int) -> int:
        source = self.adc_sources.get(channel)
        mv = source() if source else 0.0
        raw = round(mv * 4095 / ADC_REF_MV)
        if self.adc_noise_lsb:
            raw += self._rng.randint(-self.adc_noise_lsb, self.adc_noise_lsb)
        raw = min(4095, max(0, raw))
        return (raw << 4) | (raw >> 8)  # 12-bit reading scaled to 16 bits, as the rp2 port does

    # -- timers and watchdog ----------------------------------------------------------------------------
    def add_timer(self, timer: Timer) -> None:
        if timer not in self.timers:
            self.timers.append(timer)

    def remove_timer(self, timer: Timer) -> None:
        if timer in self.timers:
            self.timers.remove(timer)

    def wdt_start(self, timeout_ms: int) -> None:
        self.wdt_timeout = timeout_ms
        self.wdt_feed()

    def wdt_feed(self) -> None:
        self.wdt_last_feed = self.clock.now_ms()
        self.wdt_feeds += 1

    def next_deadline(self) -> int | None:
        """The next virtual time at which the board itself has something to do."""
        times = [t.deadline for t in self.timers if t.deadline is not None]
        if self.wdt_timeout is not None:
            times.append(self.wdt_last_feed + self.wdt_timeout + 1)
        return min(times) if times else None

    def run_timers(self) -> None:
        if not self.timers:
            return
        now = self.clock.now_ms()
        for timer in [t for t in self.timers if t.deadline is not None and t.deadline <= now]:
            if timer.mode == Timer.PERIODIC:
                timer.deadline = now + timer.period
            else:
                self.remove_timer(timer)
                timer.deadline = None
            if timer.callback is not None:
                timer.callback(timer)

    def check_watchdog(self) -> None:
        if self.wdt_timeout is None:
            return
        starved = self.clock.now_ms() - self.wdt_last_feed
        if starved > self.wdt_timeout:
            why = f"watchdog not fed for {starved} ms (timeout {self.wdt_timeout} ms)"
            raise MachineReset(WDT_RESET, why)

    def hardware_reset(self, cause: int) -> None:
        """What the chip does on reset: pads to inputs, PWM, timers and watchdog off."""
        for wire in self.wires.values():
            wire.hardware_reset()
        self.timers.clear()
        self.wdt_timeout = None
        self.reset_cause = cause
        self.resets.append((self.clock.now_ms(), cause))

    # -- the module ------------------------------------------------------------------------------------
    def _make_module(self) -> types.ModuleType:
        module = types.ModuleType("machine", "Fake MicroPython machine module bound to one VirtualBoard.")
        bound = {"_board": self}
        module.Pin = type("Pin", (gpio.Pin,), bound)
        module.PWM = type("PWM", (gpio.PWM,), bound)
        module.ADC = type("ADC", (ADC,), bound)
        module.Timer = type("Timer", (Timer,), bound)
        module.WDT = type("WDT", (WDT,), bound)
        module.PWRON_RESET, module.WDT_RESET = PWRON_RESET, WDT_RESET
        module.reset = self._reset
        module.soft_reset = self._reset
        module.reset_cause = lambda: self.reset_cause
        module.unique_id = lambda: self.uid
        module.freq = self._freq
        module.idle = lambda: None
        module.disable_irq = lambda: 0
        module.enable_irq = lambda state=0: None
        module.lightsleep = module.deepsleep = self._sleep
        module.sim_board = self  # the simulator side, for tests; real firmware must not use it
        return module

    def _reset(self) -> None:
        raise MachineReset(PWRON_RESET, "machine.reset() called")

    def _freq(self, hz: int | None = None) -> int | None:
        if hz is None:
            return self.cpu_hz
        self.cpu_hz = int(hz)
        return None

    def _sleep(self, ms: int | None = None) -> None:
        raise NotImplementedError("lightsleep/deepsleep: the simulated firmware runs by tick(now_ms); "
                                  "idle between ticks instead")
