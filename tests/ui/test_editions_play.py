"""Issue 10 on the play screen: `unox play --rules EDITION` reads the table's edition. Its cards are typed,
spelled out and painted in its own colours; a draw edition's `draw`, `pass` and `challenge` (C-T2, C-A7)
and the edition's own requests (typed generically from `Ruleset.requests`) are typed; Extreme is unchanged.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys

import pytest
from unox.rules.cardset import CardSet, classic_cards, classic_deck, classic_help
from unox.rules.editions import get_rules, rule_names
from unox.rules.editions.classic import ClassicRules
from unox.rules.game import Game
from unox.rules.ruleset import RequestField
from unox.table.opening import open_play_session
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.commands import InputError, card_meaning, commands_help, parse_line, suggest
from unox.ui.paint import explained, painted
from unox.ui.prompt import Context, prompt_for
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")
CLASSIC = get_rules("classic")
BARBIE_COLORS = {"T": "turquoise", "P": "pink", "G": "green", "O": "orange"}


class ToyBarbie(ClassicRules):
    """Barbie's colours and a gift request, built as an edition module would be (never registered)."""

    name = "toy-barbie"
    title = "Toy Barbie UNO"
    cardset = CardSet(BARBIE_COLORS, classic_cards(BARBIE_COLORS), classic_help(BARBIE_COLORS))
    deck = tuple(classic_deck(BARBIE_COLORS))
    game_kinds = frozenset({"skip"})
    requests = {"gift": {"player": RequestField("player"), "to": RequestField("player", False),
                         "cards": RequestField("texts")}}

    def after_play(self, game, player, card):
        game.pending = {"cmd": "gift", "player": player, "why": "a Skip gives cards away"}

    def call(self, game, cmd, fields):
        game.pending = None


TOY = ToyBarbie()


def ejected(session) -> int:
    """Cards that really left the simulated launcher (the simulator's ground truth, not the beam)."""
    return session.launcher.port.device.model.ejected


def test_a_few_classic_turns_at_80x24_where_every_draw_fires_exactly_what_is_due(typer, screen):
    session = open_play_session(TableSettings(players=PLAYERS, seed=4, launcher="sim", rules="classic"),
        night=Session)
    fired = []

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            for line in ("draw Ann R5", "draw Bob G9", "draw Cy B1", "deal"):
                await typer(pilot, line)
                assert not app.refused, (line, app.message)
            assert "the launcher turns up the first card: type flip" in app.prompt_text()
            before = ejected(session)
            await typer(pilot, "flip")  # DL3: the launcher fires the first card
            assert ejected(session) - before == 1 and session.state["first_fired"]
            assert "type the card the launcher turned up" in app.prompt_text()
            await typer(pilot, "flip R+2")
            assert not app.refused, app.message
            assert app.title == "unox: UNO table"
            assert session.state["owed"] == [{"player": "Cy", "draws": 2}]  # C-A1 on the first card
            assert "NEXT: Cy: draw 2 cards: type draw Cy" in app.prompt_text()
            before = ejected(session)
            await typer(pilot, "draw Cy")
            fired.append(ejected(session) - before)
            assert "Top card:  R+2  red Draw Two" in "\n".join(screen(app))
            await typer(pilot, "Ann R5")
            before = ejected(session)
            await typer(pilot, "draw Bob")  # the turn's draw: one card (C-T2)
            fired.append(ejected(session) - before)
            assert app.prompt_text() == "NEXT: Bob: play the card just drawn (type it) or keep it: pass Bob"
            await typer(pilot, "pass Bob")
            await typer(pilot, "Cy W+4 blue")
            assert "challenge Ann guilty" in app.prompt_text()
            await typer(pilot, "challenge Ann innocent")  # C-A7: a wrong challenge, 6 cards
            before = ejected(session)
            await typer(pilot, "draw Ann")
            fired.append(ejected(session) - before)
            await typer(pilot, "draw Cy")  # nothing is due from Cy (Bob's turn): refused, nothing fired
            assert app.refused
            return "\n".join(screen(app)), app.prompt_text()

    text, prompt = asyncio.run(scenario())
    assert fired == [2, 1, 6]
    assert session.state["hands"] == {"Ann": 7 - 1 + 6, "Bob": 8, "Cy": 9 - 1}
    assert [e["cmd"] for e in session.entries()][-6:] == ["play", "draw", "pass", "play", "challenge", "draw"]
    assert session.entries()[-1] == {"cmd": "draw", "player": "Ann", "fired": 6}
    assert "Top card:  W+4  blue, Wild Draw Four" in text  # the colour first: a narrow panel cuts the end
    assert prompt.startswith("NEXT: Bob: play a card on W+4 (Wild Draw Four, colour blue)")
    session.close()


