"""Press-button mode (`unox.press_mode`): the launcher is the truth, reloads are seen, an evening never ends.

Issue 8 items 9 and 10a. Virtual time throughout: the simulated launcher's clock, or a ManualClock with the
script launcher, so nothing sleeps.
"""

from __future__ import annotations

import random

import pytest
from unox.launcher import FireResult, LauncherError
from unox.launcher.clock import ManualClock
from unox.launcher.script import ScriptLauncher
from unox.press_mode import PressMode, PressOptions
from unox.profiles import get_profile


class Always:
    """An eject profile firing `n` on every press: the logic under test is press mode's, not the profile's."""

    def __init__(self, n: int):
        self.n = n

    def next_count(self, available: int) -> int:
        return min(self.n, available)


def press(mode: PressMode, launcher, clock=None, after: float = 0.0):
    if clock is not None:
        clock.sleep(after)
    launcher.press_button()
    assert launcher.wait_press(timeout=5.0)
    return mode.handle_press()


def test_L4_a_press_fires_past_the_estimate_while_cards_come_out():
    # The estimate says 2 cards; the launcher holds 10: every press still fires, until the beam says EMPTY.
    launcher, clock = ScriptLauncher(cards=10), ManualClock()
    mode = PressMode(launcher, Always(3), cards=2, clock=clock)
    results = [press(mode, launcher, clock, 1).result for _ in range(4)]
    assert [(r.requested, r.fired, r.fault) for r in results] == [(3, 3, None)] * 3 + [(3, 1, "empty")]
    assert mode.tally.estimate == 0 and mode.awaiting_reload


def test_L4_empty_asks_for_a_reload_and_presses_fire_nothing_until_one():
    launcher, clock = ScriptLauncher(cards=1), ManualClock()
    mode = PressMode(launcher, Always(2), cards=5, clock=clock)
    assert press(mode, launcher, clock).result.fault == "empty"
    fires = len(launcher.fires)
    for _ in range(3):  # presses far apart: each beeps empty and says what to do; none confirms
        event = press(mode, launcher, clock, after=5.0)
        assert event.kind == "reload_needed" and "reload it and close the lid" in event.message
    assert len(launcher.fires) == fires and launcher.beeps[-3:] == ["empty"] * 3


def test_a_double_press_confirms_a_reload_without_the_lid():
    launcher, clock = ScriptLauncher(cards=1), ManualClock()
    mode = PressMode(launcher, Always(2), cards=7, clock=clock)
    press(mode, launcher, clock)
    launcher.cards = 30  # reloaded through the top, the lid switch never moved
    assert press(mode, launcher, clock, after=3.0).kind == "reload_needed"
    event = press(mode, launcher, clock, after=0.8)  # within confirm_s = 1.5 s of the one before
    assert event.kind == "reload" and mode.tally.reloads == 1 and mode.tally.estimate == 7
    assert press(mode, launcher, clock, after=3.0).result == FireResult(2, 2, None)


def test_the_lid_opened_then_closed_is_a_reload():
    launcher, clock = ScriptLauncher(cards=0), ManualClock()
    mode = PressMode(launcher, Always(1), cards=9, clock=clock)
    press(mode, launcher, clock)
    launcher.lid_open = True
    assert kinds(mode.poll()) == ["lid_open"]
    assert mode.poll() == []  # nothing new while it stays open
    launcher.cards, launcher.lid_open = 50, False
    (event,) = mode.poll()
    assert event.kind == "reload" and "about 9 cards" in event.message and not mode.awaiting_reload
    assert press(mode, launcher, clock, after=2).result.fired == 1


def kinds(events) -> list[str]:
    return [event.kind for event in events]


def test_the_lid_closed_before_any_card_was_fired_is_no_reload():
    """Straightening a full launcher: nothing went out since it was loaded, so nothing is counted."""
    launcher = ScriptLauncher(cards=20)
    mode = PressMode(launcher, Always(1), cards=20, clock=ManualClock())
    launcher.lid_open = True
    mode.poll()
    launcher.lid_open = False
    assert kinds(mode.poll()) == ["lid_closed"] and mode.tally.reloads == 0


