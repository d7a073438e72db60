"""The firmware's hardware layer (`unoxfw.board.Board`'s methods) over gpiozero devices.

With it the direct-GPIO driver runs the firmware's own `Feeder` and `Beeper` step machines, so counting,
jam, empty, stuck and the on-time cap follow exactly the same rules as on the Pico (the beam's 4 ms debounce
and the brake before each reverse pulse included: both live in the Feeder).

The motor: `pwm="hardware"` drives the bridge from the Pi's hardware PWM at the Pico's 20 kHz
(`unox.launcher.gpio_pwm`, BCM 12 and 13); `pwm="software"` uses gpiozero's software PWM (100 Hz: it hums,
and its duty is not the Pico's). The interlock: the `heartbeat` pin feeds a retriggerable one-shot that holds
the bridge's nSLEEP/STBY high only while it gets rising edges (hardware/MODDING.md); `beat()` gives one, and
the driver calls it only from its fire loop, so a killed, hung or idle driver lets the bridge sleep.
"""

from __future__ import annotations

import importlib
import threading
from pathlib import Path

from unoxfw.feeder import _BEAM_CLEAR_MS as BEAM_CLEAR_MS

from unox.launcher.base import LauncherError

FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory", "lgpio"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory", "RPi.GPIO"),
    "mock": ("gpiozero.pins.mock", "MockFactory", None),
}


def make_factory(name: str):
    """A gpiozero pin factory by name; a missing backend is a clear error, not an ImportError."""
    if name not in FACTORIES:
        raise LauncherError(f"unknown pin factory {name!r}; use one of: {', '.join(FACTORIES)}")
    module_name, cls_name, package = FACTORIES[name]
    try:
        module = importlib.import_module(module_name)
        if name == "mock":
            return module.MockFactory(pin_class=module.MockPWMPin)
        return getattr(module, cls_name)()
    except (ImportError, RuntimeError, OSError) as exc:
        raise LauncherError(
            f"pin factory {name} is not usable here ({exc}); install it with `pip install unox[gpio]` "
            f"({package}), use lgpio on a Pi 5, or pick another with --launcher gpio:?factory=..."
        ) from exc


