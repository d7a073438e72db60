"""The Pi's hardware PWM through the kernel's sysfs interface, for the direct-GPIO build's motor.

gpiozero's lgpio and RPi.GPIO pin factories make PWM in software (lgpio's `tx_pwm`: at most 10 kHz, with
jitter; gpiozero's default 100 Hz hums and its duty is not the Pico's). The Pi has two hardware PWM channels,
on BCM 12/18 (PWM0) and 13/19 (PWM1); with `dtoverlay=pwm-2chan,pin=12,func=4,pin2=13,func2=4` in
config.txt the kernel offers them as /sys/class/pwm/pwmchipN/pwm0 and pwm1, and this module drives them at
the Pico's 20 kHz (unoxfw.board). No extra package: four files per channel (export, period, duty_cycle,
enable), written as the kernel's sysfs PWM ABI describes. `root` is injectable so tests use a folder.
"""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path

from unox.launcher.base import LauncherError

MOTOR_HZ = 20_000  # as the Pico's firmware drives the bridge (unoxfw.board._MOTOR_HZ)
HARDWARE_PWM = {12: 0, 18: 0, 13: 1, 19: 1}  # BCM pin -> PWM channel (pin 12 and 18 share channel 0)
HARDWARE_PWM_PI5 = {12: 0, 13: 1, 18: 2, 19: 3}  # a Pi 5's RP1: PWM0 has four channels, one per pin
MODEL = Path("/proc/device-tree/model")


def is_pi5(model: Path = MODEL) -> bool:
    """A Raspberry Pi 5 (its PWM is the RP1's), by the device tree's model string."""
    try:
        return "Raspberry Pi 5" in model.read_text(errors="replace")
    except OSError:
        return False
SYSFS_PWM = Path("/sys/class/pwm")
_EXPORT_WAIT_S = 1.0  # udev may take a moment to make a freshly exported channel writable
_CHANNEL_FILES = ("duty_cycle", "period", "enable")


def channels_for(in1: int, in2: int, pi5: bool = False) -> tuple[int, int]:
    """The PWM channels of the two motor pins (a Pi 5 numbers them its own way), or a clear error."""
    table = HARDWARE_PWM_PI5 if pi5 else HARDWARE_PWM
    bad = [pin for pin in (in1, in2) if pin not in table]
    if bad:
        raise LauncherError(f"BCM {', '.join(map(str, bad))} has no hardware PWM; wire the motor to BCM 12 "
                            "and 13 (or 18 and 19), or use --launcher gpio:?pwm=software")
    if table[in1] == table[in2]:
        raise LauncherError(f"BCM {in1} and {in2} share PWM channel {table[in1]}: the two motor "
                            "inputs need one channel each (BCM 12 and 13)")
    return table[in1], table[in2]


class SysfsPwmChannel:
    """One hardware PWM channel at a fixed frequency; `set(fraction)` writes its duty cycle."""

    def __init__(self, chip: Path, channel: int, hz: int = MOTOR_HZ) -> None:
        self.dir = chip / f"pwm{channel}"
        self.period_ns = round(1e9 / hz)
        if not self.dir.exists():
            (chip / "export").write_text(str(channel))
            # the kernel makes the files root's; udev then gives them to the gpio group: wait for both
            deadline = time.monotonic() + _EXPORT_WAIT_S
            while not self._ready() and time.monotonic() < deadline:
                time.sleep(0.01)
        self._write("duty_cycle", 0)  # the duty must never exceed the period, so it goes first
        self._write("period", self.period_ns)
        self._write("enable", 1)
        self.fraction = 0.0

    def _ready(self) -> bool:
        return all(os.access(self.dir / name, os.W_OK) for name in _CHANNEL_FILES)

    def _write(self, name: str, value: int) -> None:
        (self.dir / name).write_text(str(value))

    def set(self, fraction: float) -> None:
        fraction = min(max(fraction, 0.0), 1.0)
        self._write("duty_cycle", round(self.period_ns * fraction))
        self.fraction = fraction

    def close(self) -> None:
        self.set(0.0)
        self._write("enable", 0)


class HardwarePwmMotor:
    """The H-bridge's two inputs on two hardware PWM channels, with gpiozero `Motor`'s small interface."""

    def __init__(self, in1: int, in2: int, *, chip: int = 0, root: Path = SYSFS_PWM,
                 pi5: bool | None = None) -> None:
        channel1, channel2 = channels_for(in1, in2, is_pi5() if pi5 is None else pi5)
        chip_dir = Path(root) / f"pwmchip{chip}"
        if not chip_dir.exists():
            raise LauncherError(f"no hardware PWM at {chip_dir}: add dtoverlay=pwm-2chan,pin=12,func=4,"
                                "pin2=13,func2=4 to /boot/firmware/config.txt and reboot "
                                "(hardware/MODDING.md), or use --launcher gpio:?pwm=software")
        try:
            self.forward_device = SysfsPwmChannel(chip_dir, channel1)
            self.backward_device = SysfsPwmChannel(chip_dir, channel2)
        except OSError as exc:
            if exc.errno == errno.EROFS:  # ProtectSystem=strict: the unit's ReadWritePaths miss this chip
                raise LauncherError(f"cannot drive the hardware PWM at {chip_dir}: read-only in the "
                                    "service's sandbox (its unit names another PWM chip's folder: the kernel "
                                    "renumbered it, or pwm_chip changed); write the unit again: "
                                    "sudo unox install service ... --write") from exc
            raise LauncherError(f"cannot drive the hardware PWM at {chip_dir} ({exc}); run unox as a user "
                                "in the gpio group, or as root") from exc
        self.value = 0.0

    def forward(self, speed: float) -> None:
        self.backward_device.set(0.0)
        self.forward_device.set(speed)
        self.value = speed

    def backward(self, speed: float) -> None:
        self.forward_device.set(0.0)
        self.backward_device.set(speed)
        self.value = -speed

    def stop(self) -> None:
        self.forward_device.set(0.0)
        self.backward_device.set(0.0)
        self.value = 0.0

    def brake(self) -> None:
        self.forward_device.set(1.0)
        self.backward_device.set(1.0)
        self.value = 0.0

    def close(self) -> None:
        self.forward_device.close()
        self.backward_device.close()
