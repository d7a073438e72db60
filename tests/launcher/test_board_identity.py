"""Issue 22 item 1: the host knows which launcher it talks to (HELLO's board), and a stranger that answers at
its port after a reconnect gets nothing fired and has nothing taken (no press, no standalone fire)."""

from __future__ import annotations

import pytest
from unox.launcher.base import StrangerLauncher
from unox.launcher.sim import SimLauncher
from unoxsim.device import VirtualDevice


def board_of(seed: int) -> str:
    """What a simulated launcher of this seed names itself: its fake machine.unique_id() in hex."""
    return VirtualDevice(seed=seed).board.machine.unique_id().hex()


def swap_device(launcher: SimLauncher, seed: int, cards: int = 20) -> VirtualDevice:
    """The cable is pulled and another launcher (simulated, `seed`) is plugged in at the same port."""
    new = VirtualDevice(seed=seed, cards=cards)
    launcher.port.swap_device(new)
    launcher.link.pump()  # the driver notices that its port is gone
    assert launcher.link.broken
    return new


def test_hello_names_a_stable_board_per_simulated_device():
    one, again, other = SimLauncher({"seed": "1"}), SimLauncher({"seed": "1"}), SimLauncher({"seed": "2"})
    try:
        assert one.board_id == again.board_id == board_of(1) and len(one.board_id) == 16
        assert other.board_id == board_of(2) != one.board_id
        assert one.status().board_id == one.board_id
    finally:
        for launcher in (one, again, other):
            launcher.close()


def test_a_stranger_after_a_reconnect_is_never_fired_and_its_presses_and_fires_are_not_taken():
    launcher = SimLauncher({"seed": "1", "cards": "20"})
    try:
        ours = launcher.board_id
        assert launcher.fire(1).fired == 1
        stranger = swap_device(launcher, seed=2)
        stranger.press_button()  # a press on the stranger before the host reconnects: it fires alone
        stranger.advance(600)
        assert stranger.app.alone  # the stranger queued a standalone fire to report
        result = launcher.fire(2)
        assert (result.fired, result.fault, result.details["detail"]) == (0, "link", "stranger")
        assert stranger.model.ejected == sum(entry[1] for entry in stranger.app.alone)  # its own fire only
        out_before = stranger.model.ejected
        stranger.press_button()
        with pytest.raises(StrangerLauncher) as told:
            launcher.wait_press(timeout=2.0)
        assert told.value.expected == ours and told.value.found == board_of(2)
        assert ours in str(told.value) and board_of(2) in str(told.value) and "--launcher" in str(told.value)
        assert launcher.state.presses == 0 and launcher.pending_standalone_fires() == []
        assert stranger.app.alone  # no TAKEN went to it: it still holds its own fire for its own host
        assert launcher.fire(1).details["detail"] == "stranger"
        stranger.advance(3000)
        assert stranger.model.ejected == out_before  # nothing we sent ran its motor
        assert not launcher.status().connected and launcher.status().board_id == ours
    finally:
        launcher.close()


def test_our_launcher_back_at_the_port_is_taken_again():
    launcher = SimLauncher({"seed": "1", "cards": "20"})
    try:
        swap_device(launcher, seed=2)
        assert launcher.fire(1).details["detail"] == "stranger"
        back = swap_device(launcher, seed=1)  # the same board again (replugged after the stranger left)
        result = launcher.fire(2)
        assert (result.fired, result.fault) == (2, None) and back.model.ejected == 2
        assert launcher.link.stranger is None
    finally:
        launcher.close()


def test_a_launcher_bound_to_a_board_refuses_another_at_the_start():
    with pytest.raises(StrangerLauncher, match=f"is board {board_of(2)}, not {board_of(1)}"):
        SimLauncher({"seed": "2"}, board=board_of(1))
    launcher = SimLauncher({"seed": "1"}, board=board_of(1))
    launcher.close()


def test_an_older_firmware_names_no_board_and_is_a_stranger_to_a_bound_host():
    """The version rule (docs/protocol.md): a HELLO of three fields has no board; an unbound host binds
    nothing, a bound one refuses it as board `unknown`."""
    from unox.launcher.device_state import DeviceState

    state = DeviceState()
    state.apply("HELLO", ("2", "0.0.9", "00AB"))
    assert (state.firmware, state.board, state.device_epoch) == ("0.0.9", None, "00AB")
    state.apply("HELLO", ("2", "0.1.0", "e6614104032a5c2b", "00AC"))
    assert state.board == "e6614104032a5c2b" and state.device_epoch == "00AC"

    launcher = SimLauncher({"seed": "1"})
    try:
        link = launcher.link
        link.state.board = None  # what an older firmware's HELLO leaves
        link._check_board()
        assert link.stranger == "unknown"
        assert "is board unknown, not " + board_of(1) in str(link.stranger_error())
        link.board = None  # a host that never heard a board binds nothing, and takes the next one
        link._check_board()
        assert link.board is None and link.stranger is None
    finally:
        launcher.close()


def test_a_strangers_prompt_is_left_alone():
    """The host restarts our main.py when it finds it at the MicroPython prompt; never another launcher's."""
    launcher = SimLauncher({"seed": "1"})
    try:
        link = launcher.link
        link.stranger = board_of(2)
        link._watch_prompt(b"\r\n>>> ")
        assert link.restarts == 0
        link.stranger = None
        link._watch_prompt(b"\r\n>>> ")
        assert link.restarts == 1  # the same prompt from our own board is restarted
    finally:
        launcher.close()
