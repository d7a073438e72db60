"""The launcher physics alone: seeded, cards conserved, fault rates as parameterised, speed from volts."""

import math

import pytest
from unoxsim.physics import HOPPER_CAPACITY, FaultRates, LauncherModel


def run(model, ms, in1=1.0, in2=0.0):
    """Drive the model; return the beam's (time, blocked) edges."""
    edges, last = [], model.beam_blocked()
    for _ in range(ms):
        model.step(1, in1, in2)
        blocked = model.beam_blocked()
        if blocked != last:
            edges.append((model.now_ms, blocked))
            last = blocked
    return edges


def conserved(model):
    return model.hopper + model.in_path() + model.ejected == model.loaded


def blocks(edges):
    starts = [t for t, b in edges if b]
    ends = [t for t, b in edges if not b]
    return [end - start for start, end in zip(starts, ends, strict=False)]


def test_same_seed_same_run_different_seed_different_run():
    faults = dict(jam=0.05, double=0.1, stuck=0.0)
    a = run(LauncherModel(cards=40, seed=7, faults=FaultRates(**faults)), 5000)
    b = run(LauncherModel(cards=40, seed=7, faults=FaultRates(**faults)), 5000)
    c = run(LauncherModel(cards=40, seed=8, faults=FaultRates(**faults)), 5000)
    assert a == b
    assert a != c


def test_every_card_leaves_through_the_beam_once_when_nothing_goes_wrong():
    model = LauncherModel(cards=30, seed=1)
    edges = run(model, 5000)
    assert sum(1 for _, b in edges if b) == 30
    assert model.ejected == 30 and model.hopper == 0 and conserved(model)


def test_cards_are_conserved_through_forward_reverse_and_faults():
    model = LauncherModel(cards=HOPPER_CAPACITY, seed=2, faults=FaultRates(jam=0.1, double=0.1, stuck=0.05))
    pattern = [(1.0, 0.0, 137), (0.0, 1.0, 40), (0.0, 0.0, 23), (0.6, 0.0, 300), (1.0, 1.0, 11)]
    for i in range(200):
        in1, in2, ms = pattern[i % len(pattern)]
        run(model, ms, in1, in2)
        assert conserved(model)
        if i % 17 == 0:
            model.take_stuck()
            model.clear_jam()
            assert conserved(model)


def test_empty_hopper_nothing_reaches_the_beam_and_the_roller_turns_freely():
    model = LauncherModel(cards=0, seed=1)
    assert run(model, 2000) == []
    assert model.ejected == 0
    assert model.motor.current_a == pytest.approx(model.motor.noload_a, abs=0.05)


def test_card_block_and_gap_times_follow_the_geometry():
    model = LauncherModel(cards=5, seed=1)
    edges = run(model, 3000)
    geo = model.geometry
    speed = model.motor.speed * geo.roller_mm_per_ms
    for block in blocks(edges)[1:]:
        assert block == pytest.approx(geo.card_mm / speed, abs=2)


@pytest.mark.parametrize("fault, rate", [("jam", 0.1), ("double", 0.2), ("stuck", 0.1)])
def test_fault_rates_are_as_parameterised_over_many_cards(fault, rate):
    """Counts what the cards DID (jammed, stuck, two cards in one beam block), not the model's dice."""
    hits = picks = 0
    for seed in range(12):
        model = LauncherModel(cards=HOPPER_CAPACITY, seed=seed, faults=FaultRates(**{fault: rate}))
        blocks_seen, last = 0, False
        for _ in range(4000):
            if not model.hopper:
                break
            model.step(2, 1.0, 0.0)
            blocked = model.beam_blocked()
            blocks_seen += blocked and not last
            last = blocked
            if model.jammed() or model.stuck_in_slot():
                hits += fault in ("jam", "stuck")
                model.take_stuck()
                model.clear_jam()
                last = False
        run(model, 500)
        assert conserved(model)
        if fault == "double":
            hits += model.ejected - blocks_seen
            picks += blocks_seen
        else:
            picks += model.picked
    assert picks > 1000
    sigma = math.sqrt(picks * rate * (1 - rate))
    assert abs(hits - picks * rate) < 4 * sigma


def test_double_feed_is_two_cards_in_one_long_block():
    model = LauncherModel(cards=2, seed=1, faults=FaultRates(double=1.0))
    edges = run(model, 2000)
    assert model.ejected == 2
    assert len(blocks(edges)) == 1
    single = model.geometry.card_mm / (model.motor.speed * model.geometry.roller_mm_per_ms)
    assert blocks(edges)[0] > 1.25 * single


def test_jam_blocks_the_beam_stalls_the_motor_and_sags_the_pack():
    model = LauncherModel(cards=10, seed=1, faults=FaultRates(jam=1.0, unjam=0.0))
    run(model, 1000)
    assert model.jammed() and model.beam_blocked() and model.ejected == 0
    assert model.motor.speed == pytest.approx(0.0, abs=0.01)
    assert model.battery.terminal_mv < model.battery.open_mv - 500
    run(model, 200, 0.0, 1.0)
    assert model.jammed()  # unjam=0: a reverse pulse does not free it
    assert model.clear_jam() == 1 and not model.beam_blocked() and conserved(model)


def test_reverse_pulse_frees_a_jam_when_unjam_is_certain():
    model = LauncherModel(cards=10, seed=1, faults=FaultRates(jam=1.0, unjam=1.0))
    run(model, 1000)
    assert model.jammed()
    run(model, 150, 0.0, 1.0)
    assert not model.jammed() and not model.beam_blocked()
    assert model.hopper == 10  # pulled back onto the stack


