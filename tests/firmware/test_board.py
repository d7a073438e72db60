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


def test_with_ticks_the_beam_irq_times_each_edge_and_still_counts_cards_entering(fake_machine):
    now = [0]
    board = Board(fake_machine, PINS, BATTERY, ticks=lambda: now[0])
    beam = fake_machine.pin(PINS["beam"])
    beam.drive(1)
    assert board.beam_changed_ms(500) == 500  # no edge yet: the loop's own time
    for start in (100, 200, 300):
        now[0] = start
        beam.drive(0)
        now[0] = start + 56
        beam.drive(1)
    assert board.beam_count() == 3 and board.beam_changed_ms(999) == 356


def card_blocks_seen_by_a_late_loop(machine, timed: bool) -> tuple:
    """A fire of 3 whose cards block the beam 56 ms each, looked at every 2 ms by a loop that is 13 ms late
    twice (as on the Pico while it encodes or decodes a frame): once as the first card enters, once as the
    second leaves. Returns the feeder's result."""
    from unoxfw.feeder import Feeder
    from unoxfw.settings import Settings

    now = [0]
    board = Board(machine, PINS, BATTERY, ticks=(lambda: now[0]) if timed else None)
    beam = machine.pin(PINS["beam"])
    beam.drive(1)
    machine.pin(PINS["lid"]).drive(0)  # shut
    feeder = Feeder(board, Settings())
    assert feeder.start(3, 0) is None
    blocks = [(101, 157), (201, 257), (301, 357)]
    late = [range(101, 115), range(258, 272)]
    for t in range(1, 2000):
        now[0] = t
        for enter, leave in blocks:
            if t == enter:
                beam.drive(0)
            elif t == leave:
                beam.drive(1)
        if t % 2 or any(t in window for window in late):
            continue
        result = feeder.tick(t)
        if result is not None:
            return result
    raise AssertionError("the fire never ended")


def test_block_lengths_are_timed_by_the_beam_irq_not_by_a_late_loop(fake_machine):
    """On the emulated Pico, one card in ~18 was counted as a double feed: the loop measured the block from
    when it looked, up to 13 ms late (a frame's CRC-16 in Python), so a block seen late at its start became a
    short reference and one seen late at its end 1.2x longer than that. Timed by the IRQ, 3 cards are 3."""
    assert card_blocks_seen_by_a_late_loop(fake_machine, timed=True)[:3] == (3, 3, None)
    fake_machine.reset_all()
    assert card_blocks_seen_by_a_late_loop(fake_machine, timed=False)[:3] == (4, 3, None)  # timed by the loop
