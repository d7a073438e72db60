"""The bounds know the edition (issue 7, item 8, for every edition): the deck's size comes from the ruleset
(108 cards in classic), a draw gives no more than is due nor than the cards outside the hands and the pile,
every number and list of an edition's own requests is bounded, and a journal's rows are checked again with
the same bounds on resume; the journal keeps the edition and resumes as it."""

from __future__ import annotations

import subprocess
import sys

import pytest
from unox.rules.editions.classic import ClassicRules
from unox.rules.game import Game
from unox.rules.ruleset import RequestField
from unox.table.journal import Journal, JournalError
from unox.table.runtime import Table
from unox.table.settings import SettingsError, TableSettings

from .kit import PLAYERS, accept, physical_table, refuse

CLASSIC_DECK = 108


@pytest.fixture
def table():
    return physical_table("classic", first="G7")  # Bob's turn


@pytest.mark.parametrize("fired", [CLASSIC_DECK + 1, 10**6, 10**4000])
def test_a_classic_draw_of_more_than_its_108_card_deck_is_bad_fired(table, fired):
    error = refuse(table, "bad_fired", cmd="draw", player="Bob", fired=fired)
    assert "0 to 108" in error["message"]


def test_a_draw_of_more_than_is_due_is_bad_fired_before_the_rules(table):
    accept(table, cmd="play", player="Bob", card="G+2")
    error = refuse(table, "bad_fired", cmd="draw", player="Cy", fired=3)
    assert "due 2" in error["message"]
    assert accept(table, cmd="draw", player="Cy", fired=2)["hands"]["Cy"] == 9


def test_DL4_a_launcher_deals_draw_is_bounded_by_the_7_due():
    table = physical_table("classic")
    accept(table, cmd="deal", dealer="Ann", launcher=True)
    refuse(table, "bad_fired", cmd="draw", player="Bob", fired=8)
    assert accept(table, cmd="draw", player="Bob", fired=7)["hands"]["Bob"] == 7


def test_the_cards_outside_the_hands_and_pile_are_counted_from_the_classic_deck():
    """Two players: 108 - 2 x 7 - 1 = 93 cards are left for the launcher (with Extreme's 112 it would be 97).
    Once 93 were drawn, a draw that says one more came out is refused."""
    table = physical_table("classic", players=("Ann", "Bob"), first="G7")
    for _ in range(CLASSIC_DECK - 2 * 7 - 1):
        player = table.state()["turn"]
        accept(table, cmd="draw", player=player, fired=1)
        accept(table, cmd="pass", player=player)
    assert table.state()["launcher"]["cards"] == 0
    error = refuse(table, "bad_fired", cmd="draw", player=table.state()["turn"], fired=1)
    assert "only 0 cards are outside" in error["message"]


@pytest.mark.parametrize("points", [CLASSIC_DECK * 50 + 1, 10**9])
def test_classic_points_past_its_whole_deck_are_bad_points(points):
    table = physical_table("classic", players=("Ann", "Bob"), first="G7")
    for _ in range(6):
        accept(table, cmd="play", player="Bob", card="G1")
        accept(table, cmd="play", player="Ann", card="G2")
    accept(table, cmd="play", player="Bob", card="G4")
    assert table.state()["phase"] == "hand_over"
    error = refuse(table, "bad_points", cmd="score", points={"Ann": points, "Bob": 0})
    assert "108 cards" in error["message"]


class ShareRules(ClassicRules):
    """Classic plus a request with every kind of number and list an edition may declare."""

    name = "share"
    requests = {
        "share": {
            "player": RequestField("player", hint='"player":"Ann"'),
            "n": RequestField("count", hint='"n":2'),
            "cards": RequestField("texts", False, hint='"cards":["R5"]'),
            "to": RequestField("players", False, hint='"to":["Bob"]'),
        }
    }

    def call(self, game, cmd, fields):
        game.shared = fields


def share_table() -> Table:
    game = Game(list(PLAYERS), ruleset=ShareRules())
    game.deal("Ann")
    game.flip("G7")
    return Table(game)


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"n": CLASSIC_DECK + 1}, "bad_count"),
        ({"n": -1}, "bad_count"),
        ({"n": 10**4000}, "bad_count"),
        ({"n": 1, "cards": ["R5"] * (CLASSIC_DECK + 1)}, "bad_request"),
        ({"n": 1, "cards": ["R" * 41]}, "bad_request"),
        ({"n": 1, "cards": "R5"}, "bad_request"),
        ({"n": 1, "to": ["Zed"]}, "unknown_player"),
        ({"n": 1, "to": ["Bob"] * 200}, "bad_request"),
    ],
)
def test_an_editions_own_numbers_and_lists_are_bounded_by_its_deck(fields, code):
    table = share_table()
    refuse(table, code, cmd="share", player="Bob", **fields)
    accept(table, cmd="share", player="Bob", n=CLASSIC_DECK, cards=["R5", "G7"], to=["Cy"])
    assert table.game.shared == {"player": "Bob", "n": CLASSIC_DECK, "cards": ["R5", "G7"], "to": ["Cy"]}


def tampered_classic_journal(path, row: dict) -> None:
    table = physical_table("classic", journal=Journal(path), first="G7")
    table.journal.append(row)  # written behind the table's back, as an editor would
    table.close()


@pytest.mark.parametrize(
    "row, why",
    [
        ({"cmd": "draw", "player": "Bob", "fired": 2}, "due 1"),  # more than was due
        ({"cmd": "draw", "player": "Bob", "fired": CLASSIC_DECK + 1}, "0 to 108"),
        ({"cmd": "challenge", "player": "Bob", "guilty": "yes"}, "true or false"),
    ],
)
def test_replay_checks_a_classic_journals_rows_with_the_same_bounds(tmp_path, row, why):
    path = tmp_path / "c.db"
    tampered_classic_journal(path, row)
    with pytest.raises(JournalError, match=f"is damaged: row .*{why}"):
        Table.resume(path)


def test_unox_journal_check_replays_a_classic_journal_as_classic(tmp_path):
    path = tmp_path / "c.db"
    table = physical_table("classic", journal=Journal(path), first="G7", variant="partners")
    accept(table, cmd="play", player="Bob", card="W+4", color="red")
    accept(table, cmd="challenge", player="Cy", guilty=False)
    accept(table, cmd="draw", player="Cy", fired=4)
    table.close()
    done = subprocess.run(
        [sys.executable, "-m", "unox.cli.main", "journal", "check", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "5 requests replay" in done.stdout and "every row replays" in done.stdout
    with Journal(path) as journal:
        assert journal.settings["rules"] == "classic" and journal.settings["variant"] == "partners"


@pytest.mark.parametrize(
    "settings, why",
    [
        ({"rules": "nope"}, "rules 'nope' are unknown"),
        ({"rules": ["classic"]}, "are unknown"),
        ({"rules": "classic", "variant": 7}, "must be text"),
        ({"rules": "extreme", "variant": "partners"}, "has no variant"),
    ],
)
def test_a_journals_unusable_edition_settings_are_refused_with_the_file_untouched(tmp_path, settings, why):
    path = tmp_path / "c.db"
    physical_table("classic", journal=Journal(path)).close()
    with Journal(path) as journal:
        journal.settings = {**journal.settings, **settings}
    before = path.read_bytes()
    with pytest.raises(JournalError, match=why):
        Table.resume(path)
    assert path.read_bytes() == before
    with pytest.raises(SettingsError):
        TableSettings.from_dict({"players": ["Ann", "Bob"], **settings})
