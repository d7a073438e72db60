"""The virtual launcher running the REAL firmware (unoxfw) under CPython, commanded over the real link."""

import ast
from pathlib import Path

import pytest
import unoxfw
from unoxfw import runner
from unoxsim.device import WDT_TIMEOUT_MS, VirtualDevice
from unoxsim.machine import WDT_RESET
from unoxsim.physics import HOPPER_CAPACITY


@pytest.mark.parametrize("n", range(1, 14))
def test_fire_n_gives_n_cards_through_the_beam_from_a_full_hopper(host_for, n):
    host = host_for(seed=n, cards=HOPPER_CAPACITY)
    fired, requested, fault, _ = host.fire(n)
    assert (int(fired), int(requested), fault) == (n, n, "-")
    assert host.device.cards_out == n
    assert host.device.model.hopper == HOPPER_CAPACITY - n  # the next card was pulled back, not lost
    assert not host.device.model.beam_blocked()


def test_a_100_press_session_fires_what_the_beam_counts(host_for):
    host = host_for(seed=5, cards=HOPPER_CAPACITY)
    device, total = host.device, 0
    for press in range(1, 101):
        device.press_button()
        assert host.wait_for("BUTTON") == (str(press),)
        n = 1 if device.model.hopper else 0
        fired, _, fault, _ = host.fire(n)
        total += int(fired)
        assert fault == "-"
    assert device.cards_out == total == 100


def test_L1_a_taken_press_beeps_at_once_without_the_host(host_for):
    host = host_for(seed=2)
    device = host.device  # from here on the host reads nothing and answers nothing
    device.advance(100)
    pressed = device.now_ms()
    device.press_button()
    device.advance(100)
    assert device.beeps(since_ms=pressed) == 1
    starts = [t for t, v in device.wire("buzzer").changes(pressed) if v > 0]
    assert starts[0] - pressed <= 30  # debounce plus a loop: far below a player's ~100 ms reaction time


def test_L4_empty_hopper_is_reported_empty_with_nothing_fired(host_for):
    host = host_for(seed=3, cards=0)
    fired, _, fault, _ = host.fire(2)
    assert (fired, fault) == ("0", "empty")
    assert host.device.cards_out == 0


def test_a_jam_that_will_not_clear_is_reported_jam_and_the_motor_stops(host_for):
    host = host_for(seed=3, jam=1.0, unjam=0.0)
    fired, _, fault, _ = host.fire(3)
    assert fault == "jam"
    assert host.device.wire("motor_in1").drive() == 0.0
    assert host.device.model.jammed()


def test_T4_a_stuck_card_is_reported_and_stays_for_the_presser(host_for):
    host = host_for(seed=4, stuck=1.0)
    fired, _, fault, _ = host.fire(1)
    assert fault == "stuck"
    assert host.device.model.stuck_in_slot() == 1
    assert host.device.take_stuck() == 1 and host.device.cards_out == 1


def test_lid_open_refuses_the_fire_and_the_motor_never_runs_with_the_lid_open(host_for):
    host = host_for(seed=6)
    host.device.open_lid()
    host.pump(100)
    fired, _, fault, _ = host.fire(2)
    assert (fired, fault) == ("0", "lid")
    assert host.device.model.lid_open_motor_ms == 0
    host.device.close_lid()
    host.pump(100)
    assert host.fire(2)[:3] == ("2", "2", "-")


def test_lid_opened_while_firing_stops_the_motor(host_for):
    host = host_for(seed=6, cards=HOPPER_CAPACITY)
    host.link.send("FIRE", (13,), host.device.now_ms())
    host.pump(200)
    host.device.open_lid()
    fired, _, fault, _ = host.wait_for("FIRED")
    assert fault == "lid"
    assert host.device.model.lid_open_motor_ms <= 5  # the firmware reacts within a few ticks