class GpioBoard:
    """Motor, beam, button, lid and buzzer as gpiozero devices; edge callbacks only count."""

    def __init__(self, pin_factory, pins: dict[str, int], now_ms=None, *, pwm: str = "software",
                 pwm_chip: int = 0, pwm_root: Path | None = None, edge_times: bool | None = None):
        """`edge_times`: date beam edges by the pin factory's timestamps (default: yes, except on gpiozero's
        mock pins, whose timestamps are wall time while the tests' clock is virtual)."""
        from gpiozero import Button, DigitalInputDevice, DigitalOutputDevice, Motor, PWMOutputDevice

        from unox.launcher.gpio_pwm import SYSFS_PWM, HardwarePwmMotor

        self._devices: list = []
        self._cut_timer: threading.Timer | None = None
        self._beam_edges = 0
        self._now_ms = now_ms or (lambda: 0)
        if edge_times is None:
            edge_times = type(pin_factory).__name__ != "MockFactory"
        self._edge_times = edge_times
        self.edges: list[tuple[int, bool]] = []  # (ms, entering) of beam edges, read by calibrate
        pf = pin_factory
        self._heartbeat = None
        try:
            if pwm == "hardware":
                self._motor = self._own(HardwarePwmMotor(pins["motor_in1"], pins["motor_in2"], chip=pwm_chip,
                                                         root=pwm_root or SYSFS_PWM))
            else:
                self._motor = self._own(Motor(pins["motor_in1"], pins["motor_in2"], pwm=True, pin_factory=pf))
            self._beam = self._own(DigitalInputDevice(pins["beam"], pull_up=True, pin_factory=pf))
            self._button = self._own(Button(pins["button"], pull_up=True, pin_factory=pf))
            self._lid = self._own(DigitalInputDevice(pins["lid"], pull_up=True, pin_factory=pf))
            self._buzzer = self._own(PWMOutputDevice(pins["buzzer"], frequency=2000, pin_factory=pf))
            if pins.get("heartbeat") is not None:
                self._heartbeat = self._own(DigitalOutputDevice(pins["heartbeat"], pin_factory=pf))
        except LauncherError:
            self.close()
            raise
        except Exception as exc:  # gpiozero raises many kinds (GPIOPinInUse, PinInvalidPin, ...)
            self.close()
            raise LauncherError(f"cannot set up the launcher pins {pins}: {exc}") from exc
        self._beam.when_activated = self._on_beam
        self._beam.when_deactivated = self._on_beam_clear
        self._beam_at: int | None = None  # when the beam last changed, by the edge's own timestamp
        self._clear_at: int | None = None  # when it last cleared
        self.beats = 0

    def _own(self, device):
        self._devices.append(device)
        return device

    def _edge_ms(self, age_s: float | None) -> int:
        """When an edge happened, from the pin factory's timestamp of it (lgpio reports each edge's tick; the
        callback may run ms later, as the Pico's loop did): now, less the time since the edge."""
        now = self._now_ms()
        return now - int(round(age_s * 1000)) if age_s is not None and self._edge_times else now

    def _on_beam(self) -> None:
        t = self._edge_ms(self._beam.active_time)
        # a card entering the beam, as the firmware's IRQ counts it: only after the beam was clear
        # _BEAM_CLEAR_MS (a moment of light inside a card is no new block)
        if self._clear_at is None or t - self._clear_at >= BEAM_CLEAR_MS:
            self._beam_edges += 1
        self._beam_at = t
        self.edges.append((t, True))

    def _on_beam_clear(self) -> None:
        t = self._edge_ms(self._beam.inactive_time)
        self._beam_at = self._clear_at = t
        self.edges.append((t, False))

    def watch_button(self, callback) -> None:
        """`callback(down)` on every edge of the button, chatter included: the driver debounces."""
        self._button.when_pressed = lambda: callback(True)
        self._button.when_released = lambda: callback(False)

    def beat(self) -> None:
        """One rising edge for the interlock's one-shot, which retriggers on rising edges only: a short high
        pulse, so each tick of a fire restarts it (a toggle gave one every other tick). A no-op without a
        heartbeat pin."""
        if self._heartbeat is not None:
            self._heartbeat.on()
            self._heartbeat.off()
            self.beats += 1

    def motor(self, value: float) -> None:
        if value > 0:
            self._motor.forward(min(value, 1.0))
        elif value < 0:
            self._motor.backward(min(-value, 1.0))
        else:
            self._motor.stop()

    def brake(self) -> None:
        """Both bridge inputs high: the windings shorted, so the roller stops before a reverse pulse."""
        hardware_brake = getattr(self._motor, "brake", None)  # HardwarePwmMotor; gpiozero's Motor has none
        if hardware_brake is not None:
            hardware_brake()
        else:
            self._motor.forward_device.value = 1
            self._motor.backward_device.value = 1

    def motor_value(self) -> float:
        return float(self._motor.value)

    def cut_after(self, ms: int) -> None:
        """The on-time cap's backstop: a timer thread stops the motor even if the driver's loop hangs."""
        self.cut_cancel()
        self._cut_timer = threading.Timer(ms / 1000, self._motor.stop)
        self._cut_timer.daemon = True
        self._cut_timer.start()

    def cut_cancel(self) -> None:
        if self._cut_timer is not None:
            self._cut_timer.cancel()
            self._cut_timer = None

    def beam_count(self) -> int:
        return self._beam_edges

    def beam_blocked(self) -> bool:
        return bool(self._beam.is_active)  # pulled up; low while a card blocks it

    def beam_changed_ms(self, now_ms: int) -> int:
        """When the beam last changed, by its edge's timestamp (the Feeder times blocks by it, not by when its
        loop looks: a Python pause would stretch a block into a double feed); before any edge, now."""
        return self._beam_at if self._beam_at is not None else now_ms

    def button_down(self) -> bool:
        return bool(self._button.is_pressed)

    def lid_open(self) -> bool:
        return not self._lid.is_active  # the switch pulls low while the lid is shut

    def tone(self, freq_hz: int) -> None:
        if freq_hz:
            self._buzzer.frequency = freq_hz
            self._buzzer.value = 0.5
        else:
            self._buzzer.value = 0

    def battery_mv(self) -> None:
        return None  # a Pi has no ADC; the direct build cannot measure the pack

    def close(self) -> None:
        self.cut_cancel()
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()
