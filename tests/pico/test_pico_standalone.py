"""4. Standalone on the emulated chip: no host attached, a press fires and counts, and each fault (RULES L4,
L5, T4, the lid, a jam) beeps its pattern on the buzzer pin, as `unoxfw.signals.PATTERNS` defines it.

The count is checked on clean presses only: after a jam (unjam 0) with presses queued during it and the lid
then opened and shut, one run counted 4 standalone cards where 3 came out. Two bugs on this chip fit it,
both fixed since: a press taken twice at its release (more presses queued) and a card counted as a double
feed because the loop timed its block late (docs/reliability.md)."""

from __future__ import annotations

import re

from unoxfw.profile import Standalone
from unoxfw.signals import PATTERNS

SLACK_MS = 6  # the firmware's loop (a step, then up to 1 ms asleep); the pad's edges are exact to the ns


def tone_runs(device, since_ms: float) -> list[tuple[int, float]]:
    """The buzzer pad since `since_ms` as (Hz, ms) runs; 0 Hz is silence."""
    history = [(t, hz) for t, hz in device.wire("buzzer").history if t >= since_ms]
    return [(int(hz), t_next - t) for (t, hz), (t_next, _) in zip(history, history[1:], strict=False)]


def beeped(device, name: str, since_ms: float) -> bool:
    """The pattern's steps, in order and back to back, each within SLACK_MS of its length."""
    steps = list(zip(PATTERNS[name][::2], PATTERNS[name][1::2], strict=True))
    runs = tone_runs(device, since_ms)
    for start in range(len(runs) - len(steps) + 1):
        if all(hz == want_hz and abs(ms - want_ms) <= SLACK_MS
               for (hz, ms), (want_hz, want_ms) in zip(runs[start:], steps, strict=False)):
            return True
    return False


def press_until(device, done, *, presses: int = 8, listen_ms: int = 4000) -> float:
    """Presses (the standalone profile fires 0..6 cards a press, 40 % none) until `done()`; returns when the
    first of those presses started. The chip runs only until `done()` holds after a press."""
    start = device.now_ms()
    for _ in range(presses):
        device.press_button(hold_ms=40)
        if device.advance_until(listen_ms, done):
            return start
    raise AssertionError(f"not done after {presses} presses")


def listen(device, name: str, limit_ms: int = 3000) -> bool:
    start = device.now_ms()
    return device.advance_until(limit_ms, lambda: beeped(device, name, start))


def take_all(launcher) -> list:
    taken, quiet = launcher.take_standalone_fires(), 0
    while quiet < 3:  # ALONE frames come a window at a time, each window after the host's ACKs
        launcher.clock.sleep(0.3)
        more = launcher.take_standalone_fires()
        taken, quiet = taken + more, 0 if more else quiet + 1
    return taken


def test_standalone_presses_fire_and_count_what_came_out(pico, host):
    device = pico(seed=31, cards=30)
    model = device.model
    start = press_until(device, lambda: model.ejected >= 2)  # no host: the firmware fires alone
    device.advance(3000)  # the fire ends (the run-down); presses taken meanwhile fire too
    assert beeped(device, "press", start) and not beeped(device, "empty", start)
    taken = take_all(host(device))  # a host comes: the device kept count of what it fired alone
    assert sum(fire.fired for fire in taken) == model.ejected + model.past_beam() >= 2
    assert all(fire.details["standalone"] for fire in taken)


def test_each_fault_beeps_its_pattern_on_the_buzzer_pin(pico):
    device = pico(seed=32, cards=30)
    model = device.model
    assert device.wire("buzzer").level() == 0

    device.open_lid()
    assert listen(device, "lid")
    device.close_lid()

    device.set_battery(3500)  # below low_mv 3900 (L5): sampled at rest every 2 s
    assert listen(device, "battery")
    device.set_battery(4500)

    model.hopper = 0  # someone took the cards out (L4)
    since = device.now_ms()
    press_until(device, lambda: beeped(device, "empty", since))
    assert model.ejected == 0

    device.load_cards(5)
    model.faults.jam, model.faults.unjam = 1.0, 0.0  # the next card wedges and stays
    since = device.now_ms()
    press_until(device, lambda: beeped(device, "jam", since))
    model.faults.jam = 0.0  # presses taken during that fire were queued: they fire now, and jam no more
    device.advance(3000)
    device.open_lid()
    device.close_lid()  # the jammed card goes back on the stack
    device.advance(300)
    assert not any(card.jammed for card in model.path)


def standalone_profile(device, limit_ms: int = 3000) -> Standalone:
    """The firmware's standalone profile as this boot seeded it. The seed comes from the boot's ticks and
    battery ADC (unoxfw.app), so any change to the firmware's size moves it; every HEARTBEAT carries the
    link epoch made from it (seed * 31 + 7, 16 bits), and the profile uses the seed's 16 bits. The chip runs
    until a whole HEARTBEAT line is in: the first bytes after boot need not hold one."""
    heard = bytearray()

    def beat() -> re.Match | None:
        heard.extend(device.host_read())
        return re.search(rb"\bHEARTBEAT ([0-9A-F]{4}) [^\n]*\n", heard)

    assert device.advance_until(limit_ms, lambda: beat() is not None), f"no HEARTBEAT from main.py: {heard!r}"
    found = beat()
    assert found is not None
    return Standalone((int(found.group(1), 16) - 7) * pow(31, -1, 1 << 16))


def test_a_snagged_card_beeps_stuck_on_the_buzzer_pin(pico):
    """T4 on the chip: a fire whose one card snags in the slot beeps STUCK's pattern. Only a fire of one card
    ends so: in a fire of more, the next card jams behind the snagged one, short of the beam, and the fire
    ends JAM (docs/protocol.md). So the presses whose draw is not 1 are spent with the lid open: each is
    taken once (one press beep; release chatter was once a second press on this chip) and beeps LID when
    it drew a count above 0, as the profile predicts."""
    device = pico(seed=32, cards=30)
    model = device.model
    profile = standalone_profile(device)
    device.open_lid()
    assert listen(device, "lid")
    while (n := profile.next_count()) != 1:
        since = device.now_ms()
        device.press_button(hold_ms=40)
        if n > 0:  # waits for the whole LID pattern, however long the firmware takes to start it
            assert device.advance_until(3000, lambda: beeped(device, "lid", since)), n  # noqa: B023
        device.advance(1000)  # and for a second press (release chatter) or a stray LID, which must not come
        assert [hz for hz, _ in tone_runs(device, since)].count(PATTERNS["press"][0]) == 1
        assert beeped(device, "lid", since) == (n > 0)
    device.close_lid()
    device.load_cards(5)
    device.advance(100)  # the lid read shut for its 30 ms (the firmware's lid debounce) before the press
    model.faults.stuck = 1.0  # the next card snags in the slot (T4)
    since = device.now_ms()
    # STUCK comes after the brake-and-reverse retries: listened for up to 10 emulated s (it stops when heard)
    device.press_button(hold_ms=40)
    heard = device.advance_until(10_000, lambda: beeped(device, "stuck", since))
    names = [name for name in PATTERNS if beeped(device, name, since)]
    assert heard, f"no STUCK after the press; heard {names}, path {[c.count for c in model.path]}, " \
        f"ejected {model.ejected}, drawn {n}"
    assert [card.count for card in model.path if card.stuck] == [1] and model.ejected == 0
    assert model.lid_open_motor_ms == 0
