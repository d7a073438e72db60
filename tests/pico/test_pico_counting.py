"""2. Counting over the real USB stack: button edges from the physics, BUTTON frames through MicroPython's
TinyUSB serial, the host driver firing each press once; its FIRED counts equal the physics' cards out.

Default: a short run (PRESSES presses, clean and with faults). Soak: `UNOX_PICO_PRESSES=1000`
(docs/reliability.md). `UNOX_PICO_FAULT_PRESSES` sizes the run with link faults alone (default: PRESSES):
`.ci/run` sets it to a nightly size that fits CI's budget.
"""

from __future__ import annotations

import os

from unox.launcher import LauncherError

from tests.e2e.conftest import firmware_config
from tests.pico.conftest import cards_out

PRESSES = int(os.environ.get("UNOX_PICO_PRESSES", "12"))
FAULT_PRESSES = int(os.environ.get("UNOX_PICO_FAULT_PRESSES", str(PRESSES)))
FAST = firmware_config(reverse_ms=30, settle_ms=10, link_ms=1000)  # shorter fires: more presses per second


def test_each_press_fires_once_and_fired_counts_equal_the_cards_out(pico, host):
    device = pico(seed=21, cards=112)
    launcher = host(device, config=FAST)
    fired = 0
    for _ in range(PRESSES):
        if device.model.hopper < 5:
            device.load_cards(100)
        device.press_button(hold_ms=40)
        assert launcher.wait_press(timeout=2.0)
        result = launcher.fire(1)
        assert (result.fired, result.fault) == (1, None), result
        fired += result.fired
        if PRESSES > 100 and fired % 100 == 0:  # a soak's progress, seen with -s
            print(f"soak: {fired} presses fired once each, {cards_out(device)} cards out", flush=True)
    launcher.clock.sleep(0.5)
    assert not launcher.wait_press(timeout=0.3)  # no press left over: none was seen twice
    assert fired == PRESSES == cards_out(device)


def test_drops_corruption_and_duplicates_on_the_bridge_lose_and_double_no_card(pico, host):
    device = pico(seed=22, cards=112, drop=0.05, corrupt=0.05, dup=0.05)
    launcher = host(device, config=FAST, seed=22)  # the host's epoch seeded too: each run the same
    recorded, standalone = 0, 0
    presses = []  # (press, cards out during it, what the host booked for it): a failure names the press
    for i in range(FAULT_PRESSES):
        if device.model.hopper < 5:
            device.load_cards(100)
        before = cards_out(device)
        device.press_button(hold_ms=40)
        try:
            pressed = launcher.wait_press(timeout=2.0)
        except LauncherError as exc:
            pressed, booked = False, {"wait_press": str(exc)}
        else:
            booked = {"pressed": pressed}
        if pressed:
            restarts = launcher.link.restarts
            result = launcher.fire(1, fire_id=500 + i)
            booked.update(fired=result.fired, fault=result.fault, detail=result.details.get("detail"))
            settled = None
            if result.fault == "link" and result.details.get("detail") == "lost":
                # settled by id at once, as a table does when the device answers again: the device
                # remembers only its last 16 fires
                settled = launcher.fire_result(500 + i)
                if settled is not None:
                    booked["settled"] = settled.fired
                    recorded += settled.fired
            elif result.fault != "link" or result.details.get("detail") != "reboot":
                recorded += result.fired
            if booked.get("detail") in ("lost", "reboot") and settled is None:
                # main.py was stopped by a 0x03 the bridge made and started again by the host: what the
                # fire did is unknown, as after any reboot (docs/reliability.md); the table asks
                assert launcher.link.restarts > restarts, f"press {i}: fire {500 + i} not remembered"
                booked["unknown"] = True
        alone = sum(f.fired for f in launcher.take_standalone_fires())
        standalone += alone
        booked["alone"] = alone
        presses.append((i, cards_out(device) - before, booked))
    launcher.clock.sleep(1.0)
    for _ in range(20):  # until the firmware holds no untaken standalone fire (an ALONE may need resending)
        standalone += sum(f.fired for f in launcher.take_standalone_fires())
        launcher.status()
        if launcher.state.status.get("alone") == "0":
            break
    stats = device.cable.to_board.stats
    assert stats["dropped"] + stats["corrupted"] + stats["duplicated"] > 0  # the faults really happened
    unknown = [(i, out) for i, out, booked in presses if booked.get("unknown")]
    assert all(out <= 1 for _, out in unknown), unknown  # an interrupted fire of 1 fed at most 1
    unlike = [(i, out, booked) for i, out, booked in presses
              if not booked.get("unknown") and out != booked_cards(booked)]
    counted = launcher.state.status.get("counted")  # the firmware's own total: which side lost a card
    known_out = cards_out(device) - sum(out for _, out in unknown)
    assert recorded + standalone == known_out > 0, (
        f"firmware counted {counted}; presses booked unlike their cards: {unlike[:10]}")
    assert len(unknown) <= launcher.link.restarts  # only a main.py stopped mid-fire leaves a fire unknown
    fired = sum(1 for _, _, booked in presses if booked.get("fired") or booked.get("settled"))
    if FAULT_PRESSES > 100:  # a soak's summary, seen with -s (docs/reliability.md)
        unseen = sum(1 for _, _, booked in presses if not booked.get("pressed"))
        print(f"soak: {FAULT_PRESSES} presses, {fired} fired, {unseen} not seen by the host, "
              f"{len(unknown)} unknown, {launcher.link.restarts} restarts of main.py, "
              f"{cards_out(device)} cards out, {recorded} recorded + {standalone} standalone, "
              f"{device.now_ms() / 1000:.1f} emulated s")
    # none left dead:
    assert fired >= FAULT_PRESSES * 0.9, f"{fired} of {FAULT_PRESSES} presses fired: the run stalled"
    assert device.boots == 1


def booked_cards(booked: dict) -> int:
    """The cards the host booked for one press: its fire's (or, given up, its settled) count and the
    standalone fires taken after it."""
    return booked.get("settled", booked.get("fired", 0)) + booked["alone"]
