"""End-to-end fixtures: the serial driver over `sim://`, the real firmware, virtual time."""

from __future__ import annotations

import pytest
from unox import config
from unox.launcher import open_launcher


@pytest.fixture
def sim():
    """`sim("seed=1&jam=1", config=...)` opens a simulated launcher; all are closed after the test."""
    opened = []

    def make(params: str = "seed=1", **options):
        launcher = open_launcher(f"sim:?{params}", **options)
        opened.append(launcher)
        return launcher

    yield make
    for launcher in opened:
        launcher.close()


def firmware_config(**values: int) -> dict:
    settings = config.defaults()
    settings["firmware"].update(values)
    return settings


class FireCounter:
    """Counts the fire jobs the firmware's feeder really starts (the ground truth of 'fired once')."""

    def __init__(self, device):
        self.jobs = 0
        feeder = device.app.feeder
        start = feeder.start

        def counted(n, now_ms):
            self.jobs += 1
            return start(n, now_ms)

        feeder.start = counted
