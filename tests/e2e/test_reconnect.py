"""USB cable pulled and plugged back: the driver reopens the port itself; no fire is lost or doubled."""

from __future__ import annotations

import pytest
from unox.launcher import LauncherError

from .conftest import FireCounter, cards_in_slot


def pull(device, at_ms: int, out_ms: int) -> None:
    """Schedule a cable pull (the host's port vanishes, bytes in flight are lost) and the replug."""
    device.schedule(at_ms, lambda: device.unplug(vanish=True))
    device.schedule(at_ms + out_ms, lambda: device.plug())


def test_cable_out_before_the_fire_then_back(sim):
    launcher = sim("seed=3&cards=112")
    device = launcher.device
    counter = FireCounter(device)
    device.unplug(vanish=True)
    device.schedule(1500, lambda: device.plug())
    result = launcher.fire(4)
    assert (result.fired, result.fault) == (4, None)
    assert counter.jobs == 1 and device.cards_out == 4
    assert launcher.status().connected


@pytest.mark.parametrize("at_ms", range(0, 900, 45))
def test_cable_pulled_at_any_moment_of_a_fire_runs_it_exactly_once(sim, at_ms):
    launcher = sim(f"seed={at_ms}&cards=112")
    device = launcher.device
    counter = FireCounter(device)
    pull(device, at_ms, 400)  # back within the firmware's silence_ms, so the fire may go on
    result = launcher.fire(3)
    assert counter.jobs == 1
    assert (result.fired, result.fault) == (3, None)
    assert device.cards_out == 3
    assert launcher.fire(2).fired == 2 and counter.jobs == 2 and device.cards_out == 5


def test_cable_out_longer_than_silence_stops_the_motor_and_the_true_count_is_asked_for_later(sim):
    launcher = sim("seed=9&cards=112")
    device = launcher.device
    counter = FireCounter(device)
    pull(device, 150, 3000)
    result = launcher.fire(30, fire_id=9)
    assert counter.jobs == 1
    assert (result.fired, result.fault, result.details["detail"]) == (0, "link", "lost")  # unknown, not 0
    assert launcher.clock.now() < 2.5  # given up after 2 s of silence, not when the cable came back
    launcher.clock.sleep(1.5)  # the cable is back
    settled = launcher.fire_result(9)
    assert settled.fault == "link" and 0 < settled.fired < 30
    assert settled.fired == device.cards_out + cards_in_slot(device)  # the count survived the pull
    assert counter.jobs == 1  # asking never fires


def test_cable_never_back_reports_link_and_open_fails_clearly(sim):
    launcher = sim("seed=1", link_timeout=3.0)
    device = launcher.device
    device.unplug(vanish=True)
    result = launcher.fire(2)
    # the port broke under the FIRE: given up, the outcome unknown (here: it never reached the device)
    assert (result.fired, result.fault, result.details["detail"]) == (0, "link", "lost")
    started = launcher.clock.now()
    again = launcher.fire(1)
    assert (again.fired, again.fault, again.details["detail"]) == (0, "link", "down")  # nothing sent
    assert launcher.clock.now() - started <= 1.0  # refused at once
    assert device.cards_out == 0
    assert not launcher.status().connected
    with pytest.raises(LauncherError, match=r"lost the launcher on sim://.*check that the launcher's USB"):
        launcher.wait_press(timeout=1.0)
    device.plug()
    assert launcher.fire(1).fired == 1  # and it recovers once the cable is back