def test_T4_stuck_card_stays_in_the_beam_until_taken_and_holds_back_the_next():
    model = LauncherModel(cards=10, seed=1, faults=FaultRates(stuck=1.0))
    run(model, 1500)
    assert model.beam_blocked() and model.stuck_in_slot() == 1 and model.ejected == 0
    assert model.jammed()  # the next card ran into it
    assert model.take_stuck() == 1
    assert model.ejected == 1 and not model.jammed() and conserved(model)


def test_opening_the_lid_puts_back_a_stuck_card_with_the_card_jammed_behind_it():
    model = LauncherModel(cards=10, seed=1, faults=FaultRates(stuck=1.0))
    run(model, 1500)
    assert model.stuck_in_slot() == 1 and model.jammed()
    assert model.clear_jam() == 2  # the beam showed one blocked slot: a JAM, so both go back
    assert model.hopper == 10 and model.ejected == 0 and not model.beam_blocked() and conserved(model)
    assert model.take_stuck() == 0


def test_opening_the_lid_leaves_a_stuck_card_with_nothing_jammed_behind_it():
    model = LauncherModel(cards=1, seed=1, faults=FaultRates(stuck=1.0))  # no next card to jam
    run(model, 1500)
    assert model.stuck_in_slot() == 1 and not model.jammed()
    assert model.clear_jam() == 0 and model.stuck_in_slot() == 1  # T4: it stays for the presser
    assert model.take_stuck() == 1 and model.ejected == 1 and conserved(model)


def test_T4_a_card_jammed_in_the_beam_can_be_pulled_out_of_the_slot():
    model = LauncherModel(cards=10, seed=1, faults=FaultRates(jam=1.0, unjam=0.0))
    run(model, 1000)
    assert model.jammed() and model.beam_blocked() and model.ejected == 0
    assert model.take_stuck() == 1
    assert model.ejected == 1 and model.hopper == 9 and not model.jammed() and not model.beam_blocked()
    assert conserved(model)


def test_stopping_mid_card_leaves_it_in_the_beam():
    model = LauncherModel(cards=10, seed=1)
    edges = run(model, 1000)
    first_in = edges[0][0]
    model2 = LauncherModel(cards=10, seed=1)
    run(model2, first_in + 10)
    run(model2, 500, 1.0, 1.0)  # brake: both bridge inputs high
    assert model2.beam_blocked() and model2.ejected == 0


def test_reverse_after_the_last_card_pulls_the_next_back_but_coasting_fires_one_more():
    def fire_one(stop):
        model = LauncherModel(cards=10, seed=3)
        while not model.beam_blocked():
            run(model, 1)
        while model.beam_blocked():
            run(model, 1)
        run(model, 150, *stop)
        run(model, 1000, 0.0, 0.0)
        return model.ejected

    assert fire_one((0.0, 1.0)) == 1
    assert fire_one((0.0, 0.0)) == 2


def test_motor_spin_up_follows_its_time_constant():
    model = LauncherModel(cards=0, seed=1)
    tau = int(model.motor.tau_drive_ms)
    speeds = []
    for _ in range(8):
        run(model, tau)
        speeds.append(model.motor.speed)
    final = speeds[-1]
    assert speeds == sorted(speeds)
    assert 0.45 * final < speeds[0] < 0.7 * final  # ~63 % after one time constant, less while the pack sags
    assert speeds[4] > 0.98 * final


def test_L5_a_weak_pack_and_a_low_duty_make_the_launcher_slow():
    def block_ms(battery_mv, duty):
        model = LauncherModel(cards=3, seed=1)
        model.battery.set_open_mv(battery_mv)
        return blocks(run(model, 5000, duty))[1]

    fresh = block_ms(4500, 1.0)
    assert block_ms(3300, 1.0) > fresh * 1.25
    assert block_ms(4500, 0.5) > fresh * 1.8


def test_too_little_voltage_does_not_break_the_motor_loose():
    model = LauncherModel(cards=5, seed=1)
    run(model, 500, 0.15)  # 0.15 x 4.5 V < 0.9 V stiction
    assert model.motor.speed == 0.0 and model.ejected == 0


def test_battery_drains_with_use():
    model = LauncherModel(cards=0, seed=1)
    model.battery.drain_mv_per_as = 100.0
    start = model.battery.open_mv
    run(model, 10_000)
    used_as = 10.0 * model.motor.current_a
    assert start - model.battery.open_mv == pytest.approx(100.0 * used_as, rel=0.05)


def test_motor_time_with_the_lid_open_is_counted_for_safety_checks():
    model = LauncherModel(cards=5, seed=1)
    model.lid_open = True
    run(model, 40)
    model.lid_open = False
    run(model, 30)
    run(model, 10, 0.0, 0.0)
    assert model.lid_open_motor_ms == 40 and model.longest_run_ms == 70


@pytest.mark.parametrize("kwargs, message", [
    (dict(cards=113), "0..112"), (dict(cards=-1), "0..112"),
])
def test_bad_model_parameters_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        LauncherModel(**kwargs)


def test_bad_fault_rates_are_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        FaultRates(jam=1.5)


def test_loading_past_capacity_is_refused_and_changes_nothing():
    model = LauncherModel(cards=100, seed=1)
    with pytest.raises(ValueError, match="holds 100 of 112"):
        model.load(13)
    assert model.hopper == 100 and model.loaded == 100
