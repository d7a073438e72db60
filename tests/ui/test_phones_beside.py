"""`unox play --web`: a typed line is read against the table as the phones left it. The session takes in the
phones' changes (`watch_others`) before it parses the line, so `deal` alone deals for the next dealer after a
hand a phone scored, and a typed card is played by whoever's turn it is now (docs/web.md)."""

from __future__ import annotations

from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.session import Session

# Bob, Ann, Bob, ...: green on green until Bob has played his last card (seed 3, as tests/web/test_peers)
GREENS = ["G5", "G3", "G2", "G4", "G6", "G8", "G9", "G1", "G3", "G2", "G4", "G6", "G8", "G9", "G1"]


def beside_phones() -> Session:
    session = open_play_session(TableSettings(players=("Ann", "Bob"), seed=3, launcher="sim"), night=Session)
    session.watch_others()
    return session


def phone(session: Session, request: dict) -> dict:
    """A request from the phones: the web hub hands it to the table, not through the terminal's session."""
    reply = session.table.handle(request)
    assert reply["ok"], reply
    return reply["state"]


def test_deal_alone_deals_for_the_next_dealer_after_a_hand_the_phones_scored():
    session = beside_phones()
    try:
        phone(session, {"cmd": "deal", "dealer": "Ann"})
        state = phone(session, {"cmd": "flip", "card": "G7"})
        greens = list(GREENS)
        while state["phase"] == "turn":
            state = phone(session, {"cmd": "play", "player": state["turn"], "card": greens.pop(0)})
        assert state["phase"] == "hand_over"
        phone(session, {"cmd": "score", "points": {"Ann": 40, "Bob": 0}})
        session.submit("deal")  # typed at the terminal, nothing typed since the phones' hand began
        assert "Next hand: Bob deals." in session.log
        assert session.state["dealer"] == "Bob" and session.state["phase"] == "flip"
    finally:
        session.close()


def test_a_typed_card_is_played_by_whoever_the_phones_left_on_turn():
    session = beside_phones()
    try:
        phone(session, {"cmd": "deal", "dealer": "Ann"})
        phone(session, {"cmd": "flip", "card": "G7"})
        assert phone(session, {"cmd": "play", "player": "Bob", "card": "G5"})["turn"] == "Ann"
        session.submit("G3")  # Ann's card, as the screen says once it caught up
        last = session.entries()[-1]
        assert (last["cmd"], last["player"], last["card"]) == ("play", "Ann", "G3")
        assert session.state["turn"] == "Bob"
    finally:
        session.close()
