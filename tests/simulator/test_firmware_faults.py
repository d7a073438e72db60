"""The real firmware in the simulator: a jam is no low battery (L5), a wedged card is no fired card.

The simulator's pack has an internal resistance, so a roller stalled by a jam really pulls the ADC down
(~0.8 V); its physics keeps the ground truth of every card (`cards_out`, `model.hopper`).
"""

from __future__ import annotations

from unoxfw.settings import LIMITS

LOW_MV = LIMITS["low_mv"][0]
CARDS = 30


def record_patterns(device) -> list[str]:
    """The names of the beep patterns the firmware plays from now on."""
    played: list[str] = []
    beeper = device.app.beeper
    play = beeper.play

    def recorded(name, now_ms):
        played.append(name)
        return play(name, now_ms)

    beeper.play = recorded
    return played


def fire_watching_the_pack(host, n: int) -> tuple[tuple[str, ...], float]:
    """FIRE n; returns FIRED's args and the lowest terminal voltage the pack showed meanwhile."""
    pack = host.device.model.battery
    host.link.send("FIRE", (n,), host.device.now_ms())
    lowest = pack.terminal_mv
    for _ in range(2000):
        if any(kind == "FIRED" for _, kind, _ in host.frames):
            return host.wait_for("FIRED"), lowest
        host.pump(5)
        lowest = min(lowest, pack.terminal_mv)
    raise AssertionError("no FIRED within 10 virtual s")


def battery_frames(host) -> list[tuple[str, ...]]:
    return [args for _, kind, args in host.frames if kind == "BATTERY"]


def clear_jam(host) -> None:
    """What the JAM pattern asks for: open the lid, free the card, shut the lid."""
    host.device.open_lid()
    host.pump(100)
    host.device.close_lid()
    host.pump(100)


# ---- L5 -------------------------------------------------------------------------------------------------
def test_L5_a_jam_on_a_fresh_pack_sends_no_low_battery_and_no_battery_beep(host_for):
    host = host_for(seed=3, cards=CARDS, jam=1.0, unjam=0.0)
    assert host.wait_for("BATTERY")[1] == "ok"  # the state after HELLO
    played = record_patterns(host.device)
    (_, _, fault, _), lowest = fire_watching_the_pack(host, 3)
    host.pump(3000)  # past the rest time and a whole idle sample period
    assert fault == "jam"
    assert lowest < LOW_MV  # the stalled roller really pulled the pack below low_mv
    assert battery_frames(host) == [] and "battery" not in played and "jam" in played
    assert not host.device.app.battery_low


def test_L5_a_low_pack_is_reported_after_hello_and_again_at_rest_after_a_fire(host_for):
    open_mv = LOW_MV - 200
    host = host_for(seed=4, cards=CARDS, battery_mv=open_mv)
    mv, level = host.wait_for("BATTERY")
    assert level == "low" and abs(int(mv) - open_mv) < 20
    played = record_patterns(host.device)
    (fired, requested, fault, _), lowest = fire_watching_the_pack(host, 2)
    assert (fired, requested, fault) == ("2", "2", "-")  # L5: a low pack still fires
    mv, level = host.wait_for("BATTERY", timeout_ms=1000)  # promptly, once the pack rested
    assert level == "low" and lowest < int(mv) and abs(int(mv) - open_mv) < 20  # rested, not sagging
    assert played.count("battery") == 1


def test_L5_a_pack_set_low_after_a_jam_is_still_reported(host_for):
    host = host_for(seed=3, cards=CARDS, jam=1.0, unjam=0.0)
    host.wait_for("BATTERY")
    assert host.fire(3)[2] == "jam"
    host.device.set_battery(LOW_MV - 300)
    mv, level = host.wait_for("BATTERY", timeout_ms=2500)  # one idle sample period
    assert level == "low" and int(mv) < LOW_MV and host.device.app.battery_low


# ---- FIRED k under a jam ----------------------------------------------------------------------------
def test_jam_on_the_first_card_fires_nothing_and_the_card_goes_back_on_the_stack(host_for):
    host = host_for(seed=3, cards=CARDS, jam=1.0, unjam=0.0)
    fired, requested, fault, _ = host.fire(3)
    assert (fired, requested, fault) == ("0", "3", "jam")
    assert host.device.model.jammed() and host.device.model.beam_blocked()
    clear_jam(host)
    assert host.device.cards_out == 0 and host.device.model.hopper == CARDS
    assert host.device.app.counted == 0


def test_every_JAM_reports_the_cards_that_really_left(host_for):
    jams = []
    for seed in range(12):
        host = host_for(seed=seed, cards=CARDS, jam=0.4, unjam=0.5)
        fired, _, fault, _ = host.fire(4)
        if fault != "jam":
            continue  # no card wedged, or the last one stopped in the slot: STUCK (T4), tested elsewhere
        clear_jam(host)
        jams.append((seed, int(fired), host.device.cards_out))
        assert host.device.model.hopper + host.device.cards_out == CARDS  # nothing lost
    assert len(jams) >= 6 and any(fired for _, fired, _ in jams)  # jams before and after cards went out
    assert [(seed, out) for seed, _, out in jams] == [(seed, fired) for seed, fired, _ in jams]


def test_a_jam_after_cards_went_out_counts_exactly_those(host_for):
    host = host_for(seed=5, cards=CARDS, jam=0.4, unjam=0.5)  # seed 5: two cards, then a jam
    fired, _, fault, _ = host.fire(4)
    assert fault == "jam" and int(fired) >= 1
    assert host.device.model.beam_blocked()  # the wedged card sits in the beam, counted when it entered
    clear_jam(host)
    assert int(fired) == host.device.cards_out == host.device.app.counted


# ---- a card stopped in the slot: JAM (back on the stack) or STUCK (the presser's), as FIRED k says ----
def test_jam_behind_a_snagged_card_counts_neither(host_for):
    host = host_for(seed=1, cards=CARDS, stuck=1.0)
    fired, _, fault, _ = host.fire(2)
    assert (fired, fault) == ("0", "jam")  # the firmware cannot tell a snagged card from a wedged one
    assert host.device.model.stuck_in_slot() == 1 and host.device.model.jammed()
    host.device.open_lid()
    host.pump(100)
    assert host.device.close_lid() == 2  # the snagged card and the one jammed behind it
    host.pump(100)
    assert host.device.take_stuck() == 0  # nothing left in the slot
    assert host.device.cards_out == 0 == host.device.app.counted
    assert host.device.model.hopper == CARDS and not host.device.model.beam_blocked()


def test_T4_a_last_card_wedged_in_the_beam_is_stuck_and_the_presser_takes_it(host_for):
    host = host_for(seed=3, cards=CARDS, jam=1.0, unjam=0.0)
    fired, _, fault, _ = host.fire(1)
    assert (fired, fault) == ("1", "stuck")  # all n counted: the card in the slot is the presser's
    assert host.device.model.jammed() and host.device.model.beam_blocked()  # wedged, not snagged
    assert host.device.take_stuck() == 1 and host.device.cards_out == 1 == host.device.app.counted
    assert not host.device.model.beam_blocked() and host.device.model.hopper == CARDS - 1
