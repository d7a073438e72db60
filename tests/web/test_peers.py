"""Issue 21: front ends are peers in behaviour, not only in imports. One scripted night (the deal, plays, a
launcher jam that clears, an undo of fired cards refused, a reload advised and done, the hand scored and the
next hand's dealer) run through the terminal UI (the real textual app, its keys pressed through textual's
pilot), `--plain`, the table protocol (JSON lines into the table night, as `unox table` runs it) and the web
API (the phones' HTTP requests, to a server driving the table night, as `unox serve` runs it) gives the same
journal, the same narration and the same refusal of the undo: its code and its words.

Each driver starts from the same table (same seed, the simulated launcher with the real firmware); the jam
is injected into the simulated device at the same step, and cleared there as a person would. The reload is
advised from `ADVICE_AT` cards left in the launcher (the night's `low_water`, the same for every driver), so
a short script reaches it."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import io
import json
from collections.abc import Iterator

from unox.table.jsonl import serve as protocol
from unox.table.night import Night
from unox.table.night_context import next_presser
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.plain import run_plain
from unox.ui.session import Session
from unox.web.client import WebClient
from unox.web.launch import WebOptions, WebServer

from tests.ui.conftest import type_line

PLAYERS = ("Ann", "Bob")
# Bob, Ann, Bob, ...: green on green until Bob has played his last card
GREENS = ("G3", "G2", "G4", "G6", "G8", "G9", "G1", "G3", "G2", "G4", "G6", "G8", "G9", "G1")
DEALT = [("deal Ann", {"cmd": "deal", "dealer": "Ann"}), ("flip G7", {"cmd": "flip", "card": "G7"}),
         ("G5", {"cmd": "play", "player": "Bob", "card": "G5"})]
SCORE = ("score Ann=40 Bob=0", {"cmd": "score", "points": {"Ann": 40, "Bob": 0}})
JAM_TRIES = 20
ADVICE_AT = 100  # cards left in the launcher: the deal leaves 97, so the advice comes with the discards


def open_night(kind=Night):
    night = functools.partial(kind, low_water=ADVICE_AT)
    opened = open_play_session(TableSettings(players=PLAYERS, seed=3, launcher="sim"), night=night)
    opened.advice = []  # the reload advice as the night gave it, before and after the reload
    opened.refusals = []  # the undo's refusal as this front end got it: (code, words)
    return opened


def jam(night, on: bool) -> None:
    """The simulated device jams on its next fire (`on`), or is cleared as a person clears it."""
    device = night.launcher.device
    device.model.faults = dataclasses.replace(device.model.faults, jam=1.0 if on else 0.0, unjam=0.0)
    if not on:
        device.open_lid()
        device.close_lid()
        device.take_stuck()


def script(night, typed: bool) -> Iterator[object]:
    """The night's steps as one front end sends them: typed lines, or protocol requests; `"refused"` marks
    the undo the driver must see refused. Reads the night between steps, as a person reads the screen."""

    def press():
        return "press" if typed else {"cmd": "press", "player": next_presser(night.state)}

    for line, request in DEALT:
        yield line if typed else request
    yield press()
    jam(night, True)
    for _ in range(JAM_TRIES):  # whoever owes presses until one fires and jams
        yield press()
        if night.ctx.fault == "jam":
            break
    jam(night, False)
    yield press()  # it fires again: the fault clears
    yield ("undo" if typed else {"cmd": "undo"}), "refused"
    night.advice.append(night.ctx.reload_due)
    yield "reload" if typed else {"cmd": "reload"}
    night.advice.append(night.ctx.reload_due)
    greens = list(GREENS)
    while night.state["phase"] == "turn":
        player = night.state["turn"]
        card = greens.pop(0)
        yield card if typed else {"cmd": "play", "player": player, "card": card}
    yield SCORE[0] if typed else SCORE[1]


def tui() -> Session:
    """The real table app, driven through textual's pilot: each line typed key by key into its command
    line, its answer read under the prompt as a person reads it."""
    session = open_night(Session)

    async def at_the_keyboard() -> None:
        app = TableApp(session)
        async with app.run_test(size=(120, 45)) as pilot:
            for step in script(session, typed=True):
                line, refused = step if isinstance(step, tuple) else (step, None)
                await type_line(pilot, line)
                if refused is None:
                    assert not app.refused, (line, app.message)
                    continue
                shown = f"Not taken: `{line}`: "
                assert app.refused and app.message.startswith(shown), (line, app.message)
                session.refusals.append((app.refused_code, app.message.removeprefix(shown)))

    asyncio.run(at_the_keyboard())
    return session


def plain() -> Session:
    session = open_night(Session)
    steps = script(session, typed=True)
    lines = (step[0] if isinstance(step, tuple) else step for step in steps)
    out = io.StringIO()
    run_plain(session, lines, out)
    # --plain shows the words only; the code is the one its words are the night's for
    session.refusals = [("not_undoable", line.removeprefix("not taken: "))
                        for line in out.getvalue().splitlines() if line.startswith("not taken: ")]
    return session


def table_protocol() -> Night:
    night = open_night()
    out = io.StringIO()
    sent = []

    def lines():
        for step in script(night, typed=False):
            request, refused = step if isinstance(step, tuple) else (step, None)
            sent.append(refused)
            yield json.dumps(request)

    protocol(night, lines(), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    refused = [r for r, why in zip(replies, sent, strict=True) if why == "refused"]
    night.refusals = [(r["error"]["code"], r["error"]["message"]) for r in refused]
    return night


def web_api() -> Night:
    night = open_night()
    options = WebOptions(host="127.0.0.1", port=0, pin="", operator_pin="")
    server = WebServer(night.table, options, launcher=night.launcher, night=night)
    import threading

    server.thread = threading.Thread(target=server.run, daemon=True)
    server.thread.start()
    try:
        operator = WebClient(server.url)
        operator.join(None, "operator")
        for step in script(night, typed=False):
            request, refused = step if isinstance(step, tuple) else (step, None)
            status, reply = operator.request(request)
            if refused:
                assert status == 409 and not reply["ok"], reply
                night.refusals.append((reply["error"]["code"], reply["error"]["message"]))
            else:
                assert status == 200, reply
    finally:
        server.stop()
    return night


def test_the_same_night_through_every_front_end_gives_the_same_journal_and_narration():
    nights = {"tui": tui(), "plain": plain(), "protocol": table_protocol(), "web": web_api()}
    try:
        journal = {name: night.entries() for name, night in nights.items()}
        told = {name: list(night.log) for name, night in nights.items()}
        assert journal["tui"] == journal["plain"] == journal["protocol"] == journal["web"]
        assert told["tui"] == told["plain"] == told["protocol"] == told["web"]
        lines = told["tui"]
        # the steps really happened, in the night's own words
        assert any(line.startswith("Launcher fault (jam)") for line in lines)
        assert any(line.startswith("Launcher fault cleared (jam)") for line in lines)
        assert lines[-1] == "Next hand: Bob deals."
        assert nights["web"].ctx.dealer == "Bob"
        # the undo of fired cards: one refusal, one code and one wording, whichever front end asked
        refusals = {name: night.refusals for name, night in nights.items()}
        assert len(refusals["tui"]) == 1 and refusals["tui"][0][0] == "not_undoable", refusals
        words = refusals["tui"][0][1]
        assert words.startswith("the last event was a launcher press") and "cannot go back" in words
        assert refusals == {name: refusals["tui"] for name in nights}
        advice = {name: night.advice for name, night in nights.items()}
        assert advice == {name: [True, False] for name in nights}  # advised, then done
        assert any(e["cmd"] == "reload" for e in journal["tui"])
        assert any(e["cmd"] == "press" for e in journal["tui"]) and journal["tui"][-1]["cmd"] == "score"
    finally:
        for night in nights.values():
            night.close()
