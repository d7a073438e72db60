"""fire(n) through the serial driver, the link and the real firmware gives exactly n cards."""

from __future__ import annotations

import pytest
from unox.launcher.base import MAX_FIRE
from unoxsim.physics import HOPPER_CAPACITY


@pytest.mark.parametrize("n", range(1, 14))
def test_fire_n_from_a_full_hopper_gives_exactly_n(sim, n):
    launcher = sim(f"seed={n}&cards={HOPPER_CAPACITY}")
    result = launcher.fire(n)
    assert (result.requested, result.fired, result.fault) == (n, n, None)
    assert launcher.device.cards_out == n  # the simulator's ground truth, not the beam's count
    assert launcher.status().cards_counted == n


def test_consecutive_fires_add_up(sim):
    launcher = sim(f"seed=5&cards={HOPPER_CAPACITY}")
    asked = [1, 4, 2, 7, 3]
    fired = [launcher.fire(n).fired for n in asked]
    assert fired == asked and launcher.device.cards_out == sum(asked)


def test_fire_zero_sends_nothing_and_runs_nothing(sim):
    launcher = sim("seed=1")
    waiting = launcher.device.cable.to_board.pending()
    assert launcher.fire(0).fired == 0
    assert launcher.device.cable.to_board.pending() == waiting  # no FIRE frame on the wire
    launcher.wait_press(timeout=1.0)
    assert launcher.device.cards_out == 0
    assert all(level == 0 for _, level in launcher.device.wire("motor_in1").history)


def test_bad_count_is_refused_before_anything_is_sent(sim):
    launcher = sim("seed=1")
    waiting = launcher.device.cable.to_board.pending()
    for bad in (-2, MAX_FIRE + 1, 2.0, True):
        with pytest.raises(ValueError, match=f"0 to {MAX_FIRE}"):
            launcher.fire(bad)
    assert launcher.device.cable.to_board.pending() == waiting and launcher.device.cards_out == 0
