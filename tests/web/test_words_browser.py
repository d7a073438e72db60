"""Issue 25, item 10: every refusal a page can get, in the page's words, in a real Chromium at 390x844.

The error codes are read from the docs themselves (docs/table-protocol.md's *Error codes* and docs/web.md's
tables of `error.code`) and from the rules engine's registry, so a code documented later is walked too.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect
from unox.rules.errors import ERROR_CODES

from tests.web.test_browser import Table, play

expect.set_options(timeout=15_000)

DOCS = Path(__file__).resolve().parents[2] / "docs"
# What a refusal must never show a person: JSON, a request's field, a code, a rule ID.
PROTOCOL = re.compile(r'[{}"`]|\b[a-z]+_[a-z_]+\b|\bcmd\b|\((?:[A-Z]{1,3}-)?[A-Z]{1,2}\d')
# A server message at its worst: what the issue saw on the page.
NASTY = ('e.g. "to":"Ann" {"card":"G5","item":"banana"} (BA-A1) R5 cannot go on G7 (U2); '
         'send {"cmd":"settle","fired":N} bad_request')


def documented_codes() -> set[str]:
    """Every `error.code` the docs list: the protocol's table of codes, and the web API's tables."""
    protocol = (DOCS / "table-protocol.md").read_text()
    section = protocol.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    codes = {code for row in section.splitlines() if row.startswith("| `")
             for code in re.findall(r"`([a-z_]+)`", row.split("|")[1])}
    web = (DOCS / "web.md").read_text()
    for row in web.splitlines():
        cells = row.split("|")
        if len(cells) > 3 and re.fullmatch(r"\s*\d{3}\s*", cells[1]):
            codes |= set(re.findall(r"`([a-z_]+)`", cells[2]))
    return codes


def test_the_docs_list_the_codes_the_walk_needs():
    codes = documented_codes()
    assert {"bad_json", "unsettled", "journal_error", "illegal_card", "bad_pin", "seat_taken",
            "forbidden", "not_undoable", "locked_out"} <= codes
    assert len(codes) >= 40


def test_every_documented_refusal_reads_as_words_on_the_page(serve, browser, artifacts):
    """A refusal once read as protocol: `e.g. "to":"Ann"`, `"card":"G5","item":"banana"`, `(BA-A1)`,
    "R5 cannot go on G7". Each documented code, with the worst message a server could send, is shown on
    Ann's phone in the page's own words."""
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--no-journal")
    table = Table(browser, server.url)
    op, ann = table.open("operator"), table.open("Ann")
    op.get_by_role("button", name="Deal", exact=True).click()
    play(op, "green", "7")
    expect(ann.locator("#turn")).to_have_text("It is Bob's turn")
    codes = sorted(documented_codes() | set(ERROR_CODES))
    shown = {}
    for code in codes:
        text = ann.evaluate(
            """([code, nasty]) => {
                 message = refusedWords({ok: false, error: {code, message: nasty}},
                                        {cmd: "play", player: "Ann", card: "R5", to: "Bob"});
                 render();
                 return document.getElementById("msg").textContent;
               }""", [code, NASTY])
        assert text.strip(), code
        assert not PROTOCOL.search(text), (code, text)
        assert "banana" not in text and "G5" not in text and "R5" not in text, (code, text)
        shown[code] = text
    assert len(set(shown.values())) >= len(codes) * 3 // 4  # words of their own, not one blanket line
    ann.screenshot(path=artifacts / "refusal.png")


def test_a_real_refusal_names_the_cards_as_the_picker_does(serve, browser):
    """The illegal card the table refuses is said with the cards' names, and the log keeps no rule IDs."""
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--no-journal")
    table = Table(browser, server.url)
    op, bob = table.open("operator"), table.open("Bob")
    op.get_by_role("button", name="Deal", exact=True).click()
    play(op, "green", "7")
    play(bob, "red", "5")
    expect(bob.locator("#msg")).to_have_text(
        "red 5 cannot go on green 7 with green in force: play a matching colour or face, or a wild.")
    op.locator("#acting").select_option("Bob")
    op.get_by_role("button", name="Advice: Bob presses 4", exact=True).click()
    expect(op.locator("#log")).to_contain_text("Penalty for Bob (advice).")  # was "(P1: advice)"
    for page in (op, bob):
        log = page.locator("#log").inner_text()
        assert not re.search(r"\((?:[A-Z]{1,3}-)?[A-Z]{1,2}\d", log), log
