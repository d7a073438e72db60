"""Issue 26 item 5: at 80x24 the turn marker ▶ vanished when the owes column said "until it fires" (the
header cut to `car…`), at 60x20 always; a wild top card's colour was cut; at 40x12 the names and the command
line went out of view with no notice. Through the textual driver."""

from __future__ import annotations

import asyncio

import pytest
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session


def wild_hit_fire_played():
    session = open_play_session(TableSettings(players=("Ann", "Bob", "Cy", "Dee"), seed=5, launcher="sim"),
                                night=Session)
    for line in ("deal Dee", "flip G7", "WF red"):  # Bob now presses until it fires, and it is his turn
        session.submit(line)
    return session


def shown(size, screen) -> list[str]:
    session = wild_hit_fire_played()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return screen(app)

    return asyncio.run(scenario())


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_the_turn_marker_and_the_wilds_colour_stay_in_view(size, screen):
    rows = shown(size, screen)
    players = [row.split("│")[1] for row in rows[1:7] if row.count("│") >= 2]  # the players panel
    (bob,) = [row for row in players if "Bob" in row]
    assert "▶ Bob" in bob, rows[:8]
    assert any("Top card:  WF  red" in row for row in rows[:8]), rows[:8]
    assert not any("too small" in row for row in rows)


def test_a_terminal_too_small_says_so_with_the_size_it_needs(screen):
    rows = shown((40, 12), screen)
    assert "Terminal too small (40x12): make it" in rows[0]
    assert "at least 60x20" in " ".join(rows[:3])