def test_watchdog_resets_a_hung_firmware_and_the_motor_stops(host_for):
    host = host_for(seed=7, cards=HOPPER_CAPACITY)
    device = host.device
    host.link.send("FIRE", (40,), device.now_ms())
    host.pump(100)
    assert device.wire("motor_in1").drive() > 0
    frozen_at = device.now_ms()
    device.freeze()
    device.advance(WDT_TIMEOUT_MS + 10)
    assert device.board.resets and device.board.resets[-1][1] == WDT_RESET
    assert device.board.resets[-1][0] - frozen_at <= WDT_TIMEOUT_MS + 1
    assert device.wire("motor_in1").drive() == 0.0 and device.wire("motor_in2").drive() == 0.0


def test_low_battery_is_reported(host_for):
    host = host_for(seed=8, battery_mv=4500)
    assert host.wait_for("BATTERY")[1] == "ok"  # the state sent after HELLO
    host.device.set_battery(3600)
    mv, level = host.wait_for("BATTERY")
    assert level == "low" and int(mv) < 3900


def test_power_cycle_reboots_the_firmware_with_the_cards_where_they_were(host_for):
    host = host_for(seed=9)
    host.fire(2)
    hopper, boots = host.device.model.hopper, host.device.boots
    host.device.power_cycle()
    assert host.device.boots == boots + 1 and host.device.model.hopper == hopper
    host.link = type(host.link)(host.device.host_write, epoch=0x0B0B)
    host.hello()
    assert host.fire(1)[:3] == ("1", "1", "-")


def test_unplugged_no_bytes_flow_and_the_firmware_goes_on_alone(host_for):
    host = host_for(seed=10, bounce=0)
    device = host.device
    host.pump(100)
    host.frames.clear()
    device.unplug()
    host.link.send("FIRE", (2,), device.now_ms())
    host.pump(6000)
    assert host.frames == [] and device.cards_out == 0
    assert device.app.mode() == "alone"
    counted, presses = device.app.counted, device.app.presses_taken
    device.press_button()
    device.advance(3000)
    assert device.app.presses_taken == presses + 1
    assert device.cards_out == device.app.counted - counted  # fired by the built-in profile, beam-counted
    device.plug()
    host.hello()
    assert host.fire(1)[:3] == ("1", "1", "-")


def test_every_fire_happens_exactly_once_through_a_chaotic_cable(host_for):
    host = host_for(seed=11, cards=HOPPER_CAPACITY, drop=0.1, corrupt=0.1, dup=0.1)
    total = 0
    for _ in range(30):
        fired, requested, fault, _ = host.fire(2)
        assert fault == "-"
        total += int(fired)
    assert host.device.cards_out == total == 60
    stats = host.device.cable.to_board.stats
    assert stats["dropped"] and stats["corrupted"] and stats["duplicated"]


def test_same_seed_same_session():
    def session(seed):
        device = VirtualDevice(seed=seed, jam=0.2, double=0.2, stuck=0.1)
        for _ in range(10):
            device.press_button()
            device.advance(4000)
            device.take_stuck()
        return device.cards_out, device.model.fault_counts, device.wire("motor_in1").history

    assert session(12) == session(12)


@pytest.mark.parametrize("kwargs, message", [
    (dict(lid="ajar"), "open' or 'shut"), (dict(bounce=11), "bounce"), (dict(battery_mv=0), "mV"),
    (dict(drop=0.6, corrupt=0.6), "sum"), (dict(jam=-0.1), "between 0 and 1"),
])
def test_bad_device_parameters_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        VirtualDevice(**kwargs)


def test_set_battery_refuses_nonsense_and_keeps_the_old_value():
    device = VirtualDevice(seed=1)
    with pytest.raises(ValueError, match="1..7000"):
        device.set_battery(-5)
    assert device.model.battery.open_mv == 4500


def test_L1_one_press_with_contact_bounce_on_press_and_release_is_one_press():
    device = VirtualDevice(seed=13, bounce=2)
    device.advance(500)
    for _ in range(5):
        device.press_button(hold_ms=120)
        device.advance(3000)
    assert device.app.presses_taken == 5


