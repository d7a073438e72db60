"""Direct-GPIO driver: the Pi itself drives the H-bridge and reads beam, button and lid with gpiozero.

It runs the firmware's own `Feeder` (counting, jam, empty, stuck, on-time cap) and `Beeper` over a
gpiozero board, on an injectable clock, so tests use MockFactory pins and virtual time.

`fire_result()` and `take_standalone_fires()` keep the interface's defaults (None, []): here the host
process IS the launcher's brain. Nothing outlives it to remember a fire (a host restart is a device
reboot, so an unsettled fire is the operator's call), and it never fires without the host, so there
are no standalone fires to report. A timer thread stops the motor at the on-time cap if the loop hangs; what
stops it when the whole process dies is the hardware interlock: the fire loop pulses the heartbeat pin
(one rising edge) every tick, and the bridge sleeps ~50 ms after the pulses stop (hardware/MODDING.md).

One driver at a time: a second unox on the same pins (a `diagnose` while the service runs) would write duty
0 to the same PWM channels and disable them on close, silently. So the driver takes an advisory `flock` on
the GPIO chip's device (/dev/gpiochip0), as the serial driver does on its port, and a second one is refused
naming the process that holds it (the kernel's list of flocks: nothing left behind, nothing stale).

The button is debounced as the firmware does it: a press counts when, after a falling edge, the button has
been down and steady for 10 ms, so contact chatter is one press. The motor runs on the Pi's hardware PWM at
the Pico's 20 kHz (`pwm=hardware`, the default on a Pi), or gpiozero's software PWM (`pwm=software`).
"""

from __future__ import annotations

import errno
import fcntl
import os
import threading
from pathlib import Path

from unoxfw.feeder import _BEAM_STABLE_MS as BEAM_STABLE_MS
from unoxfw.feeder import Feeder
from unoxfw.settings import Settings
from unoxfw.signals import Beeper

from unox.launcher.base import FireResult, Launcher, LauncherError, LauncherStatus, check_count, check_pattern
from unox.launcher.clock import Clock, RealClock
from unox.launcher.gpio_board import GpioBoard, make_factory
from unox.launcher.gpio_pins import PINS

TICK_S = 0.002
PRESS_STABLE_MS = 10  # as the firmware (unoxfw.app._PRESS_STABLE_MS)
PWM_MODES = ("hardware", "software")
GPIO_LOCK = Path("/dev/gpiochip0")  # every Pi has it; the sandboxed service may open it (DeviceAllow)


def lock_gpio(path: Path) -> int | None:
    """An open fd holding an exclusive flock on `path`; a LauncherError naming the holder if it is taken.
    None where `path` does not exist (not a Pi: no pins to share, and the pin factory says what is wrong)."""
    from unox.lock_holder import describe_holder

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LauncherError(f"cannot open {path} to lock the launcher's pins ({exc.strerror}); run unox as a "
                            "user in the gpio group") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
            who = describe_holder(path, "another program")
            raise LauncherError(
                f"the launcher's GPIO pins are in use by {who}: one program at a time drives the launcher; "
                "use that one, or stop it first (sudo systemctl stop unox)") from exc
        raise LauncherError(f"cannot lock {path} ({exc.strerror})") from exc
    return fd


def _blocks(edges: list[tuple[int, bool]]) -> list[tuple[int, int | None]]:
    """(entered, left or None) of each beam block of BEAM_STABLE_MS or more: glitches are no card."""
    blocks: list[tuple[int, int | None]] = []
    entered = None
    for t, entering in edges:
        if entering:
            entered = t
        elif entered is not None:
            if t - entered >= BEAM_STABLE_MS:
                blocks.append((entered, t))
            entered = None
    if entered is not None:
        blocks.append((entered, None))
    return blocks


class PressFilter:
    """Button edges in, presses out: a press is taken once the button has been down and steady for
    PRESS_STABLE_MS after a falling edge. Chatter at release settles up and is dropped."""

    def __init__(self, now_ms: int, down: bool) -> None:
        self._down = down
        self._since = now_ms
        self._pending = False

    def edge(self, now_ms: int, down: bool) -> bool:
        """An edge at `now_ms`; True when the state it ends had made a press (held steady until now)."""
        taken = self.poll(now_ms)
        if down != self._down:
            self._down, self._since = down, now_ms
        if down:
            self._pending = True
        return taken

    def poll(self, now_ms: int) -> bool:
        if self._pending and self._down and now_ms - self._since >= PRESS_STABLE_MS:
            self._pending = False
            return True
        return False