def test_anti_mash_refuses_presses_closer_than_the_gap_with_the_not_now_beep():
    launcher, clock = ScriptLauncher(cards=100), ManualClock()
    mode = PressMode(launcher, Always(1), cards=100, options=PressOptions(min_gap_s=1.0), clock=clock)
    kinds = [press(mode, launcher, clock, after=gap).kind for gap in (0, 0.4, 0.4, 1.0, 1.5, 0.99)]
    assert kinds == ["fire", "mash", "mash", "fire", "fire", "mash"]
    assert launcher.beeps == ["not_owed"] * 3 and len(launcher.fires) == 3 and mode.tally.refused == 3


def test_anti_mash_off_by_default_fires_every_press():
    launcher, clock = ScriptLauncher(cards=100), ManualClock()
    mode = PressMode(launcher, Always(1), cards=100, clock=clock)
    assert [press(mode, launcher, clock, after=0.01).kind for _ in range(5)] == ["fire"] * 5


class TimedScript(ScriptLauncher):
    """Records the virtual time each fire starts at."""

    def __init__(self, clock, **kw):
        super().__init__(**kw)
        self.clock, self.fired_at = clock, []

    def fire(self, n, fire_id=None):
        self.fired_at.append(self.clock.now())
        return super().fire(n, fire_id)


def test_suspense_waits_a_random_time_up_to_the_set_one_before_the_motor():
    clock = ManualClock()
    launcher = TimedScript(clock, cards=100)
    mode = PressMode(launcher, Always(1), cards=100, options=PressOptions(suspense_s=2.0),
                     rng=random.Random(4), clock=clock)
    draws, pressed_at = random.Random(4), []
    for _ in range(20):
        clock.sleep(10)
        pressed_at.append(clock.now())
        press(mode, launcher)
    waits = [fired - pressed for fired, pressed in zip(launcher.fired_at, pressed_at, strict=True)]
    assert waits == pytest.approx([draws.uniform(0.0, 2.0) for _ in range(20)])
    assert all(0 <= w <= 2.0 for w in waits) and max(waits) > 1.0  # random, and up to the set time


def test_no_suspense_by_default():
    clock = ManualClock()
    launcher = TimedScript(clock, cards=100)
    mode = PressMode(launcher, Always(1), cards=100, clock=clock)
    press(mode, launcher)
    assert launcher.fired_at == [0.0]


