"""`unox table --rules classic` with the simulated launcher: every draw fires exactly the cards due, counted
by the beam, over 1,000 draws with jams and an emptying hopper; a shortfall stays owed (DL1, DL2, C-R1),
and the journal and the beam agree in every case."""

from __future__ import annotations

import random

from unox.launcher import open_launcher
from unox.table.journal import Journal

from .kit import accept, physical_table, send

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
AFTER_FLIP = 108 - 7 * len(PLAYERS) - 1
DRAWS = 1000


def _play_or_draw(table, rng: random.Random) -> dict | None:
    """The turn player plays most of the time (now and then a Draw Two or Wild Draw Four, so 2 and 4 come
    due), else draws 1 through the launcher and passes. Returns the launcher's reply to a draw, if any."""
    state = table.state()
    player = state["turn"]
    if state["owed"] or state["drawn"] != player:
        short = state["launcher"]["cards"] + state["discard"] < 12  # most cards are in hands: play some
        if not state["owed"] and state["hands"][player] > 2 and (short or rng.random() < 0.7):
            letter = state["color"][0].upper()
            numbers = [f"{letter}{n}" for n in range(1, 10)]
            card = rng.choice(numbers if short else [f"{letter}+2", "W+4", *numbers[:6]])
            extra = {"color": rng.choice(["red", "yellow", "green", "blue"])} if card == "W+4" else {}
            accept(table, cmd="play", player=player, card=card, **extra)
            return None
        return send(table, cmd="draw", player=player)
    accept(table, cmd="pass", player=player)
    return None


def test_DL1_DL2_a_thousand_draws_fire_exactly_what_is_due_and_the_journal_agrees_with_the_beam(tmp_path):
    launcher = open_launcher(f"sim:?seed=5&cards={AFTER_FLIP}&jam=0.01&unjam=0.7&double=0&stuck=0")
    journal = Journal(tmp_path / "classic.db")
    table = physical_table("classic", launcher=launcher, journal=journal, first="G7")
    rng = random.Random(1)
    draws = shortfalls = faults = reloads = 0
    beam: list[tuple[str, int]] = []  # (player, the beam's count) of every draw that counted
    try:
        while draws < DRAWS:
            before = table.state()
            due_before = before["owed"][0]["draws"] if before["owed"] else 1
            reply = _play_or_draw(table, rng)
            if reply is None:
                continue
            info = reply["launcher"]
            assert info["requested"] == due_before  # exactly what is due, never a profile's guess
            assert 0 <= info["fired"] <= due_before
            if reply["ok"]:
                beam.append((before["turn"], info["fired"]))
            draws += 1
            if info["fault"]:
                faults += 1
            if info["fired"] < due_before:
                shortfalls += 1
                owed = table.state()["owed"]
                if reply["ok"]:  # DL2: the rest stays owed, first in line
                    assert owed[0]["draws"] == due_before - info["fired"]
            if info["fault"] == "empty" and table.state()["discard"] > 1:
                state = accept(table, cmd="reload")  # C-R1: the pile goes back into the launcher
                launcher.device.load_cards(state["launcher"]["cards"])
                reloads += 1
    finally:
        launcher.close()
    journalled = [(r["player"], r["fired"]) for _, r in journal.rows() if r["cmd"] == "draw"]
    assert journalled == beam  # draw by draw, the journal holds exactly what the beam counted
    assert faults > 10 and shortfalls > 10 and reloads >= 3


def test_DL4_the_launchers_button_deals_each_player_their_7_in_seat_order():
    launcher = open_launcher("sim:?seed=3&cards=108&jam=0&double=0&stuck=0")
    try:
        table = physical_table("classic", launcher=launcher)
        accept(table, cmd="deal", dealer="Ann", launcher=True)
        takers = []
        for _ in PLAYERS:
            taker = table.state()["turn"]
            reply = table.button()
            assert reply["ok"] and reply["launcher"] == {"requested": 7, "fired": 7, "fault": None}
            takers.append(taker)
        state = table.state()
        assert takers == ["Bob", "Cy", "Dee", "Ann"]
        assert state["hands"] == {p: 7 for p in PLAYERS} and state["launcher"]["cards"] == 108 - 28
        assert launcher.device.model.ejected == 28
        reply = table.button()  # DL3: then the button turns up the first card, and the table says which
        assert reply["launcher"] == {"requested": 1, "fired": 1, "fault": None}
        assert reply["state"]["first_fired"] and reply["state"]["phase"] == "flip"
        assert launcher.device.model.ejected == 29
        assert table.button()["error"]["code"] == "not_owed"  # nobody owes: nothing is fired
        assert launcher.device.model.ejected == 29
    finally:
        launcher.close()


def test_a_classic_table_resumes_from_its_journal_in_the_same_state(tmp_path):
    from unox.table.runtime import Table

    journal = Journal(tmp_path / "classic.db")
    table = physical_table("classic", journal=journal, first="G7", variant="partners")
    accept(table, cmd="play", player="Bob", card="W+4", color="red")
    accept(table, cmd="challenge", player="Cy", guilty=False)
    accept(table, cmd="draw", player="Cy", fired=4)
    before = table.state()
    table.close()
    resumed = Table.resume(tmp_path / "classic.db")
    assert resumed.state() == before and before["rules"] == "classic" and before["variant"] == "partners"
    assert before["owed"] == [{"player": "Cy", "draws": 2}]
    resumed.close()
