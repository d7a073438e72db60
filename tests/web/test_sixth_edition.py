"""A sixth edition, declared here and nowhere in the page, shows on the phones unchanged: its colours painted
and named, its own wild in the card picker, and its own pending choice answered through the form the page
builds from the request's declared fields (player, texts, flag), by its player or the operator only.

The edition is registered for this test alone (as a module under `unox.rules.editions` would be), and the
web server runs in-process over its table, as `unox play --web` runs it.
"""

from __future__ import annotations

import io
import sys
import types
from typing import Any

import pytest
from playwright.sync_api import expect
from unox.rules import editions
from unox.rules.cardset import CardSet, classic_cards, classic_deck, classic_help
from unox.rules.editions.classic import ClassicRules
from unox.rules.ruleset import RequestField
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.web.launch import WebOptions, start_in_thread

from tests.web.conftest import OPERATOR_PIN, PIN
from tests.web.test_browser import Table as Pages
from tests.web.test_browser import play
from tests.web.test_editions_browser import sent_from

COLORS = {"T": "turquoise", "P": "pink", "G": "green", "O": "orange"}
CALLS: list[dict[str, Any]] = []


class SixthRules(ClassicRules):
    """Classic, in four other colours, with a Wild Zap whose player then chooses what to give and to whom."""

    name, title = "sixth", "UNO Sixth"
    cardset = CardSet(COLORS, classic_cards(COLORS, {"WZ": "wild_zap"}), classic_help(COLORS, {"WZ": "zap"}))
    deck = tuple(classic_deck(COLORS, {"WZ": 4}))
    game_kinds = frozenset({"wild_zap"})
    requests = {"zap": {"player": RequestField("player", hint="who played the Wild Zap"),
                        "to": RequestField("player", False, "who gets the cards"),
                        "cards": RequestField("texts", hint="the cards given, e.g. T3, G5"),
                        "loud": RequestField("flag", False, "said out loud")}}

    def effect_table(self):
        return {**super().effect_table(), "wild_zap": self.play_number}

    def first_table(self):
        return {**super().first_table(), "wild_zap": self.first_returned}

    def after_play(self, game, player, card):
        game.pending = {"cmd": "zap", "player": player, "why": "Wild Zap: give cards away"}

    def call(self, game, cmd, fields):
        CALLS.append(dict(fields))
        game.pending = None


@pytest.fixture
def sixth(monkeypatch):
    module = types.ModuleType("unox.rules.editions.sixth")
    module.RULES = SixthRules()
    monkeypatch.setitem(sys.modules, module.__name__, module)
    known = editions._modules()
    monkeypatch.setattr(editions, "_modules", lambda: {**known, "sixth": "sixth"})
    editions.get_rules.cache_clear()
    CALLS.clear()
    table = Table.create(TableSettings(players=("Ann", "Bob", "Cy"), rules="sixth", launcher="script"))
    options = WebOptions(host="127.0.0.1", port=0, pin=PIN, operator_pin=OPERATOR_PIN)
    server = start_in_thread(table, options, out=io.StringIO())
    yield server.url.rstrip("/")
    server.stop()
    table.close()
    editions.get_rules.cache_clear()


def test_a_sixth_editions_cards_and_its_own_choice_work_on_the_page_unchanged(sixth, browser, artifacts):
    pages = Pages(browser, sixth)
    op, ann, bob, cy = (pages.open(seat) for seat in ("operator", "Ann", "Bob", "Cy"))
    op.get_by_role("button", name="Deal", exact=True).click()
    play(op, "green", "7")

    # Its colours, each painted (four different paints) and named; its own wild among the wilds.
    expect(bob.locator("#edition")).to_have_text("UNO Sixth")
    colours = bob.locator("#picker [aria-label=colour] button")
    expect(colours).to_have_text(["turquoise", "pink", "green", "orange", "Wild"])
    paints = colours.evaluate_all("bs => bs.slice(0, 4).map(b => getComputedStyle(b).backgroundColor)")
    default = bob.locator("#draw").evaluate("b => getComputedStyle(b).backgroundColor")
    assert len(set(paints)) == 4 and default not in paints
    bob.get_by_role("button", name="Wild", exact=True).click()
    expect(bob.locator("#picker .grid button")).to_have_text(["W", "W+4", "WZ"])
    bob.get_by_role("button", name="Wild Zap", exact=True).click()
    bob.get_by_role("button", name="name pink", exact=True).click()
    bob.locator("#go").click()

    # The choice is shown in words everywhere; only Bob's phone and the operator's page can answer it.
    expect(ann.locator("#turn")).to_have_text("Bob chooses: Wild Zap: give cards away")
    expect(ann.locator("#pending")).to_contain_text("Waiting for Bob")
    expect(ann.locator("#answer")).to_have_count(0)
    expect(op.locator("#answer")).to_be_visible()
    expect(op.locator("#color")).to_contain_text("pink (P)")
    status, reply = sent_from(ann, {"cmd": "zap", "player": "Bob", "cards": []})
    assert status == 403 and reply["error"]["code"] == "forbidden" and CALLS == []
    # In words: the other players as buttons (never Bob himself), the cards with the picker, by name.
    expect(bob.locator("#req-to button")).to_have_text(["Ann", "Cy", "Nobody"])
    bob.locator("#req-to").get_by_role("button", name="Cy", exact=True).click()
    for colour, face in (("turquoise", "3"), ("green", "5")):
        bob.locator("#req-cards").get_by_role("button", name=colour, exact=True).click()
        bob.locator("#req-cards").get_by_role("button", name=f"{colour} {face}", exact=True).click()
    expect(bob.locator("#req-cards .chosen button")).to_have_text(["Remove turquoise 3", "Remove green 5"])
    bob.locator("#req-loud input").check()
    text = bob.locator("#pending").inner_text()
    assert "zap" not in text.lower().replace("wild zap", "") and "{" not in text and '"' not in text
    bob.screenshot(path=artifacts / "sixth-choice.png")
    bob.locator("#answer").click()
    expect(ann.locator("#pending")).to_have_count(0)
    assert CALLS == [{"player": "Bob", "to": "Cy", "cards": ["T3", "G5"], "loud": True}]

    # No launcher here (`script`): Cy's phone says how many cards she took for her turn's draw, then passes.
    expect(cy.locator("#turn")).to_have_text("Your turn: play a card or draw")
    cy.get_by_label("cards that came out").fill("1")
    cy.get_by_role("button", name="Drew", exact=True).click()
    expect(cy.locator("#turn")).to_have_text("You drew: play that card or pass")
    cy.locator("#pass").click()
    expect(ann.locator("#turn")).to_have_text("Your turn: play a card or draw")
    expect(ann.locator("#seats tr", has_text="Cy").locator("td").nth(1)).to_have_text("8")
