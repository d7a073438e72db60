"""The direct-GPIO driver on gpiozero mock pins, a mock card mechanism and virtual time."""

from __future__ import annotations

import pytest
from unox.launcher import LauncherError, open_launcher
from unox.launcher.gpio import GpioLauncher
from unox.launcher.gpio_board import make_factory
from unox.launcher.gpio_pins import PINS
from unoxfw.feeder import _RUNDOWN_MAX_MS as RUNDOWN_MAX_MS
from unoxfw.settings import LIMITS
from unoxfw.signals import PATTERNS

from .conftest import shut_lid_launcher


def pin_states(factory, name: str) -> list[float]:
    return [s.state for s in factory.pin(PINS[name]).states]


@pytest.mark.parametrize("n", range(1, 14))
def test_fire_n_gives_exactly_n_cards(gpio, feeder, n):
    result = gpio.fire(n)
    assert (result.requested, result.fired, result.fault) == (n, n, None)
    assert feeder.out == n  # the mechanism really let n cards out
    assert gpio.board.motor_value() == 0
    assert gpio.status().cards_counted == n


def test_fire_zero_never_runs_the_motor(gpio, feeder, mock_factory):
    assert gpio.fire(0).fired == 0
    assert all(state == 0 for state in pin_states(mock_factory, "motor_in1"))


def test_L4_empty_hopper_reports_empty_after_one_retry(gpio, feeder, mock_factory):
    feeder.hopper = 0
    result = gpio.fire(3)
    assert (result.fired, result.fault) == (0, "empty")
    assert any(state > 0 for state in pin_states(mock_factory, "motor_in2"))  # the retry's reverse pulse
    assert gpio.board.motor_value() == 0 and gpio.status().faults == ["empty"]


def test_L4_hopper_running_out_mid_fire_reports_the_cards_and_empty(gpio, feeder):
    feeder.hopper = 2
    result = gpio.fire(5)
    assert (result.fired, result.fault) == (2, "empty")


def test_card_wedged_in_the_beam_mid_fire_is_a_jam(gpio, feeder):
    feeder.wedged_card = 2
    result = gpio.fire(4)
    assert (feeder.out, feeder.in_slot) == (1, 1)  # card 1 left; card 2 is still inside, in the beam
    # FIRED k (docs/protocol.md): the wedged card is not counted, it goes back on the stack at the lid
    assert (result.fired, result.fault, result.details["detail"]) == (feeder.out, "jam", "wedged")
    assert gpio.status().cards_counted == feeder.out
    assert gpio.board.motor_value() == 0 and gpio.status().beam_blocked


def test_T4_last_card_left_in_the_beam_is_stuck(gpio, feeder):
    feeder.wedged_card = 3
    result = gpio.fire(3)
    assert (feeder.out, feeder.in_slot) == (2, 1)
    # T4: the card sticking out of the slot belongs to the presser, so it is counted with those that left
    assert (result.fired, result.fault) == (feeder.out + feeder.in_slot, "stuck")
    assert gpio.board.motor_value() == 0 and gpio.status().beam_blocked


def test_a_card_left_in_the_slot_by_an_earlier_fire_jams_the_next_and_nothing_more_is_counted(gpio, feeder):
    feeder.wedged_card = 1
    assert (gpio.fire(1).fired, feeder.in_slot) == (1, 1)  # STUCK (T4): the presser's card, counted once
    result = gpio.fire(2)
    assert (result.fault, result.details["detail"]) == ("jam", "wedged")
    assert (result.fired, feeder.fed, feeder.out) == (0, 1, 0)  # no card came or left during this fire
    assert gpio.status().cards_counted == 1


def test_lid_open_never_runs_the_motor(gpio, feeder, mock_factory):
    mock_factory.pin(PINS["lid"]).drive_high()
    result = gpio.fire(2)
    assert (result.fired, result.fault) == (0, "lid")
    assert all(state == 0 for state in pin_states(mock_factory, "motor_in1"))
    assert gpio.status().lid_open and "lid" in gpio.status().faults


def test_lid_opened_while_firing_stops_the_motor(gpio, feeder, mock_factory, clock):
    def open_lid_after_first_card(t):
        if feeder.out == 1:
            mock_factory.pin(PINS["lid"]).drive_high()

    clock.hooks.append(open_lid_after_first_card)
    result = gpio.fire(5)
    assert (result.fired, result.fault) == (1, "lid")
    assert gpio.board.motor_value() == 0


def test_on_time_cap_stops_the_motor(mock_factory, clock, feeder):
    cap_ms = 1000
    launcher = shut_lid_launcher(mock_factory, clock, config={"firmware": {"max_on_ms": cap_ms}})
    feeder.card_ms = 300  # each card in time for the jam timeout, but 13 of them exceed the cap
    start = clock.now()
    running = []
    clock.hooks.append(lambda t: running.append(t) if launcher.board.motor_value() else None)
    result = launcher.fire(13)
    assert result.fault == "jam" and result.details["detail"] == "ontime"
    assert result.fired == cap_ms // 300
    assert launcher.board.motor_value() == 0 and (running[-1] - start) * 1000 < cap_ms + 50
    assert (clock.now() - start) * 1000 < cap_ms + RUNDOWN_MAX_MS  # FIRED k waits for the run-down


def test_ctrl_c_during_a_fire_stops_the_motor(mock_factory, clock, feeder):
    launcher = shut_lid_launcher(mock_factory, clock)

    def interrupt(t: float) -> None:
        if t > 0.2:
            raise KeyboardInterrupt

    clock.hooks.append(interrupt)
    with pytest.raises(KeyboardInterrupt):
        launcher.fire(10)
    assert launcher.board.motor_value() == 0