class Flaky(ScriptLauncher):
    """Loses the link once while waiting for a press, then works again (the driver reconnects)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.failed = False

    def wait_press(self, timeout=None):
        if not self.failed:
            self.failed = True
            raise LauncherError("lost the launcher on /dev/unox-launcher")
        return super().wait_press(timeout)


def test_a_lost_link_does_not_end_the_session():
    launcher, clock, events = Flaky(cards=10, presses=3), ManualClock(), []
    mode = PressMode(launcher, Always(1), cards=10, clock=clock)
    mode.run(events.append, presses=3)
    assert [e.kind for e in events] == ["link", "link_back", "fire", "fire", "fire"]  # issue 13 item 11
    assert "waiting for the launcher" in events[0].message


def test_an_evening_of_play_never_goes_quiet_while_cards_remain(sim):
    # Two thousand presses, a reload through the lid each time it runs out, on the simulated launcher (real
    # firmware, virtual time). After every reload the presses fire again; the beam's count is the only truth.
    launcher = sim("seed=7&cards=112&idle_step=50")
    device = launcher.device
    mode = PressMode(launcher, get_profile("measured", rng=random.Random(3)), cards=83, rng=random.Random(1))
    events, quiet_since_reload = [], 0
    while mode.tally.presses < 2000 or mode.awaiting_reload:
        event = press(mode, launcher)
        events.append(event)
        quiet_since_reload = quiet_since_reload + 1 if event.kind == "nothing" else 0
        assert quiet_since_reload < 20, "press mode went quiet while the launcher held cards"
        if mode.awaiting_reload:
            assert device.model.hopper == 0  # EMPTY only when it really is
            device.open_lid()
            launcher.wait_press(timeout=0.2)
            assert kinds(mode.poll()) == ["lid_open"]
            device.load_cards(112)
            device.close_lid()
            launcher.wait_press(timeout=0.2)
            assert kinds(mode.poll()) == ["reload"]
    fired = sum(e.result.fired for e in events if e.result)
    reloads = mode.tally.reloads
    assert reloads > 20 and mode.tally.faults == {"empty": reloads}
    assert fired == mode.tally.fired == device.cards_out
    assert 112 * reloads <= fired < 112 * (reloads + 1)  # every loaded card came out, each reload emptied


class WatchedClock:
    """The launcher's own clock, noting the firmware's mode after every wait."""

    def __init__(self, clock, device):
        self.clock, self.device, self.modes = clock, device, []

    def now(self) -> float:
        return self.clock.now()

    def sleep(self, seconds: float) -> None:
        self.clock.sleep(seconds)
        self.modes.append(self.device.app.mode())


def test_a_long_suspense_keeps_the_link_alive_and_fires_exactly(sim):
    # A suspense of up to 10 s outlasts the firmware's link_ms (4 s): the host keeps talking while it waits,
    # or the launcher would take the host for gone and work alone, firing presses by itself.
    launcher = sim("seed=2&cards=112")
    clock = WatchedClock(launcher.link.clock, launcher.device)
    seed = next(s for s in range(100) if random.Random(s).uniform(0.0, 10.0) > 7.0)
    wait = random.Random(seed).uniform(0.0, 10.0)
    mode = PressMode(launcher, Always(3), cards=112, options=PressOptions(suspense_s=10.0),
                     rng=random.Random(seed), clock=clock)
    before = clock.now()
    event = press(mode, launcher)
    assert clock.now() - before >= wait > 7.0
    assert clock.modes and set(clock.modes) == {"host"}  # never alone while waiting
    assert (event.result.requested, event.result.fired, event.result.fault) == (3, 3, None)
    assert launcher.device.cards_out == 3


def test_on_the_simulator_every_summary_figure_is_the_simulated_launchers_truth(sim):
    """Issue 13 item 10: a reload is counted only when the simulated hopper got the cards; the cards fired
    are the cards out, and the cards left are the hopper's."""
    launcher = sim("seed=4&cards=15")
    device = launcher.device
    mode = PressMode(launcher, get_profile("measured", rng=random.Random(2)), cards=15)
    gaps = random.Random(9)
    tally = mode.run(lambda event: None, presses=120, virtual=True, press_gap=lambda: gaps.uniform(0.3, 3.0))
    assert tally.reloads >= 2 and tally.presses == 120
    assert device.model.loaded == 15 * (tally.reloads + 1)  # each reload filled the emptied hopper back to 15
    assert tally.fired == device.cards_out
    assert tally.estimate == device.model.hopper
    assert tally.faults["empty"] in (tally.reloads, tally.reloads + 1)


def unplugged_evening(launcher, *, cut: str = "unplug"):
    """Presses scripted on the simulated device (virtual ms): three fires, one cut in flight by `cut`, three
    presses with the cable out (past the firmware's link_ms: they fire alone), the cable back, one more."""
    device = launcher.device
    for at in (1000, 3000, 5000, 7000, 12000, 13500, 15000, 22000):
        device.schedule(at, device.press_button, physical=True)  # hands: a reboot does not forget them
    device.schedule(7300, device.unplug if cut == "unplug" else device.power_cycle, physical=True)  # mid-fire
    if cut != "unplug":
        device.schedule(7400, device.unplug, physical=True)
    device.schedule(18000, device.plug, physical=True)


