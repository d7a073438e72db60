"""End-to-end fixtures: the serial driver over `sim://`, the real firmware, virtual time."""

from __future__ import annotations

from unox import config


def firmware_config(**values: int) -> dict:
    settings = config.defaults()
    settings["firmware"].update(values)
    return settings


class FireCounter:
    """Counts the fire jobs the firmware's feeder really starts (the ground truth of 'fired once'), and
    keeps the ids of the fires it started (the ground truth of "it cannot tell")."""

    def __init__(self, device):
        self.jobs = 0
        self.ids: set[int] = set()
        app = device.app
        feeder = app.feeder
        start = feeder.start

        def counted(n, now_ms):
            self.jobs += 1
            self.ids.add(app._fire_id)
            return start(n, now_ms)

        feeder.start = counted


def cards_in_slot(device) -> int:
    """Cards sticking out of the slot for the presser, which FIRED k counts (`LauncherModel.past_beam`)."""
    return device.model.past_beam()
