"""Issue 22 item 1 on the chip it ships for: the emulated Pico's HELLO names its board as
`machine.unique_id()` in hex (whatever rp2040js's flash gives), and a host bound to it refuses another
launcher that takes its port (a simulated one, plugged in while the chip is unplugged): nothing fired on
it, none of its presses taken. The chip back at the port is the same launcher and fires again."""

from __future__ import annotations

import re

import pytest
from unox.launcher.base import StrangerLauncher
from unoxsim.device import VirtualDevice
from unoxsim.pico import repl_exec

from tests.pico.conftest import cards_out


def test_the_chip_names_its_unique_id_and_a_stranger_at_its_port_is_refused(pico, host):
    device = pico(seed=5, cards=20)
    launcher = host(device)
    board = launcher.board_id
    assert board is not None and re.fullmatch(r"[0-9a-f]{16}", board), board
    assert launcher.status().board_id == board
    assert launcher.fire(1).fired == 1

    stranger = VirtualDevice(seed=7, cards=20)
    assert stranger.board.machine.unique_id().hex() != board
    launcher.port.swap_device(stranger)
    launcher.link.pump()  # the driver notices that its port is gone
    assert launcher.link.broken
    result = launcher.fire(2)
    assert (result.fired, result.fault, result.details["detail"]) == (0, "link", "stranger"), result
    stranger.press_button()
    with pytest.raises(StrangerLauncher, match=f"not {board}"):
        launcher.wait_press(timeout=2.0)
    assert launcher.state.presses == 0 and launcher.pending_standalone_fires() == []
    assert stranger.model.ejected == 0  # nothing of ours reached its motor

    out = cards_out(device)
    device.plug()  # the chip again, at the same port: the same launcher
    launcher.port.swap_device(device)
    again = launcher.fire(1)
    assert (again.fired, again.fault) == (1, None), again
    assert cards_out(device) == out + 1

    # what the chip itself says its id is, in its REPL (main.py stopped with Ctrl-C, as mpremote does)
    code = "import binascii, machine\nprint(binascii.hexlify(machine.unique_id()).decode())"
    said = repl_exec(device, code)
    assert said.strip() == board
