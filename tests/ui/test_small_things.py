"""Issue 13, item 14: the small things a new user met on the play screen, one test each."""

from __future__ import annotations

import asyncio
import io
import re
import subprocess
import sys

import pytest
from unox.launcher.base import FireResult
from unox.launcher.script import ScriptLauncher
from unox.launcher.serial import SerialLauncher
from unox.launcher.sim import open_sim_port
from unox.press_mode import Tally
from unox.table import opening as tables
from unox.table.opening import open_play_session, resume_play_session
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.commands import InputError, commands_help
from unox.ui.plain import run_plain
from unox.ui.prompt import Context
from unox.ui.session import Session
from unox.ui.views import launcher_lines

from tests.ui.test_settle import crash_during_a_fire

PLAYERS = ("Ann", "Bob", "Cy")


def in_progress():
    session = open_play_session(TableSettings(players=PLAYERS, seed=5, launcher="sim"), night=Session)
    session.submit("deal Ann")
    session.submit("flip G7")
    return session


def test_answering_no_to_leave_the_table_stays_without_an_error(typer):
    session = in_progress()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await typer(pilot, "quit")
            asked = app.prompt_text()
            await typer(pilot, "no")
            return asked, app.message, app.refused, app.prompt_text(), app.is_running

    asked, message, refused, prompt, running = asyncio.run(scenario())
    assert "leave the table? Type yes" in asked
    assert message == "Staying at the table." and not refused and running
    assert prompt.startswith("NEXT: Bob: play a card")


def test_answering_no_in_the_plain_loop_stays_without_an_error():
    out = io.StringIO()
    run_plain(in_progress(), ["quit", "no", "quit", "yes"], out)
    text = out.getvalue()
    assert "Staying at the table." in text and "not taken" not in text


def test_classics_flip_advice_is_in_typed_words_not_protocol_json():
    session = open_play_session(TableSettings(players=PLAYERS, seed=5, launcher="sim", rules="classic"),
        night=Session)
    session.submit("deal Ann")
    with pytest.raises(InputError) as refused:
        session.submit("flip G7")  # DL3: the launcher fires the first card before anyone names it
    assert "{" not in str(refused.value) and "type flip" in str(refused.value)


@pytest.mark.parametrize("rules", [None, "classic"])
def test_help_never_says_a_player_trades_with_themself(rules):
    from unox.rules.editions import get_rules

    text = commands_help(get_rules(rules) if rules else None)
    assert re.search(r"\b(\w+) trades with \1\b", text) is None, text
    if rules is None:
        assert "Trade Hands with" in text


def test_the_players_panel_lists_the_seats_before_the_deal(screen):
    session = open_play_session(TableSettings(players=PLAYERS, seed=5, launcher="sim"), night=Session)
    assert session.state["phase"] == "deal"

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)):
            return screen(app)

    rows = asyncio.run(scenario())
    panel = [row[:40] for row in rows[:8]]
    for name in PLAYERS:
        assert any(f" {name} " in row for row in panel), "\n".join(rows)


def serial_table():
    launcher = SerialLauncher(open_sim_port({"seed": "6", "cards": "0"}))
    table = Table.create(TableSettings(players=PLAYERS, seed=6, launcher="serial:/dev/ttyACM0"),
                         launcher=launcher)
    session = Session(table, launcher=launcher, sim=False)
    session.submit("deal Cy")
    session.submit("flip G7")
    return session, launcher


def test_an_old_refusal_leaves_once_the_launchers_button_moves_the_game_on(typer):
    session, launcher = serial_table()

    async def scenario():
        app = TableApp(session, poll_wait=1.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await typer(pilot, "Bob G3")  # not Bob's turn
            refused = app.message
            launcher.port.device.press_button()  # Ann presses the launcher's own button
            app.poll_launcher()
            await app.workers.wait_for_complete()
            await pilot.pause()
            return refused, app.message, app.prompt_text()

    refused, after, prompt = asyncio.run(scenario())
    assert refused.startswith("Not taken: `Bob G3`")
    assert session.entries()[-1]["cmd"] == "press" and prompt.startswith("NEXT: Bob:")
    assert "Not taken" not in after


def footer(app) -> str:
    shown = [b.binding for b in app.active_bindings.values() if b.binding.show and b.enabled]
    return " ".join(binding.description for binding in shown)


def test_the_footer_offers_the_sim_keys_only_with_the_sim_launcher(screen):
    session, _ = serial_table()

    async def scenario(session):
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return screen(app)[-1], footer(app)

    serial_row, serial_keys = asyncio.run(scenario(session))
    sim_row, sim_keys = asyncio.run(scenario(in_progress()))
    assert "press (sim)" in sim_keys and "fix (sim)" in sim_keys and "press (sim)" in sim_row
    assert "(sim)" not in serial_keys and "(sim)" not in serial_row
    assert "reload" in serial_row and "quit" in serial_row


def test_a_resumed_press_the_launcher_settles_is_told(tmp_path, monkeypatch):
    path = tmp_path / "t.db"
    fire_id = crash_during_a_fire(path, requested=6)

    class Remembers(ScriptLauncher):
        def fire_result(self, asked):
            return FireResult(6, 6, None) if asked == fire_id else None

    monkeypatch.setattr(tables, "open_checked", lambda spec, config=None: Remembers())
    session = resume_play_session(path, night=Session)
    assert "unsettled" not in session.state and session.state["hands"]["Bob"] == 7 + 6
    text = "\n".join(session.log)
    assert "the launcher remembers it: 6 cards came out" in text
    assert "Bob presses: 6 cards fired (Bob holds 13)." in text
    session.close()


def test_counts_of_one_are_singular():
    tally = Tally(start=1, estimate=0, presses=1, fires=1, fired=1, reloads=1)
    assert tally.summary() == ("1 press, 1 card fired in 1 fire, 0 refused as too quick, 1 reload; "
                               "faults: none")
    assert launcher_lines({"launcher": {"cards": 1}}, Context())[0] == "Launcher:  1 card inside (est.)"
    tally = Tally(start=2, estimate=0, presses=2, fires=2, fired=2, reloads=2)
    assert "2 presses, 2 cards fired in 2 fires" in tally.summary() and "2 reloads" in tally.summary()


COMMANDS = ("", "play", "table", "serve", "demo", "sim", "press", "diagnose", "calibrate", "firmware",
            "journal", "profile", "rules", "simulate-device", "install")


@pytest.mark.parametrize("command", COMMANDS)
def test_help_fits_80_columns(command, tmp_path):
    env = {"COLUMNS": "80", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    argv = [sys.executable, "-m", "unox", *([command] if command else []), "--help"]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    wide = [line for line in done.stdout.splitlines() if len(line) > 80]
    assert wide == []


def test_the_plain_loops_help_fits_80_columns():
    out = io.StringIO()
    run_plain(in_progress(), ["help"], out)
    lines = out.getvalue().splitlines()
    assert any("Commands:" in line for line in lines)
    assert [line for line in lines if len(line) > 80 and not line.startswith(("next:", "Journal:"))] == []
