"""Issue 25, item 11: the smaller wording and sizing defects, in a real Chromium (phones 390x844, a TV at
1920x1080), and the launcher deal's log line through the API. Rule IDs: DL4 (the launcher deals the hands),
BA-A1 (Barbie's Beachcomber: its player gives cards away).
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import OPERATOR_PIN, seat
from tests.web.test_browser import Table
from tests.web.test_choices_browser import start

expect.set_options(timeout=15_000)
TV = {"width": 1920, "height": 1080}


def font_px(page: Page, selector: str) -> float:
    return page.evaluate("s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector)


def test_before_the_deal_no_launcher_count_the_tv_reads_from_afar_and_no_operator_pin_is_kept(serve, browser):
    """"Launcher holds about 0 cards" before the deal; "no card yet" in small print on the TV; the operator
    PIN left in the operator's `localStorage`."""
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--no-journal")
    table = Table(browser, server.url)
    op, ann = table.open("operator"), table.open("Ann")
    tv = table.open("table", TV)
    expect(ann.locator("#turn")).to_contain_text("Waiting for the deal")
    for page in (op, ann):
        expect(page.locator(".top")).to_be_visible()
        expect(page.locator("#launcher-cards")).to_have_count(0)
        assert "Launcher holds" not in page.locator("#app").inner_text()
    expect(tv.locator(".bigcard .note")).to_have_text("no card yet")
    assert font_px(tv, ".bigcard .note") >= 0.04 * TV["height"]
    assert op.evaluate("localStorage.getItem('unox.pin')") is None  # the tab keeps it (a restart), no more
    assert op.evaluate("sessionStorage.getItem('unox.operator_pin')") == OPERATOR_PIN
    assert op.evaluate("localStorage.getItem('unox.seat')") == "operator"
    assert ann.evaluate("localStorage.getItem('unox.pin')") is not None  # a player's phone rejoins by itself


def test_an_editions_choice_says_what_to_do_and_the_tv_shows_it_large(serve, browser, artifacts):
    """Barbie's choice gave no hint of what to do, and the TV's waiting box was small print."""
    table, op, ann, bob, cy = start(serve, browser, "barbie")
    tv = table.open("table", TV)
    bob.get_by_role("button", name="Wild", exact=True).click()
    bob.get_by_role("button", name="Beachcomber", exact=True).click()
    bob.get_by_role("button", name="name pink", exact=True).click()
    bob.locator("#go").click()
    expect(bob.locator("#pending-hint")).to_have_text(
        "Pick who gets them, then the cards, then press Done.")
    expect(ann.locator("#pending-hint")).to_have_count(0)  # only the one who chooses is told how
    expect(tv.locator("#pending")).to_be_visible()
    assert font_px(tv, "#pending") >= 0.03 * TV["height"]
    bob.screenshot(path=artifacts / "gift-hint.png")


def test_a_launcher_deal_says_each_player_draws_from_the_launcher(serve):
    """DL4: "Ann deals 7 cards to each player" while every hand was 0 and each player owed 7 draws."""
    served = serve("--players", "Ann,Bob", "--rules", "classic", "--launcher", "sim", "--seed", "3",
                   "--no-journal")
    operator = seat(served, "operator")
    watcher = operator.socket()
    watcher.receive_until("history")
    status, reply = operator.request({"cmd": "deal", "dealer": "Ann", "launcher": True})
    assert status == 200 and reply["ok"]
    assert set(reply["state"]["hands"].values()) == {0}
    line = watcher.receive_until("log")["text"]
    assert line == "Ann deals from the launcher: each player draws 7 from it in turn."
    watcher.close()
