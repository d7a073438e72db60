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
