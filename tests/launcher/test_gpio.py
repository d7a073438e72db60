"""The direct-GPIO driver on gpiozero mock pins, a mock card mechanism and virtual time."""

from __future__ import annotations

from pathlib import Path

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
    pressed = clock.now()
    mock_factory.pin(PINS["button"]).drive_low()
    assert gpio.wait_press(timeout=0.5) is True
    assert buzzer.state > 0 and buzzer.frequency == PATTERNS["press"][0]
    assert 0.010 <= clock.now() - pressed <= 0.020  # 10 ms steady, then taken and beeped at once
    before = clock.now()
    assert gpio.wait_press(timeout=0.5) is False  # one press, taken once
    assert clock.now() - before == pytest.approx(0.5, abs=0.02)
    assert buzzer.state == 0  # the beep ended
    mock_factory.pin(PINS["button"]).drive_high()  # release, or gpiozero's hold thread waits out hold_time


def test_a_bouncing_button_is_one_press_as_the_firmware_debounces_it(gpio, mock_factory, clock):
    """Issue 17 finding 5: gpiozero's Button without debounce took every chattering edge as a press."""
    button = mock_factory.pin(PINS["button"])
    for _ in range(3):
        for _ in range(4):  # contact chatter: 4 bounces 1 ms apart, then down and steady
            button.drive_low()
            clock.sleep(0.001)
            button.drive_high()
            clock.sleep(0.001)
        button.drive_low()
        assert gpio.wait_press(timeout=0.2) is True
        for _ in range(3):  # chatter at release is not a press either
            button.drive_high()
            clock.sleep(0.001)
            button.drive_low()
            clock.sleep(0.001)
        button.drive_high()
        assert gpio.wait_press(timeout=0.2) is False
        clock.sleep(0.05)


def test_a_blip_shorter_than_10_ms_is_not_a_press(gpio, mock_factory, clock):
    button = mock_factory.pin(PINS["button"])
    button.drive_low()
    clock.sleep(0.008)
    button.drive_high()
    assert gpio.wait_press(timeout=0.2) is False


def test_L3_first_press_after_idle_only_wakes(mock_factory, clock):
    launcher = shut_lid_launcher(mock_factory, clock, config={"firmware": {"sleep_ms": 60_000}})
    button, buzzer = mock_factory.pin(PINS["button"]), mock_factory.pin(PINS["buzzer"])
    clock.sleep(61)
    buzzer.clear_states()
    button.drive_low()
    assert launcher.wait_press(timeout=0.05) is False  # taken after 10 ms steady, but only to wake
    button.drive_high()
    assert all(s.state == 0 for s in buzzer.states)  # no beep: it was asleep
    button.drive_low()
    assert launcher.wait_press(timeout=0.05) is True


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


# ---- issue 17: the direct build's electrical care ------------------------------------------------------
def test_glitches_on_the_beam_line_are_not_cards(gpio, feeder, mock_factory, clock):
    """Finding 4: every beam edge counted; now a card is a block of 4 ms or more (the Feeder's rule)."""
    beam = mock_factory.pin(PINS["beam"])
    glitches = []

    def glitch(t: float) -> None:
        if gpio.board.motor_value() > 0 and beam.state and len(glitches) < 40:
            beam.drive_low()
            beam.drive_high()
            glitches.append(t)

    clock.hooks.append(glitch)
    result = gpio.fire(3)
    assert len(glitches) >= 20
    assert (result.fired, result.fault) == (3, None) and feeder.out == 3
    # calibrate's timings come from real blocks too, not from the first glitch after the start
    assert result.details["feed_ms"] >= feeder.card_ms and result.details["block_ms"] == feeder.block_ms


