"""The launcher as the web server sees it: its button loop, its status for the pages, the sim's hopper.

With `unox serve` nobody sits at a keyboard, so this thread takes the launcher's button presses (as
`unox play` does) and gives each to `table.button()`, which attributes, fires and books it. It polls under
the table's lock and sleeps outside it, so a phone's request waits at most one poll.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from unox.launcher.base import LauncherError
from unox.web.hub import Hub

log = logging.getLogger(__name__)

POLL_S = 0.05
STATUS_EVERY_S = 2.0
HOPPER_CAPACITY = 112


def is_simulated(launcher: Any) -> bool:
    return hasattr(launcher, "press_button")


def sim_hopper_sync(launcher: Any) -> Any:
    """For the sim launcher: an `after_change` hook that puts the cards the table adds (deal, reload) into
    the virtual hopper, as a dealer loads the real one. None for real hardware (people load it)."""
    device = getattr(getattr(launcher, "port", None), "device", None)
    if device is None:
        return None

    def sync(before: dict, reply: dict) -> None:
        fired = (reply.get("launcher") or {}).get("fired", 0) or 0
        was = (before.get("launcher") or {}).get("cards", 0) - fired
        added = (reply["state"].get("launcher") or {}).get("cards", 0) - was
        if added > 0:
            device.load_cards(min(added, HOPPER_CAPACITY - device.model.hopper))

    return sync


def link_down(exc: LauncherError) -> dict[str, Any]:
    """The launcher's status for the pages when it cannot be reached: the error says why; `stranger`, the
    board of another launcher answering at the port (the operator page offers to accept it)."""
    status: dict[str, Any] = {"connected": False, "faults": ["link"], "detail": str(exc)}
    found = getattr(exc, "found", None)  # a StrangerLauncher
    if found is not None and found != "unknown":
        status["stranger"] = found
    return status


def status_of(launcher: Any) -> dict[str, Any]:
    """The launcher's status for the pages: connected, faults, battery, lid."""
    try:
        status = launcher.status()
    except LauncherError as exc:
        return link_down(exc)
    return {
        "connected": status.connected,
        "faults": list(status.faults),
        "battery_mv": status.battery_mv,
        "lid_open": status.lid_open,
        "low_battery": status.low_battery,
        "firmware": status.firmware,
    }


class ButtonLoop(threading.Thread):
    """Takes launcher button presses and asks the launcher's status now and then, until `stop()`."""

    def __init__(self, hub: Hub, launcher: Any):
        super().__init__(name="unox-web-button", daemon=True)
        self.hub = hub
        self.launcher = launcher
        self.stopping = threading.Event()
        # the sim's virtual time flows with ours: POLL_S of it per poll; real hardware is only looked at
        self.wait = POLL_S if is_simulated(launcher) else 0.0

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        next_status = 0.0
        while not self.stopping.is_set():
            try:
                self._poll()
                if time.monotonic() >= next_status:
                    next_status = time.monotonic() + STATUS_EVERY_S
                    with self.hub.lock:
                        device = status_of(self.launcher)
                    self.hub.from_thread(self.hub.publish_device, device)
            except Exception:  # a dead loop would silently stop every press: log and go on
                log.exception("the launcher's button loop failed")
            self.stopping.wait(POLL_S)

    def _poll(self) -> None:
        with self.hub.lock:
            try:
                pressed = self.launcher.wait_press(timeout=self.wait)
            except LauncherError as exc:
                self.hub.from_thread(self.hub.publish_device, link_down(exc))
                return
            if not pressed:
                return
            reply = self.hub.change(self.hub.button)
        self.hub.from_thread(self.hub.publish_state, reply["state"])
