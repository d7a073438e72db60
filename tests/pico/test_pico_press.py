"""7. The press path on the chip (issue 22): the button's IRQ stamps both edges, a press is a low of at least
2 ms taken as soon as the loop sees it, a press shorter than the loop's lateness is not lost, and contact
bounce is never a second press. Presses are counted by the firmware (`STATUS presses=`) and by the BUTTON
frames the host received."""

from __future__ import annotations

from tests.pico.conftest import cards_out


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


def test_a_button_in_flight_when_the_session_breaks_is_taken_exactly_once(pico, host):
    # The BUTTON is lost on the way and the host starts a new session (HELLO) before it came again: the
    # firmware fires that press alone and reports it as ALONE, once; the new session gets no BUTTON for it.
    device = pico(seed=10, cards=30)
    launcher = host(device)
    assert presses_taken(launcher) == 0
    before = cards_out(device)
    device.press_button(hold_ms=40)
    device.advance(30)  # taken about 2 ms after the edge; its BUTTON went out at once
    device.host_read()  # ... and is lost, with whatever else was on the way
    launcher.link.handshake()  # a new session
    assert launcher.link.wait(lambda: bool(launcher.state.standalone), 8.0)
    launcher.link.wait(lambda: False, 3.0)  # the fire runs out, the host pumping
    launcher.status()
    fires = launcher.take_standalone_fires()
    assert len(fires) == 1 and fires[0].fired == cards_out(device) - before, fires
    assert launcher.state.presses == 0 and not launcher.wait_press(timeout=0.5)  # no BUTTON came for it
    assert presses_taken(launcher) == 1 and launcher.take_standalone_fires() == []
