"""2. Counting over the real USB stack: button edges from the physics, BUTTON frames through MicroPython's
TinyUSB serial, the host driver firing each press once; its FIRED counts equal the physics' cards out.

Default: a short run (PRESSES presses, clean and with faults). Soak: `UNOX_PICO_PRESSES=1000`
(docs/reliability.md).
"""

from __future__ import annotations

import os

from unox.launcher import LauncherError

from tests.e2e.conftest import firmware_config

PRESSES = int(os.environ.get("UNOX_PICO_PRESSES", "12"))
FAST = firmware_config(reverse_ms=30, settle_ms=10, link_ms=1000)  # shorter fires: more presses per second


def cards_out(device) -> int:
    return device.model.ejected + device.model.past_beam()


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
    launcher = host(device, config=FAST)
    recorded, standalone, unsettled = 0, 0, []
    for i in range(PRESSES):
        if device.model.hopper < 5:
            device.load_cards(100)
        device.press_button(hold_ms=40)
        try:
            pressed = launcher.wait_press(timeout=2.0)
        except LauncherError:
            pressed = False
        if pressed:
            result = launcher.fire(1, fire_id=500 + i)
            if result.fault == "link" and result.details.get("detail") == "lost":
                unsettled.append(500 + i)
            else:
                recorded += result.fired
        standalone += sum(f.fired for f in launcher.take_standalone_fires())
    launcher.clock.sleep(1.0)
    standalone += sum(f.fired for f in launcher.take_standalone_fires())
    for fire_id in unsettled:  # settled by id once the device answers (it did not reboot)
        settled = launcher.fire_result(fire_id)
        assert settled is not None
        recorded += settled.fired
    stats = device.cable.to_board.stats
    assert stats["dropped"] + stats["corrupted"] + stats["duplicated"] > 0  # the faults really happened
    assert recorded + standalone == cards_out(device) > 0
    assert device.boots == 1
