"""Issue 22 item 1 in `unox play`'s session: the launcher's cable is pulled and another launcher answers at
the same port. Its presses are not booked, its fires alone are not taken, nothing is fired on it; the log
says which board was expected and which was found."""

from __future__ import annotations

from unox.table.journal import Journal
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.session import Session
from unoxsim.device import VirtualDevice

SIM = "sim:?seed=5&jam=0&double=0&stuck=0"


def test_a_stranger_at_the_port_mid_game_is_refused_and_nothing_of_it_is_booked(tmp_path):
    path = tmp_path / "p.db"
    settings = TableSettings(players=("Ann", "Bob", "Cy"), seed=1, launcher=SIM)
    session = open_play_session(settings, journal=path, night=Session)
    try:
        session.submit("deal Cy")
        session.submit("flip G7")
        launcher = session.launcher
        ours = launcher.board_id
        launcher.press_button()
        assert len(session.poll(2.0)) == 1  # our launcher's press is booked
        entries, hands = len(session.table.entries), dict(session.state["hands"])
        stranger = VirtualDevice(seed=6, cards=50)
        launcher.port.swap_device(stranger)
        stranger.press_button()  # before any host: it fires alone, its own business
        stranger.advance(2000)
        for _ in range(3):
            launcher.press_button()  # the sim's button is the one at the port: the stranger's
            assert session.poll(2.0) == []
        session.sync_table()  # the fires it made alone are not taken either
        assert len(session.table.entries) == entries and session.state["hands"] == hands
        assert stranger.model.ejected == sum(entry[1] for entry in stranger.app.alone)  # only its own
        told = [line for line in session.log if "Launcher fault (link)" in line]
        assert told and f"is board {stranger.board.uid.hex()}, not {ours}" in told[-1]
    finally:
        session.close()
    with Journal(path) as journal:
        assert journal.get_meta("launcher_board") == ours
        assert len(journal.fires()) == 1


def test_a_stranger_that_comes_after_the_link_was_lost_is_told_too(tmp_path):
    """The issue's order: the simulator killed (link lost, told), then another launcher takes the port."""
    settings = TableSettings(players=("Ann", "Bob", "Cy"), seed=1, launcher=SIM)
    session = open_play_session(settings, journal=tmp_path / "q.db", night=Session)
    try:
        session.submit("deal Cy")
        session.submit("flip G7")
        launcher = session.launcher
        launcher.device.unplug(vanish=True)
        assert session.poll(2.0) == []
        lost = [line for line in session.log if "Launcher fault (link)" in line]
        assert len(lost) == 1 and "is board" not in lost[0]
        stranger = VirtualDevice(seed=6, cards=50)
        launcher.port.swap_device(stranger)
        for _ in range(5):
            stranger.press_button()
            assert session.poll(1.0) == []
        told = [line for line in session.log if "Launcher fault (link)" in line]
        assert len(told) == 2 and f"is board {stranger.board.uid.hex()}" in told[1]  # once, not per poll
        assert stranger.model.ejected == sum(entry[1] for entry in stranger.app.alone)
    finally:
        session.close()