def test_every_reverse_pulse_comes_after_30_to_50_ms_of_braking(gpio, feeder, mock_factory, clock):
    """Finding 3: reversing a roller at full speed draws ~3.5 A; both inputs high brake it first."""
    in1, in2 = mock_factory.pin(PINS["motor_in1"]), mock_factory.pin(PINS["motor_in2"])
    trace = []
    clock.hooks.append(lambda t: trace.append((t, in1.state, in2.state)))
    feeder.hopper = 0  # a stall, the retry's reverse pulse, EMPTY
    assert gpio.fire(1).fault == "empty"
    feeder.hopper = 5
    assert gpio.fire(2).fault is None  # the end-of-fire reverse pulse
    starts = [i for i in range(1, len(trace)) if trace[i][2] and 0 < trace[i][2] < 1 and not trace[i][1]
              and not (trace[i - 1][2] and not trace[i - 1][1])]
    braked = []
    for i in starts:
        j = i - 1
        while j >= 0 and trace[j][1] == 1 and trace[j][2] == 1:
            j -= 1
        braked.append(trace[i][0] - trace[j + 1][0])
    # the retry after the stall, the pull-back that starts the fire after EMPTY, the end-of-fire pulse
    assert len(braked) == 3 and all(0.030 <= s <= 0.052 for s in braked), braked


def test_the_interlock_heartbeat_toggles_only_while_a_fire_runs(mock_factory, clock, feeder):
    """Finding 2: the one-shot on nSLEEP holds the bridge awake only while this pin toggles."""
    launcher = shut_lid_launcher(mock_factory, clock)
    beat = mock_factory.pin(PINS["heartbeat"])
    steps = []  # (t, motor on, heartbeat edges given since the previous clock step)
    seen = [0]

    def watch(t: float) -> None:
        beats = launcher.board.beats
        steps.append((t, bool(launcher.board.motor_value()), beats - seen[0]))
        seen[0] = beats

    clock.hooks.append(watch)
    assert launcher.fire(3).fired == 3
    running = [step for step in steps if step[1]]
    assert running and all(edges >= 1 for _, _, edges in running)  # an edge every 2 ms step while running
    # issue 23, finding 10: the '123 retriggers on rising edges only: one rising edge per beat, not per two
    levels = [state.state for state in beat.states]
    rising = sum(1 for a, b in zip(levels, levels[1:], strict=False) if not a and b)
    assert rising == launcher.board.beats and levels[-1] == 0
    idle = len(steps)
    launcher.wait_press(timeout=1.0)
    assert sum(edges for _, _, edges in steps[idle:]) == 0  # idle: no heartbeat, the bridge sleeps
    launcher.close()


def test_without_a_heartbeat_pin_the_driver_still_runs(mock_factory, clock, feeder):
    launcher = shut_lid_launcher(mock_factory, clock, pins={"heartbeat": None})
    assert launcher.fire(2).fired == 2 and launcher.board.beats == 0
    launcher.close()


def test_the_motor_runs_on_the_pis_hardware_pwm_at_the_picos_frequency(tmp_path, mock_factory, clock):
    """Finding 8: software PWM at 100 Hz; now the sysfs PWM channels of BCM 12 and 13 at 20 kHz."""
    from unox.launcher.gpio_board import GpioBoard
    from unoxfw.board import _MOTOR_HZ

    chip = tmp_path / "pwmchip0"
    for channel in (0, 1):
        (chip / f"pwm{channel}").mkdir(parents=True)
    (chip / "export").write_text("")
    board = GpioBoard(mock_factory, PINS, pwm="hardware", pwm_root=tmp_path)

    def read(channel: int, name: str) -> int:
        return int((chip / f"pwm{channel}" / name).read_text())

    assert read(0, "period") == read(1, "period") == 1_000_000_000 // _MOTOR_HZ == 50_000
    assert read(0, "enable") == read(1, "enable") == 1
    board.motor(0.8)
    assert (read(0, "duty_cycle"), read(1, "duty_cycle")) == (40_000, 0)
    board.brake()
    assert (read(0, "duty_cycle"), read(1, "duty_cycle")) == (50_000, 50_000)
    board.motor(-0.5)
    assert (read(0, "duty_cycle"), read(1, "duty_cycle")) == (0, 25_000)
    assert board.motor_value() == -0.5
    assert PINS["motor_in1"] not in mock_factory.pins  # gpiozero never claimed the PWM pins
    board.close()
    assert read(0, "enable") == read(1, "enable") == 0 and read(0, "duty_cycle") == 0


