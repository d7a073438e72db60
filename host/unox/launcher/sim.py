"""The simulated launcher: the serial driver over an in-process `sim://` port running the real firmware."""

from __future__ import annotations

from urllib.parse import urlencode

import serial

from unox.launcher.base import LauncherError
from unox.launcher.serial import SerialLauncher


def sim_url(params: dict[str, str]) -> str:
    return "sim://?" + urlencode(params) if params else "sim://"


def open_sim_port(params: dict[str, str]):
    """A `sim://` port; a bad simulator parameter is a LauncherError naming it and the known ones."""
    import unoxsim

    unoxsim.register()
    try:
        return serial.serial_for_url(sim_url(params))
    except ValueError as exc:
        raise LauncherError(f"bad simulator parameter: {exc}") from exc


class SimLauncher(SerialLauncher):
    """Exactly the serial driver, on virtual time; `press_button()` makes a virtual press."""

    def __init__(self, params: dict[str, str] | None = None, **options):
        port = open_sim_port(dict(params or {}))
        options.setdefault("seed", int(params.get("seed", 0)) if params else 0)
        super().__init__(port, name=sim_url(dict(params or {})), **options)

    @property
    def device(self):
        """The VirtualDevice behind the port: for tests and diagnose (ground truth, faults)."""
        return self.port.device

    def press_button(self, hold_ms: int = 120) -> None:
        self.port.press_button(hold_ms)

    def refill(self, cards: int) -> int:
        """A reload, done: the simulated hopper is filled up to `cards` (as far as it holds); returns how many
        cards it holds now. Press mode calls it for the reload it is told of, so none is counted untrue."""
        from unoxsim.physics import HOPPER_CAPACITY

        model = self.device.model
        model.load(max(0, min(cards, HOPPER_CAPACITY) - model.hopper))
        return model.hopper
