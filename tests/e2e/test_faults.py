"""Every fault the simulator can inject reaches the host as the right FireResult and status."""

from __future__ import annotations

from unoxfw.settings import LIMITS

from .conftest import FireCounter, firmware_config


def motor_drive(launcher) -> float:
    return launcher.device.wire("motor_in1").drive() + launcher.device.wire("motor_in2").drive()


def test_L4_empty_hopper_is_reported_empty(sim):
    launcher = sim("seed=1&cards=0")
    result = launcher.fire(3)
    assert (result.fired, result.fault) == (0, "empty")
    assert "empty" in launcher.status().faults and motor_drive(launcher) == 0


def test_hopper_running_out_reports_the_cards_it_had(sim):
    launcher = sim("seed=1&cards=2")
    result = launcher.fire(5)
    assert (result.fired, result.fault) == (2, "empty") and launcher.device.cards_out == 2


def test_jam_is_reported_and_the_motor_stops(sim):
    launcher = sim("seed=1&jam=1&unjam=0")
    result = launcher.fire(3)
    assert result.fault == "jam" and result.fired < 3
    assert result.details["detail"] == "wedged"
    assert motor_drive(launcher) == 0 and "jam" in launcher.status().faults


def test_T4_card_left_in_the_beam_is_stuck_and_counted(sim):
    launcher = sim("seed=1&stuck=1")
    result = launcher.fire(1)
    assert (result.fired, result.fault) == (1, "stuck")  # it is the presser's card (T4)
    assert launcher.device.model.beam_blocked()


def test_lid_open_is_reported_and_the_motor_never_runs(sim):
    launcher = sim("seed=1&lid=open")
    assert launcher.status().lid_open
    result = launcher.fire(2)
    assert (result.fired, result.fault) == (0, "lid")
    assert all(level == 0 for _, level in launcher.device.wire("motor_in1").history)


def test_lid_opened_later_is_seen_by_status(sim):
    launcher = sim("seed=1")
    assert not launcher.status().lid_open
    launcher.device.open_lid()
    launcher.wait_press(timeout=0.2)
    status = launcher.status()
    assert status.lid_open and "lid" in status.faults


def test_L5_low_battery_is_reported_but_still_fires(sim):
    low_mv = LIMITS["low_mv"][0]
    launcher = sim(f"seed=1&battery={low_mv - 200}")
    status = launcher.status()
    assert status.low_battery and "battery" in status.faults and status.battery_mv < low_mv
    assert launcher.fire(2).fired == 2


def test_critical_battery_refuses_to_fire(sim):
    crit_mv = LIMITS["crit_mv"][0]
    launcher = sim(f"seed=1&battery={crit_mv - 300}")
    result = launcher.fire(2)
    assert (result.fired, result.fault) == (0, "battery") and launcher.device.cards_out == 0


def test_link_loss_is_reported_without_inventing_cards(sim):
    launcher = sim("seed=1", link_timeout=5.0)
    launcher.device.unplug()
    result = launcher.fire(3)
    assert (result.fired, result.fault) == (0, "link") and launcher.device.cards_out == 0
    status = launcher.status()
    assert not status.connected and "link" in status.faults


def test_host_silence_stops_a_running_motor(sim):
    launcher = sim("seed=1&cards=112")
    device = launcher.device
    device.schedule(100, lambda: device.unplug())  # the host's heartbeats stop reaching the firmware mid-fire
    launcher.link_timeout = 4.0
    result = launcher.fire(40)
    assert result.fault == "link"
    silence_ms = LIMITS["silence_ms"][0]
    assert device.model.longest_run_ms <= 100 + silence_ms + 50
    assert motor_drive(launcher) == 0


def test_watchdog_resets_a_hung_firmware_and_the_host_cannot_be_told_what_the_fire_did(sim):
    launcher = sim("seed=4&cards=112")
    device = launcher.device
    launcher.clock.sleep(2.5)
    counter = FireCounter(device)
    device.schedule(200, lambda: device.freeze())  # the main loop hangs while the motor runs
    result = launcher.fire(40, fire_id=77)
    assert counter.jobs == 1
    assert (result.fired, result.fault, result.details["detail"]) == (0, "link", "lost")
    assert launcher.clock.now() - 2.5 < 2.6  # given up after the link's silence, not after the watchdog
    launcher.clock.sleep(5.0)  # the watchdog's 5 s run out
    assert device.boots == 2 and motor_drive(launcher) == 0  # the WDT reset the board
    assert launcher.fire_result(77) is None  # rebooted: it cannot tell, so the table asks the operator
    assert launcher.fire(2).fired == 2  # the host started a new session by itself


def test_a_hung_firmware_loop_stops_the_motor_at_the_on_time_cap_not_the_watchdog(sim):
    cap_ms = 600
    launcher = sim("seed=4&cards=112", config=firmware_config(max_on_ms=cap_ms))
    device = launcher.device
    launcher.clock.sleep(2.5)
    device.schedule(200, lambda: device.freeze())  # frozen 200 ms into the fire
    launcher.fire(13)
    assert device.boots == 1  # no watchdog reset yet: the timer stopped the motor on its own
    assert device.model.longest_run_ms <= cap_ms + 25 and motor_drive(launcher) == 0
    assert device.firmware_board.cuts == 1


def test_on_time_cap_stops_the_motor(sim):
    cap_ms = 600
    launcher = sim("seed=1&cards=112", config=firmware_config(max_on_ms=cap_ms))
    result = launcher.fire(13)
    assert (result.fault, result.details["detail"]) == ("jam", "ontime")
    assert 0 < result.fired < 13
    assert launcher.device.model.longest_run_ms <= cap_ms + 20 and motor_drive(launcher) == 0


def test_status_with_the_cable_out_answers_at_once(sim):
    launcher = sim("seed=1")
    launcher.device.unplug()
    launcher.clock.sleep(4.0)  # no heartbeat for longer than the host tolerates
    start = launcher.clock.now()
    status = launcher.status()
    assert not status.connected and "link" in status.faults
    assert launcher.clock.now() - start < 0.1  # it did not wait for a STATUS reply that cannot come
    launcher.device.plug()
    launcher.wait_press(timeout=1.5)
    assert launcher.status().connected
