"""Issue 22 item 1 on the chip it ships for: the emulated Pico's HELLO names its board as
`machine.unique_id()` in hex (the id its emulated flash answers to Read Unique ID, one per seed), and a host
bound to it refuses another launcher that takes its port (a simulated one, or another emulated chip, plugged
in while the chip is unplugged): nothing fired on it, none of its presses taken. The chip back at the port,
or at another one, is the same launcher and fires again."""

from __future__ import annotations

import re

import pytest
from unox.launcher.base import StrangerLauncher
from unox.launcher.serial import SerialLauncher
from unox.table.journal import Journal, JournalError
from unox.table.runtime import BOARD_KEY, Table
from unoxsim.device import VirtualDevice
from unoxsim.pico import chip_port, chip_uid, repl_exec

from tests.pico.conftest import cards_out
from tests.table.tablekit import FixedProfile, new_table, started


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


def journal_view(path) -> tuple:
    """Everything a refused press or resume must leave as it was."""
    with Journal(path) as journal:
        return journal.raw_rows(), journal.fires(), journal.get_meta(BOARD_KEY)


def test_two_emulated_chips_have_ids_of_their_own_and_a_table_bound_to_one_refuses_the_other(pico, tmp_path):
    """Issue 22 item 1's open end: every emulated chip said 0000000000000000, so two looked like one. Chip A's
    table meets chip B at the same path (mid-game, then on a resume): nothing fired, nothing booked, both
    ids named; chip A at a new path is the same launcher."""
    chip_a, chip_b = pico(seed=1, cards=30), pico(seed=2, cards=30)
    board_a, board_b = chip_uid(1).hex(), chip_uid(2).hex()
    assert board_a != board_b and "0" * 16 not in (board_a, board_b)

    path = tmp_path / "table.db"
    launcher = SerialLauncher(chip_port(chip_a), name="emulated Pico")
    table = new_table(launcher=launcher, journal=Journal(path), seed=3)
    try:
        assert launcher.board_id == board_a
        table.profile = FixedProfile(1, 2)
        started(table)
        assert table.button()["ok"]  # chip A fires for its table
        out_a = cards_out(chip_a)
        assert out_a == table.entries[-1]["fired"] == 1
        assert table.journal.get_meta(BOARD_KEY) == board_a
        entries, hands = len(table.entries), table.state()["hands"]

        launcher.port.swap_device(chip_b)  # A unplugged, B takes the same path
        launcher.link.pump()
        reply = table.button()
        assert reply["error"]["code"] == "launcher_fault" and reply["launcher"]["fault"] == "link", reply
        refused = table.journal.fires()[-1]
        assert (refused["requested"], refused["fired"], refused["fault"]) == (2, 0, "link")  # never sent
        chip_b.press_button()
        with pytest.raises(StrangerLauncher) as told:
            launcher.wait_press(timeout=2.0)
        assert f"is board {board_b}, not {board_a}" in str(told.value)
        assert len(table.entries) == entries and table.state()["hands"] == hands
        assert cards_out(chip_b) == 0  # nothing of ours reached B's motor (its own press fires alone)
    finally:
        table.close()
    before = journal_view(path)
    assert before[2] == board_a

    at_old_path = SerialLauncher(chip_port(chip_b), name="emulated Pico")
    try:
        with pytest.raises(JournalError) as refused:
            Table.resume(path, launcher=at_old_path)
        message = str(refused.value)
        assert f"bound to launcher board {board_a}" in message and f"is board {board_b}" in message
        assert journal_view(path) == before
    finally:
        at_old_path.close()

    chip_a.plug()
    at_new_path = SerialLauncher(chip_port(chip_a), name="emulated Pico, another port")
    table = Table.resume(path, launcher=at_new_path)
    try:
        assert table.rebound is None and at_new_path.board_id == board_a
        table.profile = FixedProfile(2)
        assert table.button()["ok"]
        assert cards_out(chip_a) == out_a + table.entries[-1]["fired"]
    finally:
        table.close()
    assert journal_view(path)[2] == board_a