def test_one_press_without_contact_bounce_is_one_press():
    device = VirtualDevice(seed=13, bounce=0)
    device.advance(500)
    for _ in range(5):
        device.press_button(hold_ms=120)
        device.advance(3000)
    assert device.app.presses_taken == 5


def test_contact_bounce_makes_extra_edges_on_the_button_pad():
    device = VirtualDevice(seed=13, bounce=2)
    device.advance(100)
    start = device.now_ms()
    device.press_button(hold_ms=50)
    device.advance(100)
    falls = [t for t, level in device.wire("button").changes(start) if level == 0]
    assert len(falls) == 1 + 2 + 2  # the press, its chatter, and the release's chatter
    assert device.firmware_board.presses() == len(falls)


def test_a_double_feed_is_two_cards_out_in_one_beam_block(host_for):
    host = host_for(seed=14, cards=20, double=1.0)
    device = host.device
    start = device.now_ms()
    host.fire(1)
    falls = [t for t, level in device.wire("beam").changes(start) if level == 0]
    assert device.cards_out == 2 and len(falls) == 1


def test_advance_until_stops_at_the_first_step_where_the_condition_holds():
    device = VirtualDevice(seed=15)
    device.press_button()
    assert device.advance_until(1000, lambda: device.beeps() > 0)
    starts = [t for t, v in device.wire("buzzer").history if v > 0]
    assert starts == [device.now_ms()]  # stopped at the very step the buzzer started
    before = device.now_ms()
    assert not device.advance_until(50, lambda: False) and device.now_ms() == before + 50


def test_watchdog_is_armed_first_thing_at_boot_as_in_firmware_main_py():
    main_py = (Path(unoxfw.__file__).parents[1] / "main.py").read_text()
    body = [node for node in ast.parse(main_py).body if not isinstance(node, ast.Expr)]
    assert ast.unparse(body[0]) == "import machine"
    # issue 23: the motor pins are driven low first (a Pico 2's pads can keep their level over a reset), then
    # the watchdog, before any other work
    names = [ast.unparse(node) for node in body[1:5]]
    assert names[:2] == ["MOTOR_PINS = (14, 15)", "BUZZER_PIN = 13"]
    assert names[2].startswith("for _pin in MOTOR_PINS:")
    assert "machine.Pin(_pin, machine.Pin.OUT, value=0)" in names[2]
    assert names[3] == f"WDT = machine.WDT(timeout={runner.WDT_MS})"
    assert WDT_TIMEOUT_MS == runner.WDT_MS
    device = VirtualDevice(seed=16)
    assert device.board.wdt_timeout == WDT_TIMEOUT_MS and device.now_ms() == 0  # armed at boot, at once
    device.power_cycle()
    assert device.board.wdt_timeout == WDT_TIMEOUT_MS and device.board.wdt_last_feed == device.now_ms()


def test_a_hang_in_the_first_two_seconds_of_boot_is_reset_by_the_watchdog():
    device = VirtualDevice(seed=16)
    device.advance(100)
    device.freeze()  # hung early in its life: before today's 2 s grace would have ended
    device.advance(WDT_TIMEOUT_MS + 10)
    assert device.boots == 2 and device.board.resets[-1][1] == WDT_RESET


def test_presses_given_faster_than_a_finger_queue_up_and_each_counts(host_for):
    host = host_for(seed=17, bounce=2)  # in a host session a press fires nothing, so none is ignored
    device = host.device
    start = device.now_ms()
    for _ in range(3):
        device.press_button(hold_ms=120)  # all three at the same instant
    assert [host.wait_for("BUTTON") for _ in range(3)] == [("1",), ("2",), ("3",)]
    host.pump(300)
    downs = [t for t, level in device.wire("button").changes(start) if level == 0]
    assert len(downs) == 3 * 5  # each press: its edge, press chatter, release chatter
