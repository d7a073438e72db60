"""The fake `machine` behaves like the RP2040's: IRQs on edges, PWM history, ADC scaling, WDT resets."""

import pytest
from unoxsim.clock import VirtualClock
from unoxsim.machine import WDT_MAX_MS, WDT_RESET, MachineReset, VirtualBoard


@pytest.fixture
def board():
    return VirtualBoard(VirtualClock(), seed=3, adc_noise_lsb=0)


def test_clock_only_moves_when_advanced_and_never_backwards():
    clock = VirtualClock()
    assert clock.advance(7) == 7 and clock.now_ms() == 7
    with pytest.raises(ValueError, match="backwards"):
        clock.advance(-1)
    with pytest.raises(ValueError, match="backwards"):
        clock.advance_to(3)
    assert clock.now_ms() == 7


def test_ticks_diff_handles_the_2_pow_30_wrap_like_micropython():
    late = VirtualClock.ticks_add((1 << 30) - 5, 10)
    assert late == 5
    assert VirtualClock.ticks_diff(late, (1 << 30) - 5) == 10


def test_pull_up_input_reads_high_until_driven_low(board):
    machine = board.machine
    pin = machine.Pin(16, machine.Pin.IN, machine.Pin.PULL_UP)
    assert pin.value() == 1
    board.wire(16).drive_low()
    assert pin.value() == 0
    board.wire(16).release()
    assert pin() == 1


def test_input_without_pull_floats_to_zero_so_a_missing_pull_up_shows(board):
    pin = board.machine.Pin(17, board.machine.Pin.IN)
    assert pin.value() == 0


def test_irq_fires_only_on_the_requested_edge_with_the_pin(board):
    machine = board.machine
    pin = machine.Pin(16, machine.Pin.IN, machine.Pin.PULL_UP)
    seen = []
    pin.irq(lambda p: seen.append((p, p.value())), machine.Pin.IRQ_FALLING)
    wire = board.wire(16)
    for _ in range(3):
        wire.drive_low()
        wire.drive_low()  # no edge: no second call
        wire.release()
    assert seen == [(pin, 0)] * 3


def test_irq_on_both_edges_and_removed_with_handler_none(board):
    machine = board.machine
    pin = machine.Pin(18, machine.Pin.IN, machine.Pin.PULL_UP)
    levels = []
    pin.irq(lambda p: levels.append(p.value()), machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)
    board.wire(18).drive_low()
    board.wire(18).release()
    pin.irq(None)
    board.wire(18).drive_low()
    assert levels == [0, 1]


def test_output_history_has_virtual_timestamps(board):
    pin = board.machine.Pin(25, board.machine.Pin.OUT)
    board.clock.advance(5)
    pin.on()
    board.clock.advance(7)
    pin.off()
    pin.off()
    assert board.wire(25).changes(since_ms=1) == [(5, 1.0), (12, 0.0)]
    assert board.machine.Pin("LED").value() == 0


def test_pwm_records_duty_history_and_shares_freq_within_a_slice(board):
    machine = board.machine
    in1 = machine.PWM(machine.Pin(14), freq=20_000, duty_u16=0)
    in2 = machine.PWM(machine.Pin(15))
    assert in2.freq() == 20_000  # GP14 and GP15 are slice 7 channels A and B
    board.clock.advance(10)
    in1.duty_u16(32768)
    board.clock.advance(30)
    in1.deinit()
    assert board.wire(14).changes(since_ms=1) == [(10, 32768 / 65535), (40, 0.0)]


@pytest.mark.parametrize("bad", [-1, 65536])
def test_pwm_refuses_duty_out_of_range(board, bad):
    pwm = board.machine.PWM(board.machine.Pin(13))
    with pytest.raises(ValueError, match="0..65535"):
        pwm.duty_u16(bad)
    assert pwm.duty_u16() == 0


def test_pwm_refuses_freq_out_of_range(board):
    with pytest.raises(ValueError, match="freq"):
        board.machine.PWM(board.machine.Pin(13), freq=1)


def test_adc_scales_millivolts_to_u16_with_12_bit_steps(board):
    board.set_adc_source(0, lambda: 1650.0)
    reading = board.machine.ADC(26).read_u16()
    raw12 = round(1650 * 4095 / 3300)
    assert reading >> 4 == raw12
    assert board.machine.ADC(board.machine.Pin(26)).read_u16() == reading