def test_classic_plain_play_as_a_subprocess(tmp_path):
    lines = ["draw Ann R5", "draw Bob G9", "draw Cy B1", "deal", "flip", "flip R+2", "draw Cy", "Ann R5",
             "Bob RS", "Bob R7", "help", "quit", "yes"]
    proc = subprocess.run(
        [sys.executable, "-m", "unox", "play", "--plain", "--rules", "classic",
         "--players", ",".join(PLAYERS), "--seed", "4", "--journal", str(tmp_path / "t.db")],
        input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Cy draws 2 cards (Cy holds 9)." in out
    assert "next: Bob: play a card on R5 (red 5) by typing it, e.g. R0, or draw one: draw Bob" in out
    assert "Bob plays RS." in out and "Skip" in out
    assert "not taken: `Bob R7`" not in out and "not taken:" in out  # Ann's turn after a Skip (C-A3)
    assert "draw Bob (the launcher deals what is due" in " ".join(out.split())  # the edition's help, wrapped
    assert "{" not in out


def test_barbie_cards_are_spelled_out_and_painted_in_their_own_colours():
    assert card_meaning("TS", TOY) == "turquoise Skip"
    assert card_meaning("P+2", TOY) == "pink Draw Two"
    assert card_meaning("O7", TOY) == "orange 7"
    assert explained("Bob plays TS on P+2.", TOY) == "Bob plays TS (turquoise Skip) on P+2 (pink Draw Two)."
    text = painted("Bob plays TS, then P7, G2, O5 and W+4.", TOY)
    styles = {text.plain[span.start:span.end]: str(span.style) for span in text.spans}
    assert styles == {"TS": "bold dark_turquoise", "P7": "bold hot_pink", "G2": "bold green",
                      "O5": "bold dark_orange", "W+4": "bold black on bright_white"}


def test_extreme_painting_and_spelling_are_unchanged():
    text = painted("Bob plays RD then WF (R1/R2)")
    assert [(text.plain[s.start:s.end], str(s.style)) for s in text.spans] == [
        ("RD", "bold red"), ("WF", "bold black on bright_white")]
    assert card_meaning("GT") == "green Trade Hands"
    assert parse_line("Bob RT Cy", PLAYERS).request == {"cmd": "play", "player": "Bob", "card": "RT",
                                                       "target": "Cy"}
    with pytest.raises(InputError):
        parse_line("draw Bob", PLAYERS)  # Extreme has no turn's draw: `draw` is S1's only


def test_an_editions_own_request_is_typed_positionally_by_field_name_or_key_value():
    want = {"cmd": "gift", "player": "Bob", "to": "Cy", "cards": ["T5", "P7"]}
    assert parse_line("gift Bob to Cy t5 P7", PLAYERS, "Ann", rules=TOY).request == want
    assert parse_line("gift player=Bob to=Cy cards=T5,P7", PLAYERS, "Ann", rules=TOY).request == want
    assert parse_line("gift T5", PLAYERS, "Bob", rules=TOY).request == {"cmd": "gift", "player": "Bob",
                                                                       "cards": ["T5"]}
    with pytest.raises(InputError, match=r"gift player=NAME \[to=NAME\] cards=X,Y"):
        parse_line("gift Bob to", PLAYERS, "Ann", rules=TOY)
    with pytest.raises(InputError, match="nobody called 'Zed'"):
        parse_line("gift Bob to Zed T5", PLAYERS, "Ann", rules=TOY)
    assert "gift player=NAME [to=NAME] cards=X,Y" in commands_help(TOY)
    assert suggest("gi", PLAYERS, TOY) == "gift"


def test_a_toy_editions_table_shows_its_cards_and_takes_its_request_through_the_session():
    game = Game(list(PLAYERS), ruleset=TOY)
    game.deal("Ann")
    game.flip("G7")
    session = Session(Table(game))
    assert session.prompt().line().startswith("Bob: play a card on G7 (green 7)")
    session.submit("GS")  # the toy's Skip asks Bob for a gift (its `pending`)
    assert session.prompt().line() == ("Bob: your choice (a Skip gives cards away): type gift player=NAME "
                                      "[to=NAME] cards=X,Y")
    session.submit("gift to Cy O5")
    assert session.entries()[-1] == {"cmd": "gift", "player": "Bob", "to": "Cy", "cards": ["O5"]}
    assert session.state["pending"] is None
    with pytest.raises(InputError, match=r"W \(Wild\) takes a colour \(turquoise, pink, green, orange\)"):
        session.submit("W purple")
    assert parse_line("W pink", PLAYERS, "Ann", rules=TOY).request["color"] == "P"


def test_the_prompt_for_a_classic_turn_names_the_turns_draw():
    state = {"phase": "turn", "turn": "Bob", "top": "W", "color": "green", "owed": [], "rules": "classic"}
    prompt = prompt_for(state, Context(rules=CLASSIC))
    assert prompt.line() == (
        "Bob: play a card on W (Wild, colour green) by typing it, e.g. R0, or draw one: draw Bob"
    )


def test_every_edition_command_in_the_docs_parses():
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "play.md").read_text()
    section = doc.split("## Other editions")[1].split("\n## ")[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    typed = [snippet for row in rows for snippet in re.findall(r"`([^`]+)`", row)]
    assert len(typed) >= 6
    for line in typed:
        parse_line(line, PLAYERS, turn="Ann", rules=TOY if line.startswith("gift") else CLASSIC)


@pytest.mark.parametrize("name", rule_names())
def test_the_flip_prompts_examples_are_this_editions_cards_and_colours_and_are_taken(name):
    """S4, C-S4: the first card's prompt shows a card and a wild with a colour this edition has (Barbie's
    colours are turquoise, pink, green and orange: `flip W red` would be refused there)."""
    settings = TableSettings(players=PLAYERS, seed=4, launcher="script", rules=name)
    session = open_play_session(settings, night=Session)
    session.submit(f"deal {PLAYERS[0]}")
    if "type flip" in session.prompt().line():  # DL3: a draw edition's launcher fires the first card first
        session.submit("flip")
    text = session.prompt().line()
    found = re.search(r"(?:type it|turned up): (flip \S+) \((flip \S+ \S+) for a wild\)", text)
    assert found, text
    rules = get_rules(name)
    for example in found.groups():
        parse_line(example, PLAYERS, rules=rules)  # no InputError
    reply = session.submit(found.group(2))  # refused: InputError
    assert reply["ok"], session.log[-3:]
