"""Issue 26 item 6: Barbie's command line suggested `type a card (R5)`, a card Barbie does not have, and
`gift Bob T5 P7` (Ann's gift due) read Bob as the giver: "Ann must first send gift"; `gift to Bob T5 P7`
worked. Through the textual driver at 80x24 and 60x20."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Input
from unox.rules.editions import get_rules
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")


def beachcomber_played():
    settings = TableSettings(players=PLAYERS, rules="barbie", launcher="script")
    session = open_play_session(settings, night=Session)
    for line in ("deal Cy", "flip", "flip T7", "WB pink"):  # Ann's Beachcomber: her gift is due (BA-A1)
        session.submit(line)
    assert session.state["pending"] == {"cmd": "gift", "player": "Ann", "why": "Beachcomber (BA-A1)"}
    return session


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_a_gift_names_who_receives_it_and_the_hint_shows_a_barbie_card(size, typer):
    session = beachcomber_played()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=size) as pilot:
            placeholder = app.query_one("#command", Input).placeholder
            await typer(pilot, "gift Bob T5 P7")
            return placeholder, app.message

    placeholder, message = asyncio.run(scenario())
    example = placeholder.split("(")[1].split(")")[0]
    assert example in get_rules("barbie").cards and "R5" not in placeholder
    assert message == "" and session.entries()[-1] == {"cmd": "gift", "player": "Ann", "to": "Bob",
                                                       "cards": ["T5", "P7"]}


def test_the_giver_can_still_be_named_first():
    session = beachcomber_played()
    session.submit("gift Ann to Bob T5")
    assert session.entries()[-1] == {"cmd": "gift", "player": "Ann", "to": "Bob", "cards": ["T5"]}
