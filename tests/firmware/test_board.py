"""The hardware layer over an injected machine: pins from pins.py, H-bridge mapping, IRQ counting."""

import pytest
from unoxfw.board import Board
from unoxfw.pins import BATTERY, PINS


@pytest.fixture
def board(fake_machine):
    return Board(fake_machine, PINS, BATTERY)


def test_motor_forward_reverse_and_coast_on_drv8833_inputs(board, fake_machine):
    in1, in2 = fake_machine.pwm(PINS["motor_in1"]), fake_machine.pwm(PINS["motor_in2"])
    board.motor(0.5)
    assert (in1.duty_u16(), in2.duty_u16()) == (65535 // 2, 0)
    board.motor(-1)
    assert (in1.duty_u16(), in2.duty_u16()) == (0, 65535)
    board.motor(0)
    assert (in1.duty_u16(), in2.duty_u16()) == (0, 0)
    board.motor(7)  # clamped, never an invalid duty
    assert in1.duty_u16() == 65535 and board.motor_value() == 1


def test_brake_drives_both_bridge_inputs_high_and_reads_as_motor_off(board, fake_machine):
    """Issue 17 finding 3: both inputs high short the windings (DRV8833/TB6612 brake), stopping the roller
    before a reverse pulse; the motor is not 'running' then (the battery is judged only at rest anyway)."""
    in1, in2 = fake_machine.pwm(PINS["motor_in1"]), fake_machine.pwm(PINS["motor_in2"])
    board.motor(0.8)
    board.brake()
    assert (in1.duty_u16(), in2.duty_u16()) == (65535, 65535)
    assert board.motor_value() == 0
    board.motor(-0.8)
    assert (in1.duty_u16(), in2.duty_u16()) == (0, int(0.8 * 65535))


def test_beam_irq_counts_cards_entering(board, fake_machine):
    beam = fake_machine.pin(PINS["beam"])
    for _ in range(3):
        beam.drive(0)
        assert board.beam_blocked()
        beam.drive(1)
    assert board.beam_count() == 3
    assert not board.beam_blocked()


def test_button_irq_counts_presses_and_lid_reads_high_as_open(board, fake_machine):
    button, lid = fake_machine.pin(PINS["button"]), fake_machine.pin(PINS["lid"])
    button.drive(0)
    assert board.button_down()
    button.drive(1)
    assert board.presses() == 1
    lid.drive(0)
    assert not board.lid_open()
    lid.drive(1)
    assert board.lid_open()


def test_inputs_use_pull_ups(board, fake_machine):
    for name in ("beam", "button", "lid"):
        pin = fake_machine.pin(PINS[name])
        assert (pin.mode, pin.pull) == (fake_machine.Pin.IN, fake_machine.Pin.PULL_UP)


def test_battery_mv_through_the_divider(board, fake_machine):
    raw = 40000
    fake_machine.set_adc(PINS["battery_adc"], raw)
    ratio = (BATTERY["r_top_ohm"] + BATTERY["r_bottom_ohm"]) / BATTERY["r_bottom_ohm"]
    expected = raw / 65535 * BATTERY["adc_ref_mv"] * ratio
    assert abs(board.battery_mv() - expected) <= 2


def test_tone_sets_frequency_and_half_duty_and_silences(board, fake_machine):
    buzzer = fake_machine.pwm(PINS["buzzer"])
    board.tone(2000)
    assert (buzzer.freq(), buzzer.duty_u16()) == (2000, 32768)
    board.tone(0)
    assert buzzer.duty_u16() == 0


def test_watchdog_is_only_started_on_request(board, fake_machine):
    board.wdt_feed()
    assert fake_machine.wdts == []
    board.wdt_start(5000)
    board.wdt_feed()
    assert fake_machine.wdts[0].timeout == 5000 and fake_machine.wdts[0].feeds == 1


def test_fake_wdt_refuses_more_than_the_rp2040_limit(fake_machine):
    with pytest.raises(ValueError, match="8388"):
        fake_machine.WDT(timeout=9000)