@pytest.mark.parametrize("pins, words", [
    ({"motor_in1": 5, "motor_in2": 6}, "BCM 5, 6 has no hardware PWM"),
    ({"motor_in1": 12, "motor_in2": 18}, "share PWM channel 0"),
])
def test_hardware_pwm_on_pins_without_it_is_a_clear_error(tmp_path, mock_factory, clock, pins, words):
    (tmp_path / "pwmchip0").mkdir()
    with pytest.raises(LauncherError, match=words):
        GpioLauncher(factory=mock_factory, clock=clock, pins=pins, pwm="hardware", pwm_root=tmp_path)


def test_hardware_pwm_without_the_overlay_says_what_to_add(tmp_path, mock_factory, clock):
    with pytest.raises(LauncherError, match="dtoverlay=pwm-2chan.*pwm=software"):
        GpioLauncher(factory=mock_factory, clock=clock, pwm="hardware", pwm_root=tmp_path)


def test_hardware_pwm_read_only_in_the_services_sandbox_says_to_write_the_unit_again(tmp_path, mock_factory,
                                                                                      clock, monkeypatch):
    import errno

    (tmp_path / "pwmchip0").mkdir()

    def read_only(self, *args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(Path, "write_text", read_only)
    with pytest.raises(LauncherError, match="read-only in the service's sandbox.*install service"):
        GpioLauncher(factory=mock_factory, clock=clock, pwm="hardware", pwm_root=tmp_path)


# ---- issue 23, finding 15: one gpio driver at a time ----------------------------------------
def test_a_second_gpio_launcher_is_refused_naming_the_first_and_leaves_it_running(tmp_path, clock):
    import os

    lock = tmp_path / "gpiochip0"
    lock.write_text("")
    first = GpioLauncher(factory=make_factory("mock"), clock=clock, lock=lock)
    second_factory = make_factory("mock")
    with pytest.raises(LauncherError, match=rf"in use by PID {os.getpid()} .*one program at a time"):
        GpioLauncher(factory=second_factory, clock=clock, lock=lock)
    assert not second_factory.pins  # refused before it claimed a single pin
    first.close()
    third = GpioLauncher(factory=second_factory, clock=clock, lock=lock)  # closed: the lock is free again
    third.close()


def test_a_refused_gpio_launcher_writes_nothing_to_the_pwm_channels(tmp_path, clock):
    chip = tmp_path / "pwmchip0"
    for channel in (0, 1):
        (chip / f"pwm{channel}").mkdir(parents=True)
    (chip / "export").write_text("")
    lock = tmp_path / "gpiochip0"
    lock.write_text("")
    first = GpioLauncher(factory=make_factory("mock"), clock=clock, lock=lock, pwm="hardware",
                         pwm_root=tmp_path)
    first.board.motor(0.5)
    before = {path.name: path.read_text() for path in (chip / "pwm0").iterdir()}
    with pytest.raises(LauncherError, match="in use by PID"):
        GpioLauncher(factory=make_factory("mock"), clock=clock, lock=lock, pwm="hardware", pwm_root=tmp_path)
    assert {path.name: path.read_text() for path in (chip / "pwm0").iterdir()} == before  # duty 0.5, enabled
    assert before["enable"] == "1" and before["duty_cycle"] == "25000"
    first.close()


# ---- issue 23, findings 4 and 13: the Pi build's beam edges, timed and filtered as on the Pico -------------
def test_beam_blocks_are_timed_by_the_edges_timestamps_not_the_loops_clock(mock_factory, monkeypatch):
    from gpiozero import DigitalInputDevice
    from unox.launcher.gpio_board import GpioBoard

    now = [1000]
    board = GpioBoard(mock_factory, {**PINS, "heartbeat": None}, lambda: now[0], edge_times=True)
    late = {"active_time": 0.012, "inactive_time": 0.007}  # the callbacks ran 12 ms and 7 ms after the edges
    for name, age in late.items():
        monkeypatch.setattr(DigitalInputDevice, name, property(lambda self, age=age: age))
    beam = mock_factory.pin(PINS["beam"])
    beam.drive_low()
    assert board.edges[-1] == (988, True) and board.beam_changed_ms(now[0]) == 988
    now[0] = 1050
    beam.drive_high()
    assert board.edges[-1] == (1043, False) and board.beam_changed_ms(now[0]) == 1043
    board.close()


def test_a_short_clear_inside_a_card_is_no_new_block_on_the_pi_either(mock_factory):
    from unox.launcher.gpio_board import GpioBoard

    now = [1000]
    board = GpioBoard(mock_factory, {**PINS, "heartbeat": None}, lambda: now[0])
    beam = mock_factory.pin(PINS["beam"])
    beam.drive_low()
    now[0] = 1020
    beam.drive_high()
    beam.drive_low()  # lit for a moment inside the card
    assert board.beam_count() == 1
    now[0] = 1060
    beam.drive_high()
    now[0] = 1065
    beam.drive_low()  # 5 ms of light: a gap, the next card
    assert board.beam_count() == 2
    board.close()


def test_a_pi_5_numbers_its_pwm_channels_its_own_way(tmp_path):
    """Finding 23.14: on a Pi 5 (RP1) BCM 12, 13, 18, 19 are channels 0-3; on a Pi 0-4, 18/19 share 0/1."""
    from unox.launcher.gpio_pwm import channels_for, is_pi5

    assert channels_for(18, 19, pi5=True) == (2, 3) and channels_for(18, 19) == (0, 1)
    assert channels_for(12, 18, pi5=True) == (0, 2)
    with pytest.raises(LauncherError, match="share PWM channel 0"):
        channels_for(12, 18)
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\0")
    assert is_pi5(model)
    model.write_text("Raspberry Pi 4 Model B Rev 1.4\0")
    assert not is_pi5(model) and not is_pi5(tmp_path / "none")


def test_a_freshly_exported_pwm_channel_is_written_only_once_udev_made_it_writable(tmp_path, monkeypatch):
    """Finding 23.7: the files appear root's first; udev then gives them to the gpio group. Their existence
    is not enough: the channel waits until it may write them (virtual time, no real sleep)."""
    from unox.launcher import gpio_pwm

    chip = tmp_path / "pwmchip0"
    chip.mkdir()
    export = chip / "export"
    export.write_text("")
    real_write = Path.write_text

    def kernel(self, text, *args, **kwargs):  # writing export makes the channel's files
        result = real_write(self, text, *args, **kwargs)
        if self == export:
            channel = chip / f"pwm{text}"
            channel.mkdir()
            for name in ("duty_cycle", "period", "enable"):
                real_write(channel / name, "0")
        return result

    checks = []

    def access(path, mode):
        checks.append(Path(path).name)
        return len(checks) > 9  # udev's rule lands after the third look at the three files

    naps = []
    monkeypatch.setattr(Path, "write_text", kernel)
    monkeypatch.setattr(gpio_pwm.os, "access", access)
    monkeypatch.setattr(gpio_pwm.time, "sleep", naps.append)
    channel = gpio_pwm.SysfsPwmChannel(chip, 0)
    assert len(naps) >= 3  # it waited for the permissions, not only for the files
    assert (chip / "pwm0" / "enable").read_text() == "1" and (chip / "pwm0" / "period").read_text() == "50000"
    channel.close()
