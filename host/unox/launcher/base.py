"""The one launcher interface the table, the CLI and the tests program against.

Three drivers (serial, gpio, sim) and a scripted stand-in implement it, so the table never knows which
hardware it has. The host owns how many cards a press fires; the launcher owns the motor and the counting.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

FAULTS = ("jam", "empty", "stuck", "lid", "battery", "link")
BEEP_PATTERNS = ("press", "firing", "empty", "jam", "stuck", "battery", "lid", "not_owed", "link_lost")


class LauncherError(Exception):
    """The launcher cannot be reached or used; the message says what to check."""


class StrangerLauncher(LauncherError):
    """Another launcher answered where this host's launcher was (a board of another identity, the HELLO's
    `board`): nothing is sent to it or taken from it; the message names both and how to accept the new one."""

    def __init__(self, message: str, *, expected: str, found: str):
        super().__init__(message)
        self.expected, self.found = expected, found


@dataclass
class FireResult:
    """One fire: what was asked, `FIRED k` as docs/protocol.md defines it, and the fault that ended it."""

    requested: int
    fired: int
    fault: str | None
    # Added to the contract: measurements of this run (motor_ms, beam_ms, gap_ms, duty), used by calibrate.
    details: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"requested": self.requested, "fired": self.fired, "fault": self.fault}


@dataclass
class LauncherStatus:
    """What the launcher last reported; `faults` lists the faults it currently has."""

    connected: bool
    firmware: str | None
    cards_counted: int
    battery_mv: int | None
    lid_open: bool
    faults: list[str] = field(default_factory=list)
    board_id: str | None = None  # the launcher's identity (HELLO's board, a Pico's unique id); None: unknown
    # Added to the contract: None when the driver cannot tell.
    beam_blocked: bool | None = None
    low_battery: bool = False
    # How often the lid was opened since the driver started, counting openings between two looks at the
    # status (a quick top-up); None when the driver cannot tell.
    lid_opens: int | None = None


MAX_FIRE = 40  # the firmware's limit for one FIRE (unoxfw.app): a third of a deck


def check_count(n: int) -> int:
    """A fire count is a small non-negative int; anything else is a caller bug worth a clear message."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_FIRE:
        raise ValueError(f"fire count must be an integer from 0 to {MAX_FIRE}, got {n!r}")
    return n


def check_pattern(pattern: str) -> str:
    if pattern not in BEEP_PATTERNS:
        raise ValueError(f"unknown beep pattern {pattern!r}; use one of: {', '.join(BEEP_PATTERNS)}")
    return pattern


class Launcher(ABC):
    """Press events in, `fire(n)` out; every driver counts cards with its beam, never by assumption."""

    @abstractmethod
    def fire(self, n: int, fire_id: int | None = None) -> FireResult:
        """Fire exactly `n` cards, or fewer with the fault that stopped it.

        `fire_id` is the host's name for this fire (a positive int below 2**31, unique within a journal), so
        the fire's result can be asked for again after a host crash; None lets the driver pick one.
        Fault `link` tells by `details["detail"]` what is known: `down` (the link was down, nothing was
        sent, nothing fired), `lost` (given up in flight: ask `fire_result(fire_id)` once the device is
        back) or `reboot` (the device rebooted mid-fire: it cannot tell).
        """

    @property
    def board_id(self) -> str | None:
        """The launcher's identity (a Pico's `machine.unique_id()` in hex), bound at the first HELLO; None
        for a driver or firmware that has none."""
        return None

    def fire_result(self, fire_id: int) -> FireResult | None:
        """What the device remembers of fire `fire_id`; None when it cannot tell (rebooted, an id it never
        had or has forgotten, a driver without device memory, or a device that cannot be reached).
        Never fires."""
        return None

    def take_standalone_fires(self) -> list[FireResult]:
        """Fires the device made alone while the host was away, each returned once, oldest first; the device
        forgets each once returned (`details`: `standalone`, its number since the device booted, `boot`)."""
        return []

    def pending_standalone_fires(self) -> list[FireResult]:
        """As `take_standalone_fires`, but a device with memory keeps each fire (and offers it again to the
        next host) until `standalone_taken(result)`: a table calls that once the fire is in its journal."""
        return self.take_standalone_fires()

    def standalone_taken(self, result: FireResult) -> None:
        """Fire `result` from `pending_standalone_fires` is recorded; the device may forget it."""
        return None  # a device without memory forgot it already

    @abstractmethod
    def beep(self, pattern: str) -> None:
        """Play one of BEEP_PATTERNS on the launcher's buzzer."""

    @abstractmethod
    def status(self) -> LauncherStatus:
        """The latest known state; never blocks for long."""

    @abstractmethod
    def wait_press(self, timeout: float | None = None) -> bool:
        """True once per button press taken by the launcher; False when `timeout` seconds pass first."""

    @abstractmethod
    def close(self) -> None:
        """Release the port or pins; the launcher is unusable afterwards."""

    def configure(self, values: dict[str, int]) -> None:
        """Added to the contract: firmware settings (`unoxfw.settings` keys), e.g. from calibrate."""
        raise LauncherError(f"{type(self).__name__} takes no settings")

    def __enter__(self) -> Launcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