class GpioLauncher(Launcher):
    """Motor, beam, button, lid and buzzer on the Pi's own pins."""

    def __init__(
        self,
        *,
        factory: str | object = "lgpio",
        pins: dict[str, int] | None = None,
        config: dict | None = None,
        clock: Clock | None = None,
        pwm: str | None = None,
        pwm_chip: int = 0,
        pwm_root: Path | None = None,
        lock: Path | None = None,
    ):
        """`lock`: the file flocked while the driver runs (default: /dev/gpiochip0 on a real pin factory,
        nothing on mock pins unless given)."""
        if pwm is None:  # a real Pi gets the hardware PWM; mock pins have none
            pwm = "software" if factory == "mock" or not isinstance(factory, str) else "hardware"
        if pwm not in PWM_MODES:
            raise LauncherError(f"unknown pwm {pwm!r}; use one of: {', '.join(PWM_MODES)}")
        if lock is None and factory != "mock" and isinstance(factory, str):
            lock = GPIO_LOCK
        self._lock_fd = lock_gpio(lock) if lock is not None else None  # first: a refusal touches no pin
        try:
            self.pin_factory = make_factory(factory) if isinstance(factory, str) else factory
        except BaseException:
            self._unlock()
            raise
        self.clock = clock or RealClock()
        try:
            self.settings = Settings((config or {}).get("firmware"))
        except ValueError as exc:
            self._unlock()
            raise LauncherError(f"bad [firmware] config: {exc}") from exc
        try:
            self.board = GpioBoard(self.pin_factory, {**PINS, **(pins or {})}, self._ms, pwm=pwm,
                                   pwm_chip=pwm_chip, pwm_root=pwm_root)
        except BaseException:
            self._unlock()
            raise
        self._lock = threading.Lock()  # presses and the buzzer; never held across a sleep
        self.feeder = Feeder(self.board, self.settings)
        self.beeper = Beeper(self.board)
        self._presses = 0
        self._last_active = self._ms()
        self.cards_counted = 0
        self.faults: list[str] = []
        self._press_filter = PressFilter(self._ms(), self.board.button_down())
        self.board.watch_button(self._button_edge)

    def _ms(self) -> int:
        return int(round(self.clock.now() * 1000))

    def _button_edge(self, down: bool) -> None:
        now = self._ms()
        with self._lock:
            if self._press_filter.edge(now, down):
                self._take_press(now)

    def _take_press(self, now: int) -> None:
        """Called with the lock held, once per debounced press."""
        sleep_ms = self.settings.get("sleep_ms")
        asleep = sleep_ms and now - self._last_active >= sleep_ms
        self._last_active = now
        if asleep:
            return  # L3: the first press after a long idle only wakes the launcher, no beep
        self._presses += 1
        self.beeper.play("press", now)  # L1: a taken press beeps at once

    def fire(self, n: int, fire_id: int | None = None) -> FireResult:
        check_count(n)
        start = self._ms()
        self._last_active = start
        if n and not self.board.lid_open():
            self._play("firing")  # L2
        self.board.edges.clear()
        self.board.beat()  # wakes the interlock before the motor may turn
        result = self.feeder.start(n, start)
        try:
            while result is None:
                self.board.beat()
                self._tick()
                self.clock.sleep(TICK_S)
                result = self.feeder.tick(self._ms())
        except BaseException:  # Ctrl-C (or a bug) mid-fire: the motor never runs on without its loop
            self.board.motor(0)
            self.board.cut_cancel()
            raise
        fired, requested, fault, detail = result
        if fault == "jam" and detail == "wedged":
            fired -= self.feeder.wedged  # as the firmware's FIRED k: still inside, it goes back on the stack
        self.cards_counted += fired
        self.faults = [fault] if fault else []
        if fault:
            self._play(fault)
        return FireResult(requested, fired, fault, self._details(start, detail))

    def configure(self, values: dict[str, int]) -> None:
        """The firmware's settings, checked with the firmware's own bounds; a refusal changes nothing."""
        for key, value in values.items():
            old = self.settings.values.get(key)
            error = self.settings.set(key, str(value))
            if error:
                if old is not None:
                    self.settings.values[key] = old
                allowed = self.settings.range_text(key)
                raise LauncherError(f"{key} = {value} refused: {error}; allowed: {allowed}")

    def _details(self, start: int, detail: str) -> dict:
        """Timings for calibrate: motor start to the first card, and how long that card held the beam."""
        details: dict = {"duty": self.settings.get("duty"), "fire_ms": self._ms() - start}
        if detail != "-":
            details["detail"] = detail
        blocks = _blocks(self.board.edges)
        if blocks:
            details["feed_ms"] = blocks[0][0] - start
            if blocks[0][1] is not None:
                details["block_ms"] = blocks[0][1] - blocks[0][0]
        return details

    def _play(self, pattern: str) -> None:
        with self._lock:
            self.beeper.play(pattern, self._ms())

    def _tick(self) -> None:
        now = self._ms()
        with self._lock:
            if self._press_filter.poll(now):
                self._take_press(now)
            self.beeper.tick(now)

    def beep(self, pattern: str) -> None:
        self._play(check_pattern(pattern))
        while self.beeper.busy():
            self.clock.sleep(TICK_S)
            self._tick()

    def status(self) -> LauncherStatus:
        lid = self.board.lid_open()
        faults = list(self.faults)
        if lid and "lid" not in faults:
            faults.append("lid")
        return LauncherStatus(
            True, None, self.cards_counted, None, lid, faults, beam_blocked=self.board.beam_blocked()
        )

    def wait_press(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else self.clock.now() + timeout
        while True:
            self._tick()
            with self._lock:
                if self._presses:
                    self._presses -= 1
                    return True
            if deadline is not None and self.clock.now() >= deadline:
                return False
            self.clock.sleep(0.005)

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def close(self) -> None:
        try:
            self.board.motor(0)
            self.board.tone(0)
            self.board.close()
        finally:
            self._unlock()