def test_adc_refuses_pins_without_an_adc(board):
    with pytest.raises(ValueError, match="GPIO26..29"):
        board.machine.ADC(5)


def test_periodic_timer_runs_on_virtual_time(board):
    calls = []
    board.machine.Timer(-1, mode=1, period=10, callback=lambda t: calls.append(board.clock.now_ms()))
    for _ in range(35):
        board.clock.advance(1)
        board.run_timers()
    assert calls == [10, 20, 30]


def test_wdt_timeout_is_limited_like_the_rp2040(board):
    with pytest.raises(ValueError, match=str(WDT_MAX_MS)):
        board.machine.WDT(timeout=WDT_MAX_MS + 1)
    assert not hasattr(board.machine.WDT, "deinit")  # cannot be stopped


def test_wdt_fed_in_time_never_resets(board):
    wdt = board.machine.WDT(timeout=100)
    for _ in range(50):
        board.clock.advance(90)
        wdt.feed()
        board.check_watchdog()
    assert board.wdt_feeds == 51


def test_wdt_starved_resets_the_board(board):
    board.machine.WDT(timeout=100)
    board.clock.advance(100)
    board.check_watchdog()  # exactly on time is still fine
    board.clock.advance(1)
    with pytest.raises(MachineReset) as reset:
        board.check_watchdog()
    assert reset.value.cause == WDT_RESET


def test_reset_puts_pads_back_to_inputs_and_stops_pwm_and_watchdog(board):
    machine = board.machine
    pwm = machine.PWM(machine.Pin(14), duty_u16=65535)
    machine.WDT(timeout=50)
    assert board.wire(14).drive() == 1.0
    board.hardware_reset(WDT_RESET)
    assert board.wire(14).drive() == 0.0 and board.wdt_timeout is None
    assert machine.reset_cause() == WDT_RESET
    del pwm


def test_machine_reset_raises_and_unique_id_is_stable_per_seed(board):
    with pytest.raises(MachineReset):
        board.machine.reset()
    again = VirtualBoard(VirtualClock(), seed=3)
    other = VirtualBoard(VirtualClock(), seed=4)
    assert len(board.machine.unique_id()) == 8
    assert board.machine.unique_id() == again.machine.unique_id() != other.machine.unique_id()
    assert len(set(board.machine.unique_id())) > 1  # eight random bytes, not one byte eight times
    assert board.machine.freq() == 125_000_000


def test_timer_refuses_what_virtual_time_cannot_do(board):
    with pytest.raises(ValueError, match="1000 Hz"):
        board.machine.Timer(-1, freq=5000, callback=print)
    with pytest.raises(ValueError, match="period"):
        board.machine.Timer(-1, period=0, callback=print)
    assert board.timers == []


def test_one_shot_timer_fires_once_and_deinit_stops_a_periodic_one(board):
    shots, ticks = [], []
    board.machine.Timer(-1, mode=0, period=5, callback=shots.append)
    periodic = board.machine.Timer(-1, mode=1, period=5, callback=ticks.append)
    for _ in range(12):
        board.clock.advance(1)
        board.run_timers()
        if board.clock.now_ms() == 10:
            periodic.deinit()
    assert len(shots) == 1 and len(ticks) == 2


def test_bad_pin_arguments_are_refused(board):
    Pin = board.machine.Pin
    with pytest.raises(ValueError, match="GPIO0..29"):
        Pin(30)
    with pytest.raises(ValueError, match="mode"):
        Pin(2, 9)
    with pytest.raises(ValueError, match="pull"):
        Pin(2, Pin.IN, 7)


def test_sleep_calls_explain_the_tick_model(board):
    with pytest.raises(NotImplementedError, match="tick"):
        board.machine.lightsleep(10)


def test_open_drain_output_pulls_low_or_lets_the_pull_up_win(board):
    Pin = board.machine.Pin
    pin = Pin(3, Pin.OPEN_DRAIN, Pin.PULL_UP, value=0)
    assert pin.value() == 0
    pin.value(1)
    assert pin.value() == 1
