"""The launcher's own button under `unox serve`: the button loop attributes each press, fires and books it."""

from __future__ import annotations

import threading

from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.session import Session
from unox.web.device import ButtonLoop, sim_hopper_sync
from unox.web.hub import Hub


def test_a_button_press_is_attributed_fired_and_counted_while_the_server_runs():
    settings = TableSettings(players=("Ann", "Bob"), profile="arduino", seed=3, launcher="sim")
    session = open_play_session(settings, night=Session)
    table, launcher = session.table, session.launcher
    hub = Hub(table, after_change=sim_hopper_sync(launcher))
    hub.handle('{"cmd":"deal","dealer":"Ann"}')  # the hub loads the simulated hopper as a dealer would
    hub.handle('{"cmd":"flip","card":"B4"}')
    pressed = threading.Event()
    table.listeners.append(lambda line: pressed.set() if line.startswith("Bob presses") else None)
    loop = ButtonLoop(hub, launcher)
    loop.start()
    try:
        with hub.lock:  # the simulator is one device: touch it only between the loop's polls
            launcher.press_button()
        assert pressed.wait(timeout=30), "the button loop never took the press"
    finally:
        loop.stop()
        loop.join(timeout=10)
        table.close()
    last = table.entries[-1]
    assert last == {"cmd": "press", "player": "Bob", "fired": 3}  # rules chose Bob (T2); beam counted 3
    assert table.state()["hands"]["Bob"] == 10 and table.state()["turn"] == "Ann"


def test_a_stranger_at_the_launchers_port_is_told_to_the_pages_and_its_presses_are_not_booked():
    """Issue 22 item 1 under `unox serve`: the cable is pulled and another launcher answers at the port.
    The loop takes none of its presses; the pages hear the link is down and which board was found."""
    from unoxsim.device import VirtualDevice

    settings = TableSettings(players=("Ann", "Bob"), profile="arduino", seed=3, launcher="sim")
    session = open_play_session(settings, night=Session)
    table, launcher = session.table, session.launcher
    hub = Hub(table, after_change=sim_hopper_sync(launcher))
    hub.handle('{"cmd":"deal","dealer":"Ann"}')
    hub.handle('{"cmd":"flip","card":"B4"}')
    told: list[dict] = []
    hub.from_thread = lambda call, value: told.append(value) if call == hub.publish_device else None
    ours, entries = launcher.board_id, len(table.entries)
    stranger = VirtualDevice(seed=9, cards=40)
    launcher.port.swap_device(stranger)
    loop = ButtonLoop(hub, launcher)
    try:
        stranger.press_button()
        for _ in range(40):  # 2 s of the loop's polls: the stranger's heartbeats come every 250 ms
            loop._poll()
    finally:
        table.close()
    assert len(table.entries) == entries and stranger.model.ejected == 0
    found = stranger.board.machine.unique_id().hex()
    assert told and not told[-1]["connected"] and f"is board {found}, not {ours}" in told[-1]["detail"]