def test_a_link_lost_in_press_mode_is_told_once_and_every_card_out_reaches_the_tally(sim):
    """Issue 13 item 11: one line when lost and one when back; the fire in flight settled by the launcher's
    memory (not booked as fired 0); the fires made alone with the cable out counted as presses."""
    launcher = sim("seed=3&cards=112")
    unplugged_evening(launcher)
    mode, events = PressMode(launcher, Always(5), cards=112), []
    tally = mode.run(events.append, presses=8)
    kinds = [e.kind for e in events]
    assert kinds.count("link") == 1 and kinds.count("link_back") == 1
    assert kinds.index("link") < kinds.index("link_back")
    assert all(len(e.message) <= 80 for e in events if e.kind in ("link", "link_back"))  # one line each
    unsettled = next(e for e in events if e.kind == "unsettled")
    settled = next(e for e in events if e.kind == "settled")
    assert unsettled.press == settled.press == 4 and settled.result.fired == 5
    assert kinds.index("unsettled") < kinds.index("link") < kinds.index("link_back") < kinds.index("settled")
    alone = [e for e in events if e.kind == "alone"]
    assert len(alone) == 3 and [e.press for e in alone] == [5, 6, 7]
    assert tally.presses == 8 and tally.fired == launcher.device.cards_out
    assert tally.fires == 5 + sum(1 for e in alone if e.result.requested)
    assert tally.estimate == 112 - tally.fired and tally.unknown == 0


def test_a_fire_the_launcher_cannot_account_for_after_a_reboot_is_told_unknown_not_zero(sim):
    launcher = sim("seed=3&cards=112")
    unplugged_evening(launcher, cut="reboot")
    mode, events = PressMode(launcher, Always(5), cards=112), []
    tally = mode.run(events.append, presses=8)
    unknown = [e for e in events if e.kind == "unknown"]
    assert len(unknown) == 1 and unknown[0].press == 4 and "cannot tell" in unknown[0].message
    assert tally.unknown == 1 and "1 of unknown count" in tally.summary()
    assert 0 <= launcher.device.cards_out - tally.fired <= 5  # only that fire's cards are left out
    assert [e.kind for e in events].count("link") <= 1


def test_every_top_up_before_empty_is_a_reload_even_between_two_looks(sim):
    """Issue 26 item 8: seven top-ups (lid open, load, lid shut) before EMPTY printed nothing, the estimate
    stayed "about 0 left" and the summary said 1 reload for 8. Each top-up after cards went out is a reload
    now, one the driver saw between two looks at the lid (its count of openings) included."""
    launcher = sim("seed=7&cards=112&idle_step=50")
    device = launcher.device
    mode = PressMode(launcher, Always(5), cards=40, rng=random.Random(1))
    events = []
    for top_up in range(7):
        for _ in range(4):
            events.append(press(mode, launcher))
        device.open_lid()
        launcher.wait_press(timeout=0.2)  # the firmware sees the lid open (and says so) ...
        device.load_cards(20)
        device.close_lid()
        launcher.wait_press(timeout=0.2)  # ... and shut, all before press mode looks again
        (event,) = mode.poll()
        assert event.kind == "reload", kinds(mode.poll())
        # the simulator's hopper is the truth the estimate shows again (not "about 0 left")
        assert mode.tally.reloads == top_up + 1 and mode.tally.estimate == device.model.hopper > 0
        events.append(event)
    assert not mode.awaiting_reload and mode.tally.faults == {}
    assert mode.tally.fired == device.cards_out == 7 * 20


def test_a_lid_cycle_to_clear_a_jam_is_not_a_reload():
    launcher, clock = ScriptLauncher([FireResult(2, 0, "jam")], cards=20), ManualClock()
    mode = PressMode(launcher, Always(2), cards=20, clock=clock)
    press(mode, launcher, clock).result  # noqa: B018  the jam
    launcher.lid_open = True
    mode.poll()
    launcher.lid_open = False
    assert kinds(mode.poll()) == ["lid_closed"] and mode.tally.reloads == 0
