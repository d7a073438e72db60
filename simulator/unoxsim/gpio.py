"""Virtual RP2040 GPIO: pads ("wires"), `machine.Pin` and `machine.PWM` as MicroPython offers them.

A `Wire` is the electrical state of one GPIO pad, shared by every `Pin`/`PWM` object made for it, as on
the chip. The simulator side drives input pads (`drive_low()`, `drive_high()`, `release()`, like gpiozero's
mock pins); the firmware side reads them and gets its IRQ handler called on the edges it asked for. Every
change of a pad's level or drive is recorded with its virtual time in `Wire.history`, so tests can assert
on timing.

Electrical choices, as on the RP2040: after reset a pad is an input with its pull-down on; `Pin(id, IN)`
without `pull` has no pull, and a floating pad with nothing driving it reads 0. Open-collector parts (the
IR receiver, the button, the lid switch) only ever pull low or let go, so the firmware needs `PULL_UP`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

IN, OUT, OPEN_DRAIN, ALT = 0, 1, 2, 3
PULL_UP, PULL_DOWN = 1, 2
IRQ_LOW_LEVEL, IRQ_HIGH_LEVEL, IRQ_FALLING, IRQ_RISING = 1, 2, 4, 8
_U16 = 65535
_PWM_FREQ_MIN, _PWM_FREQ_MAX = 8, 62_500_000
NUM_GPIO = 30
NAMED_PINS = {"LED": 25}


class Wire:
    """One GPIO pad: configuration, external drive, output drive, IRQ and a timestamped history."""

    def __init__(self, gpio: int, now: Callable[[], int]) -> None:
        self.gpio = gpio
        self._now = now
        self.history: list[tuple[int, float]] = []
        self.irq_count = 0
        self.driven: int | None = None  # level forced by the outside world, None = let go
        self._reset_config()
        self._level = self.level()
        self._drive = self.drive()

    def _reset_config(self) -> None:
        self.mode: int | None = None
        self.pull: int | None = PULL_DOWN
        self.out_value = 0
        self.function = "sio"  # or "pwm"
        self.duty_u16 = 0
        self.pwm_running = False
        self.irq_handler: Callable[[Any], None] | None = None
        self.irq_trigger = 0
        self.irq_pin: Any = None

    def hardware_reset(self) -> None:
        """Chip reset: every pad back to an input with pull-down, IRQs and PWM gone."""
        self._reset_config()
        self.changed()

    # -- the outside world (physics, tests) ------------------------------------------------------
    def drive_low(self) -> None:
        self.driven = 0
        self.changed()

    def drive_high(self) -> None:
        self.driven = 1
        self.changed()

    def release(self) -> None:
        self.driven = None
        self.changed()

    def set_external(self, level: int | None) -> None:
        if level != self.driven:
            self.driven = level
            self.changed()

    # -- what the pad shows ------------------------------------------------------------------------
    def level(self) -> int:
        """The logic level at the pad, as `Pin.value()` reads it."""
        if self.function == "pwm":
            return 1 if self.pwm_running and self.duty_u16 > 0 else 0
        if self.mode == OUT:
            return self.out_value
        if self.mode == OPEN_DRAIN and self.out_value == 0:
            return 0
        if self.driven is not None:
            return self.driven
        return 1 if self.pull == PULL_UP else 0

    def drive(self) -> float:
        """The fraction of time the pad actively drives high (what an H-bridge input or a piezo sees)."""
        if self.function == "pwm":
            return self.duty_u16 / _U16 if self.pwm_running else 0.0
        if self.mode == OUT:
            return float(self.out_value)
        return 0.0

    def changed(self) -> None:
        """Recompute the pad after any change: record history and fire the IRQ on a matching edge."""
        old_level = self._level
        self._level, self._drive = self.level(), self.drive()
        is_output = self.mode in (OUT, OPEN_DRAIN) or self.function == "pwm"
        shown = self._drive if is_output else float(self._level)
        if not self.history or self.history[-1][1] != shown:
            self.history.append((self._now(), shown))
        if old_level == self._level or self.irq_handler is None:
            return
        edge = IRQ_RISING if self._level else IRQ_FALLING
        if self.irq_trigger & edge:
            self.irq_count += 1
            self.irq_handler(self.irq_pin)

    def changes(self, since_ms: int = 0) -> list[tuple[int, float]]:
        return [(t, v) for t, v in self.history if t >= since_ms]


class Irq:
    """What `Pin.irq()` returns: lets the firmware ask which trigger is set."""

    def __init__(self, wire: Wire) -> None:
        self._wire = wire

    def trigger(self, value: int | None = None) -> int:
        if value is not None:
            self._wire.irq_trigger = value
        return self._wire.irq_trigger

    def flags(self) -> int:
        return self._wire.irq_trigger


class Pin:
    """`machine.Pin` over a `Wire`; bound to one virtual board by `VirtualBoard` (class attribute)."""

    IN, OUT, OPEN_DRAIN, ALT = IN, OUT, OPEN_DRAIN, ALT
    PULL_UP, PULL_DOWN = PULL_UP, PULL_DOWN
    IRQ_LOW_LEVEL, IRQ_HIGH_LEVEL = IRQ_LOW_LEVEL, IRQ_HIGH_LEVEL
    IRQ_FALLING, IRQ_RISING = IRQ_FALLING, IRQ_RISING
    _board: Any = None

    def __init__(self, id: int | str, mode: int = -1, pull: int | None = -1, *, value: int | None = None,
                 **_ignored: Any) -> None:
        self._wire = self._board.wire(id)
        self.init(mode, pull, value=value)

    def init(self, mode: int = -1, pull: int | None = -1, *, value: int | None = None,
             **_ignored: Any) -> None:
        wire = self._wire
        if value is not None:
            wire.out_value = 1 if value else 0
        if mode != -1:
            if mode not in (IN, OUT, OPEN_DRAIN, ALT):
                raise ValueError(f"invalid pin mode {mode!r}")
            wire.mode = mode
            wire.function = "sio"
            wire.pwm_running = False
            wire.pull = None if pull == -1 else pull  # rp2: a configured pin without pull has none
        if pull not in (-1, None, PULL_UP, PULL_DOWN):
            raise ValueError(f"invalid pull {pull!r}")
        if pull != -1:
            wire.pull = pull
        wire.changed()

    def value(self, x: Any = None) -> int | None:
        if x is None:
            return self._wire.level()
        self._wire.out_value = 1 if x else 0
        self._wire.changed()
        return None

    __call__ = value

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)

    high, low = on, off

    def toggle(self) -> None:
        self.value(0 if self._wire.out_value else 1)

    def mode(self, mode: int | None = None) -> int | None:
        if mode is None:
            return self._wire.mode
        self.init(mode)
        return None

    def pull(self, pull: int | None = -1) -> int | None:
        if pull == -1:
            return self._wire.pull
        self.init(pull=pull)
        return None

    def irq(self, handler: Callable[[Any], None] | None = None, trigger: int = IRQ_FALLING | IRQ_RISING,
            hard: bool = False) -> Irq:
        self._wire.irq_handler = handler
        self._wire.irq_trigger = trigger if handler is not None else 0
        self._wire.irq_pin = self
        return Irq(self._wire)

    def __repr__(self) -> str:
        return f"Pin(GPIO{self._wire.gpio}, mode={self._wire.mode}, pull={self._wire.pull})"


class PWM:
    """`machine.PWM` over a `Wire`: the two channels of a slice share its frequency, as on the RP2040."""

    _board: Any = None

    def __init__(self, dest: Pin | int, *, freq: int | None = None, duty_u16: int | None = None,
                 duty_ns: int | None = None, invert: bool = False) -> None:
        gpio = dest._wire.gpio if isinstance(dest, Pin) else dest
        self._wire = self._board.wire(gpio)
        self._slice = (self._wire.gpio >> 1) & 7
        self._wire.function = "pwm"
        self._wire.pwm_running = True
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)
        elif duty_ns is not None:
            self.duty_ns(duty_ns)
        self._wire.changed()

    def freq(self, value: int | None = None) -> int | None:
        if value is None:
            return self._board.pwm_freq[self._slice]
        if not _PWM_FREQ_MIN <= value <= _PWM_FREQ_MAX:
            raise ValueError(f"freq {value} out of range {_PWM_FREQ_MIN}..{_PWM_FREQ_MAX}")
        self._board.pwm_freq[self._slice] = int(value)
        return None

    def duty_u16(self, value: int | None = None) -> int | None:
        if value is None:
            return self._wire.duty_u16
        if not 0 <= value <= _U16:
            raise ValueError(f"duty_u16 {value} out of range 0..65535")
        self._wire.duty_u16 = int(value)
        self._wire.pwm_running = True
        self._wire.changed()
        return None

    def duty_ns(self, value: int | None = None) -> int | None:
        period_ns = 1_000_000_000 // max(1, self._board.pwm_freq[self._slice])
        if value is None:
            return self._wire.duty_u16 * period_ns // _U16
        return self.duty_u16(min(_U16, value * _U16 // period_ns))

    def deinit(self) -> None:
        self._wire.pwm_running = False
        self._wire.changed()

    def __repr__(self) -> str:
        return f"PWM(GPIO{self._wire.gpio}, freq={self.freq()}, duty_u16={self._wire.duty_u16})"
