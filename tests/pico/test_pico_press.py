"""7. The press path on the chip (issue 22): the button's IRQ stamps both edges, a press is a low of at least
2 ms taken as soon as the loop sees it, a press shorter than the loop's lateness is not lost, and contact
bounce is never a second press. Presses are counted by the firmware (`STATUS presses=`) and by the BUTTON
frames the host received."""

from __future__ import annotations


def presses_taken(launcher) -> int:
    launcher.status()
    return int(launcher.state.status["presses"])


def test_short_presses_of_2_5_and_8_ms_are_each_taken_once(pico, host):
    device = pico(seed=8, cards=20, bounce=0)  # clean edges: the hold is the whole low
    launcher = host(device)
    assert presses_taken(launcher) == 0
    for count, hold in enumerate((2, 5, 8, 2, 5, 8), start=1):
        device.press_button(hold_ms=hold)
        assert launcher.wait_press(timeout=1.0), (count, hold)
        assert presses_taken(launcher) == count, hold
    assert not launcher.wait_press(timeout=0.5)  # no press came twice
    assert presses_taken(launcher) == 6


def test_contact_bounce_on_press_and_release_is_never_a_second_press(pico, host):
    device = pico(seed=9, cards=20, bounce=3)  # 7 edges 1 ms apart on pressing, 7 on releasing
    launcher = host(device)
    for count, hold in enumerate((8, 40, 120, 8, 40, 120), start=1):
        device.press_button(hold_ms=hold)
        assert launcher.wait_press(timeout=1.0), (count, hold)
        assert presses_taken(launcher) == count, hold
    assert not launcher.wait_press(timeout=0.5)
    assert presses_taken(launcher) == 6 and launcher.state.presses == 0
