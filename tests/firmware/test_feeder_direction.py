"""Issue 23, finding 3: every direction change of the feeder's motor passes through >= 30 ms of braking.

The feeder is walked through every path it has (a clean fire, EMPTY after the retry, a card wedged mid-fire
and freed, a last card wedged and freed or for good, a stuck card, the pull-back after a fault, a cut in the
middle of a reverse pulse, a zero settle time) on the firmware rig, one ms at a time. Every time the bridge
starts to drive one way after it last drove the other, the 30 ms before must be all brake (both inputs
high): no reverse pulse from full speed, no forward start straight out of a reverse pulse.
"""

from __future__ import annotations

import pytest

FULL = 65535


def sign(in1: int, in2: int) -> int:
    if in1 == FULL and in2 == FULL:
        return 0  # brake
    return 1 if in1 > 0 else -1 if in2 > 0 else 0


class Walk:
    """The rig run one ms at a time: the bridge's duties and the feeder's phase at every ms."""

    def __init__(self, make_rig, fake_machine, **options):
        self.rig = make_rig(**options)
        self.rig.connect()
        pins = self.rig.board
        self.in1, self.in2 = pins._in1, pins._in2
        self.trace: list[tuple[int, int]] = []
        self.phases: list[int] = []

    def run(self, ms: int) -> None:
        feeder = self.rig.app.feeder
        for _ in range(ms):
            self.rig.run(1, dt=1)
            self.trace.append((self.in1.duty_u16(), self.in2.duty_u16()))
            self.phases.append(feeder._phase)

    def fire(self, n: int, ms: int = 4000, lid_at: int | None = None) -> None:
        """FIRE n, then `ms` of running; `lid_at`: the lid opens that long after the FIRE, shuts 2 s later."""
        self.phases.append(self.rig.app.feeder._phase)
        self.trace.append((self.in1.duty_u16(), self.in2.duty_u16()))
        self.rig.fire(n)
        if lid_at is None:
            self.run(ms)
            return
        self.run(lid_at)
        self.rig.set_lid(True)
        self.run(2000)
        self.rig.set_lid(False)
        self.run(ms)

    def changes(self) -> list[tuple[int, int]]:
        """(index, braked ms before it) for every drive that reverses the last drive's direction."""
        found, last = [], 0
        for i, duties in enumerate(self.trace):
            way = sign(*duties)
            if way and last and way != last and (i == 0 or sign(*self.trace[i - 1]) != way):
                braked, j = 0, i - 1
                while j >= 0 and self.trace[j] == (FULL, FULL):
                    braked, j = braked + 1, j - 1
                found.append((i, braked))
            if way:
                last = way
        return found

    def transitions(self) -> set[tuple[int, int]]:
        return {(a, b) for a, b in zip(self.phases, self.phases[1:], strict=False) if a != b}


def feeder_module():
    from unoxfw import feeder

    return feeder


SCENARIOS = {
    "clean fire": (dict(cards=20), [3]),
    "empty after the retry": (dict(cards=0), [1]),
    "a card wedged mid-fire, freed by the retry's pulse": (dict(cards=20, wedge=(2, 1)), [3]),
    "the last card wedged, freed and fed again": (dict(cards=20, wedge=(2, 1)), [2]),
    "the last card wedged for good": (dict(cards=20, wedge=(2, 99)), [2]),
    "the last card stuck": (dict(cards=20, stick=2), [2]),
    "the lid opened mid-fire, then the pull-back that starts the next fire": (dict(cards=20), [(3, 120), 1]),
    "a zero settle time: the next fire brakes first": (dict(cards=20, config={"settle_ms": 0}), [1, 1]),
}


def walk_through(make_rig, fake_machine, options: dict, fires: list) -> Walk:
    walk = Walk(make_rig, fake_machine, **options)
    for fire in fires:
        n, lid_at = fire if isinstance(fire, tuple) else (fire, None)
        walk.fire(n, lid_at=lid_at)
    return walk


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_direction_change_is_braked_30_ms_or_more(make_rig, fake_machine, name):
    options, fires = SCENARIOS[name]
    walk = walk_through(make_rig, fake_machine, options, fires)
    changes = walk.changes()
    assert changes, "the walk reversed the motor at least once"
    assert all(braked >= 30 for _, braked in changes), changes


def test_a_cut_in_the_middle_of_a_reverse_pulse_makes_the_next_fire_brake_first(make_rig, fake_machine):
    walk = Walk(make_rig, fake_machine, cards=0)
    walk.rig.fire(1)
    feeder = walk.rig.app.feeder
    f = feeder_module()
    while feeder._phase != f._RETRY_BACK:  # the stall's reverse pulse
        walk.run(1)
    walk.run(20)
    walk.rig.set_lid(True)  # cut mid-pulse: motor off, the roller coasts backwards
    walk.run(3000)
    walk.rig.set_lid(False)
    walk.rig.cards = 5
    walk.run(200)
    walk.fire(1)
    changes = walk.changes()
    assert len(changes) >= 3 and all(braked >= 30 for _, braked in changes), changes


def test_the_walks_cover_every_transition_that_drives_the_motor(make_rig, fake_machine):
    """The scenarios above between them take every phase change after which the bridge drives."""
    f = feeder_module()
    seen: set[tuple[int, int]] = set()
    for options, fires in SCENARIOS.values():
        seen |= walk_through(make_rig, fake_machine, options, fires).transitions()
    expected = {
        (f._IDLE, f._SPIN), (f._IDLE, f._BRAKE),  # a fire starts forward, or braking first
        (f._SPIN, f._BRAKE), (f._BRAKE, f._RETRY_BACK), (f._RETRY_BACK, f._BRAKE), (f._BRAKE, f._SPIN),
        (f._SPIN, f._EXIT), (f._EXIT, f._BRAKE), (f._BRAKE, f._END_BACK), (f._END_BACK, f._SETTLE),
        (f._BRAKE, f._EXIT_BACK), (f._EXIT_BACK, f._BRAKE),
        (f._BRAKE, f._EXIT_PUSH), (f._EXIT_PUSH, f._BRAKE),
        (f._BRAKE, f._PRE_BACK), (f._PRE_BACK, f._BRAKE),
    }
    assert expected <= seen, sorted(expected - seen)


def test_a_chattering_lid_during_the_brake_does_not_cut_the_brake_short(make_rig, fake_machine):
    """A lid switch that chatters (open 8 ms, shut 1 ms: never open the 10 ms that aborts) coasts the motor at
    each open reading; the reverse pulse still comes only after 30 ms of unbroken braking."""
    walk = Walk(make_rig, fake_machine, cards=0)
    walk.rig.fire(1)
    feeder = walk.rig.app.feeder
    f = feeder_module()
    while not (feeder._phase == f._BRAKE and feeder._next == f._RETRY_BACK):  # the stall's brake began
        walk.run(1)
    for _ in range(12):
        walk.rig.set_lid(True)
        walk.run(8)
        walk.rig.set_lid(False)
        walk.run(1)
    walk.run(3000)
    changes = walk.changes()
    assert changes, "the walk reversed the motor"
    assert all(braked >= 30 for _, braked in changes), changes
