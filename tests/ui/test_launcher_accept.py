"""Issue 22 item 1, the UI's accept: another launcher answering at a running table's port is refused (nothing
fired on it, none of its presses booked) until the operator types `launcher accept`; the table (its journal
and its driver) is then bound to that launcher's board and fires it. The logic is the night's
(`Night.accept_launcher`); the play screen and `--plain` only offer the typed command."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator

import pytest
from unox.table.journal import Journal
from unox.table.night_context import Refused
from unox.table.opening import open_play_session
from unox.table.runtime import BOARD_KEY
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.commands import InputError, commands_help, parse_line, suggest
from unox.ui.plain import run_plain
from unox.ui.session import Session
from unoxsim.device import VirtualDevice

SIM = "sim:?seed=5&jam=0&double=0&stuck=0"
PLAYERS = ("Ann", "Bob", "Cy")


def new_session(path) -> Session:
    settings = TableSettings(players=PLAYERS, seed=1, launcher=SIM)
    return open_play_session(settings, journal=path, night=Session)


def bound_board(path) -> str:
    with Journal(path) as journal:
        return journal.get_meta(BOARD_KEY)


def stranger_at_the_port(session: Session, seed: int = 6) -> VirtualDevice:
    """Our launcher unplugged; another (its own seed, so its own board) answers at the same port."""
    stranger = VirtualDevice(seed=seed, cards=50)
    session.launcher.port.swap_device(stranger)
    return stranger


def test_the_night_refuses_a_stranger_until_accepted_then_binds_the_journal_and_fires_it(tmp_path):
    path = tmp_path / "t.db"
    session = new_session(path)
    try:
        session.submit("deal Cy")
        session.submit("flip G7")
        ours = session.launcher.board_id
        with pytest.raises(Refused, match=f"no other launcher answers at the port.*board {ours}"):
            session.accept_launcher()  # nothing to accept: our own launcher is there
        assert bound_board(path) == ours and session.table.rebound is None

        stranger = stranger_at_the_port(session)
        found = stranger.board.uid.hex()
        entries, hands = len(session.table.entries), dict(session.state["hands"])
        session.launcher.press_button()  # the button at the port is the stranger's
        assert session.poll(2.0) == []
        told = [line for line in session.log if "Launcher fault (link)" in line]
        assert f"is board {found}, not {ours}" in told[-1] and "`launcher accept`" in told[-1]
        assert len(session.table.entries) == entries and stranger.model.ejected == sum(
            entry[1] for entry in stranger.app.alone)  # only the fire it made alone, before anyone hosted it
        assert bound_board(path) == ours  # nothing fires on it, nothing is rebound, until the operator says

        assert session.accept_launcher() == found
        assert bound_board(path) == found and session.table.rebound == (ours, found)
        assert session.launcher.board_id == found and session.ctx.fault is None
        assert f"Launcher board {found} accepted in place of board {ours}" in "\n".join(session.log)
        out = stranger.model.ejected
        session.launcher.press_button()
        replies = session.poll(2.0)
        assert len(replies) == 1 and replies[0]["ok"], replies
        assert len(session.table.entries) == entries + 1 and session.state["hands"] != hands
        assert stranger.model.ejected == out + session.table.entries[-1]["fired"]  # it fires for us now
        with pytest.raises(Refused, match="no other launcher answers"):
            session.accept_launcher()  # accepted once: it is ours, nothing more to accept
    finally:
        session.close()
    assert bound_board(path) == found


def test_a_table_without_board_ids_has_nothing_to_accept(tmp_path):
    settings = TableSettings(players=PLAYERS, seed=1)
    session = open_play_session(settings, journal=tmp_path / "n.db", night=Session)
    try:
        with pytest.raises(Refused, match="has no board id"):
            session.submit("launcher accept")
    finally:
        session.close()


def test_the_typed_grammar_takes_launcher_accept_only_and_says_how():
    assert parse_line("launcher accept", PLAYERS).verb == "launcher"
    assert parse_line("Launcher ACCEPT", PLAYERS).verb == "launcher"
    with pytest.raises(InputError, match="say what: `launcher accept` takes the launcher now at the port"):
        parse_line("launcher", PLAYERS)
    with pytest.raises(InputError, match="not understood: 'fire now'.*`launcher accept`"):
        parse_line("launcher fire now", PLAYERS)
    assert "launcher accept" in commands_help()
    assert suggest("launcher a", PLAYERS) == "launcher accept"


def test_plain_play_takes_launcher_accept_typed_and_refuses_it_with_nothing_to_accept(tmp_path):
    path = tmp_path / "p.db"
    session = new_session(path)
    ours = session.launcher.board_id
    stranger: list[VirtualDevice] = []

    def lines() -> Iterator[str]:
        yield from ("deal Cy", "flip G7", "launcher accept", "launcher")
        stranger.append(stranger_at_the_port(session))
        yield from ("press", "launcher accept", "press", "quit", "yes")

    out = io.StringIO()
    try:
        run_plain(session, lines(), out)
    finally:
        session.close()
    text = out.getvalue()
    found = stranger[0].board.uid.hex()
    assert f"not taken: no other launcher answers at the port: this table's launcher is board {ours}" in text
    assert "not taken: say what: `launcher accept`" in text
    assert f"is board {found}, not {ours}" in text and "accept it: `launcher accept`" in text
    assert f"Launcher board {found} accepted in place of board {ours}" in text
    assert bound_board(path) == found
    with Journal(path) as journal:
        fired = [fire for fire in journal.fires() if fire["fired"]]
    assert stranger[0].model.ejected == sum(entry[1] for entry in stranger[0].app.alone) + fired[-1]["fired"]


def test_the_play_screen_takes_launcher_accept_typed(tmp_path, typer):
    path = tmp_path / "s.db"
    session = new_session(path)
    app = TableApp(session)
    ours = session.launcher.board_id

    async def scenario() -> str:
        async with app.run_test(size=(100, 30)) as pilot:
            await typer(pilot, "deal Cy")
            await typer(pilot, "flip G7")
            await typer(pilot, "launcher accept")
            assert app.refused and "no other launcher answers at the port" in app.message
            stranger = stranger_at_the_port(session)
            await typer(pilot, "press")
            assert bound_board(path) == ours
            await typer(pilot, "launcher accept")
            assert not app.refused, app.message
            return stranger.board.uid.hex()

    try:
        found = asyncio.run(scenario())
    finally:
        session.close()
    assert bound_board(path) == found != ours
    assert f"Launcher board {found} accepted in place of board {ours}" in "\n".join(session.log)


def test_accept_refuses_an_older_firmware_and_a_journal_that_cannot_record_it_changing_nothing(tmp_path,
                                                                                              monkeypatch):
    import sqlite3

    path = tmp_path / "e.db"
    session = new_session(path)
    try:
        session.submit("deal Cy")
        ours = session.launcher.board_id
        link = session.launcher.link
        link.state.board = None  # what an older firmware's HELLO (no board) leaves
        link._check_board()
        with pytest.raises(Refused, match="names no board .* `unox firmware flash`, then `launcher accept`"):
            session.accept_launcher()
        assert link.stranger == "unknown" and bound_board(path) == ours

        stranger = stranger_at_the_port(session)
        session.launcher.press_button()
        assert session.poll(2.0) == []
        found = stranger.board.uid.hex()
        assert session.launcher.stranger_id == found

        def full(key, value):
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(session.table.journal, "set_meta", full)
        with pytest.raises(Refused, match="journal could not record the new launcher .*disk is full.*nothing "
                                          "changed"):
            session.accept_launcher()
        monkeypatch.undo()
        assert bound_board(path) == ours and session.table.rebound is None
        assert session.launcher.board_id == ours and session.launcher.stranger_id == found  # still refused
        assert session.launcher.fire(1).details["detail"] == "stranger"
        assert session.accept_launcher() == found  # the disk freed: the same command takes it
    finally:
        session.close()
    assert bound_board(path) == found