def test_L1_press_beeps_at_once_and_is_taken_once(gpio, mock_factory, clock):
    buzzer = mock_factory.pin(PINS["buzzer"])
    mock_factory.pin(PINS["button"]).drive_low()
    assert buzzer.state > 0 and buzzer.frequency == PATTERNS["press"][0]  # before anyone waits
    assert gpio.wait_press(timeout=0.5) is True
    before = clock.now()
    assert gpio.wait_press(timeout=0.5) is False  # one press, taken once
    assert clock.now() - before == pytest.approx(0.5, abs=0.02)
    assert buzzer.state == 0  # the beep ended
    mock_factory.pin(PINS["button"]).drive_high()  # release, or gpiozero's hold thread waits out hold_time


def test_L3_first_press_after_idle_only_wakes(mock_factory, clock):
    launcher = shut_lid_launcher(mock_factory, clock, config={"firmware": {"sleep_ms": 60_000}})
    button, buzzer = mock_factory.pin(PINS["button"]), mock_factory.pin(PINS["buzzer"])
    clock.sleep(61)
    buzzer.clear_states()
    button.drive_low()
    button.drive_high()
    assert all(s.state == 0 for s in buzzer.states)  # no beep: it was asleep
    assert launcher.wait_press(timeout=0) is False
    button.drive_low()
    assert launcher.wait_press(timeout=0) is True


def test_L2_firing_pattern_plays_while_firing(gpio, feeder, mock_factory):
    buzzer = mock_factory.pin(PINS["buzzer"])
    buzzer.clear_states()
    gpio.fire(4)
    states = buzzer.states
    beeps = [s for s, prev in zip(states[1:], states, strict=False) if s.state > 0 >= prev.state]
    assert len(beeps) == sum(1 for f in PATTERNS["firing"][::2] if f)


def test_fault_plays_its_pattern(gpio, feeder, mock_factory):
    feeder.hopper = 0
    gpio.fire(1)
    assert mock_factory.pin(PINS["buzzer"]).frequency == PATTERNS["empty"][0]


def test_beep_plays_the_whole_pattern_on_virtual_time(gpio, clock, mock_factory):
    start = clock.now()
    gpio.beep("jam")
    pattern_ms = sum(PATTERNS["jam"][1::2])
    assert pattern_ms <= (clock.now() - start) * 1000 <= pattern_ms + 200  # plus the gap after a pattern
    assert mock_factory.pin(PINS["buzzer"]).state == 0


def test_fire_details_measure_the_mechanism_for_calibrate(gpio, feeder):
    feeder.block_ms, feeder.card_ms = 30, 200
    details = gpio.fire(1).details
    assert details["block_ms"] == pytest.approx(30, abs=3)
    assert details["feed_ms"] == pytest.approx(200, abs=5)
    assert details["duty"] == LIMITS["duty"][0]


def test_config_settings_reach_the_feeder(mock_factory, clock, feeder):
    launcher = shut_lid_launcher(mock_factory, clock, config={"firmware": {"card_ms": 100}})
    feeder.card_ms = 400  # slower than the configured jam timeout, even with the retry
    assert launcher.fire(1).fault == "empty"
    assert feeder.card_ms < LIMITS["card_ms"][0]  # with the default timeout this card would have come


def test_bad_firmware_config_is_refused(mock_factory, clock):
    with pytest.raises(LauncherError, match="duty"):
        GpioLauncher(factory=mock_factory, clock=clock, config={"firmware": {"duty": 5}})


def test_open_launcher_with_mock_factory():
    launcher = open_launcher("gpio:?factory=mock")
    try:
        assert isinstance(launcher, GpioLauncher) and launcher.status().connected
    finally:
        launcher.close()
        launcher.pin_factory.reset()


def test_missing_backend_is_a_clear_error(monkeypatch):
    import importlib

    def no_module(name):
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(importlib, "import_module", no_module)
    with pytest.raises(LauncherError, match=r"pin factory lgpio is not usable.*pip install unox\[gpio\]"):
        make_factory("lgpio")


def test_unknown_factory_is_refused():
    with pytest.raises(LauncherError, match="use one of: lgpio, rpigpio, mock"):
        make_factory("wiringpi")


def test_pin_in_use_is_a_clear_error(gpio, mock_factory, clock):
    with pytest.raises(LauncherError, match="cannot set up the launcher pins"):
        GpioLauncher(factory=mock_factory, clock=clock)


def test_bad_count_and_pattern_are_refused(gpio, feeder):
    with pytest.raises(ValueError, match="0 to 40"):
        gpio.fire(-1)
    with pytest.raises(ValueError, match="unknown beep pattern"):
        gpio.beep("fanfare")
    assert feeder.out == 0


def test_configure_checks_the_firmware_bounds_and_keeps_the_old_value(gpio):
    gpio.configure({"duty": 60})
    assert gpio.settings.get("duty") == 60
    with pytest.raises(LauncherError, match=r"duty = 7 refused: out_of_range; allowed: 20\.\.100"):
        gpio.configure({"duty": 7})
    assert gpio.settings.get("duty") == 60


def test_gpio_has_no_device_memory_and_no_standalone_fires(gpio, feeder):
    result = gpio.fire(1, fire_id=12)
    assert result.fired == 1
    assert gpio.fire_result(12) is None  # the host is the launcher's brain: nothing outlives it to ask
    assert gpio.take_standalone_fires() == []  # and it never fires without the host
