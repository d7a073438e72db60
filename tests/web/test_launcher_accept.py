"""Issue 22 item 1 on the phones (`unox serve`): another launcher at the port is told to the pages with its
board (`stranger`), none of its presses are booked, and only the operator's `POST /api/launcher/accept` takes
it as the table's (through the night, as `launcher accept` typed at the terminal does)."""

from __future__ import annotations

import asyncio
import json

from starlette.requests import Request
from unox.table.journal import Journal
from unox.table.opening import open_play_session
from unox.table.runtime import BOARD_KEY
from unox.table.settings import TableSettings
from unox.ui.session import Session
from unox.web.device import ButtonLoop, sim_hopper_sync
from unox.web.hub import Hub
from unox.web.seats import OPERATOR, Seats
from unox.web.server import Api
from unoxsim.device import VirtualDevice

PIN, OPERATOR_PIN = "2468", "1357"


def post(api: Api, token: str, path: str = "/api/launcher/accept") -> tuple[int, dict]:
    """One POST through the endpoint's own handler, as the server routes it, with `token` as bearer."""
    handler = next(route.endpoint for route in api.routes() if getattr(route, "path", None) == path)
    headers = [(b"authorization", f"Bearer {token}".encode()), (b"content-type", b"application/json")]
    scope = {"type": "http", "method": "POST", "path": path, "query_string": b"", "client": ("127.0.0.1", 5),
             "headers": headers}

    async def receive() -> dict:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    response = asyncio.run(handler(Request(scope, receive)))
    return response.status_code, json.loads(response.body)


def served(tmp_path):
    settings = TableSettings(players=("Ann", "Bob"), profile="arduino", seed=3, launcher="sim")
    session = open_play_session(settings, journal=tmp_path / "w.db", night=Session)
    hub = Hub(session.table, after_change=sim_hopper_sync(session.launcher), night=session)
    seats = Seats(("Ann", "Bob"), PIN, OPERATOR_PIN)
    api = Api(hub, seats, presses="button")
    tokens = {"operator": seats.join("127.0.0.1", OPERATOR_PIN, OPERATOR),
              "Ann": seats.join("127.0.0.2", PIN, "Ann")}
    return session, hub, api, tokens


def test_the_operator_accepts_the_stranger_the_pages_were_told_of_and_only_the_operator(tmp_path):
    session, hub, api, tokens = served(tmp_path)
    launcher = session.launcher
    ours = launcher.board_id
    try:
        hub.handle('{"cmd":"deal","dealer":"Ann"}')
        hub.handle('{"cmd":"flip","card":"B4"}')
        status, reply = post(api, tokens["operator"])
        assert (status, reply["error"]["code"]) == (409, "nothing_to_accept")
        assert f"this table's launcher is board {ours}" in reply["error"]["message"]

        told: list[dict] = []
        hub.from_thread = lambda call, *value: told.append(value[0]) if call == hub.publish_device else None
        stranger = VirtualDevice(seed=9, cards=40)
        launcher.port.swap_device(stranger)
        found = stranger.board.machine.unique_id().hex()
        loop = ButtonLoop(hub, launcher)
        entries = len(session.table.entries)
        stranger.press_button()
        for _ in range(40):  # 2 s of the loop's polls
            loop._poll()
        assert told and told[-1]["stranger"] == found and not told[-1]["connected"]
        assert len(session.table.entries) == entries and stranger.model.ejected == 0

        status, reply = post(api, tokens["Ann"])
        assert (status, reply["error"]["code"]) == (403, "forbidden")
        assert launcher.board_id == ours  # a player cannot take it

        status, reply = post(api, tokens["operator"])
        assert (status, reply) == (200, {"ok": True, "board": found})
        assert session.table.journal.get_meta(BOARD_KEY) == found and launcher.board_id == found
        stranger.press_button()
        for _ in range(40):
            loop._poll()
            if len(session.table.entries) >= entries + 2:
                break
        # its press is the table's now, fired and booked; so is the one it fired alone while it was refused
        # (its firmware reports it as ALONE to the host it now has): every card out of it booked, once
        new = session.table.entries[entries:]
        assert [entry["cmd"] for entry in new] == ["press", "press"], new
        assert sum(entry["fired"] for entry in new) == stranger.model.ejected and new[-1]["fired"] > 0
    finally:
        session.close()
    with Journal(tmp_path / "w.db") as journal:
        assert journal.get_meta(BOARD_KEY) == found


def test_beside_the_terminal_the_phones_are_sent_to_it(tmp_path):
    """`unox play --web`: the terminal's night drives the launcher; the hub has none of its own."""
    session, _, _, _ = served(tmp_path)
    try:
        hub = Hub(session.table)
        api = Api(hub, Seats(("Ann", "Bob"), PIN, OPERATOR_PIN), presses="host")
        token = api.seats.join("127.0.0.1", OPERATOR_PIN, OPERATOR)
        status, reply = post(api, token)
        assert status == 409 and "type `launcher accept` there" in reply["error"]["message"]
    finally:
        session.close()


def test_the_operator_page_offers_the_button_only_for_a_stranger_and_says_the_refusal_in_words(serve,
                                                                                                browser):
    """The page's part: the button shows while the launcher status names a `stranger`, posts the accept,
    and a refusal (here: a script launcher has no board, so nothing to accept) reads as words."""
    from playwright.sync_api import expect

    from tests.web.test_browser import Table

    server = serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--no-journal")
    table = Table(browser, server.url)
    op = table.open("operator")
    expect(op.get_by_role("button", name="Deal", exact=True)).to_be_visible()
    assert op.locator("#accept-launcher").count() == 0  # no stranger: no button
    op.evaluate("device = {connected: false, faults: ['link'], stranger: 'dd4ab2900f21c332'}; render();")
    button = op.get_by_role("button", name="Accept launcher board dd4ab2900f21c332")
    expect(button).to_be_visible()
    button.click()
    expect(op.locator("#msg")).to_have_text(
        "No other launcher answers at the port now, so there is nothing to accept: the table keeps its own.")
    ann = table.open("Ann")
    ann.evaluate("device = {connected: false, faults: ['link'], stranger: 'dd4ab2900f21c332'}; render();")
    assert ann.locator("#accept-launcher").count() == 0  # a player's page never offers it


def test_a_demo_says_there_is_nothing_to_accept_not_to_type_at_a_terminal(tmp_path):
    """`unox demo --web`: no terminal takes input and its launcher is simulated: nothing to accept."""
    session, _, _, _ = served(tmp_path)
    try:
        seats = Seats(("Ann", "Bob"), PIN, OPERATOR_PIN, read_only=True)
        api = Api(Hub(session.table), seats, presses="button")
        token = api.seats.join("127.0.0.1", OPERATOR_PIN, OPERATOR)
        status, reply = post(api, token)
        message = reply["error"]["message"]
        assert (status, reply["error"]["code"]) == (409, "nothing_to_accept")
        assert "nothing to accept" in message and "demo" in message and "terminal" not in message
    finally:
        session.close()
