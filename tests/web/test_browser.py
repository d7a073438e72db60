"""The page in a real Chromium: three players' phones, the operator's phone and a table view play a hand.

`unox serve` runs as a real process with the simulated launcher (virtual time, seeded), so each press the
phones make is fired by the simulated motor and counted by its beam. Rule IDs: T1 (an illegal card is
refused), A2 (Hit 2: the next player owes 2 presses), A4 (Discard All), U1 (UNO call), U2/P3 (a catch: 2
presses), G1 (scoring after the hand).
"""

from __future__ import annotations

import re
import signal
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.web.conftest import OPERATOR_PIN, PHONE, PIN

expect.set_options(timeout=15_000)


class Table:
    """The pages of one table, and every request any of them made (to prove none leaves the server)."""

    def __init__(self, browser, url: str):
        self.browser, self.url = browser, url
        self.requested: list[str] = []
        self.pages: dict[str, Page] = {}
        self.console: list[str] = []  # every console error and warning, the CSP's reports among them

    def open(self, seat: str, viewport: dict = PHONE, *, screenshot: Path | None = None) -> Page:
        context = self.browser.new_context(viewport=viewport, has_touch=True, is_mobile=viewport == PHONE)
        # Record the page's vibrations (headless Chromium has no motor to feel).
        context.add_init_script("window.buzzes = []; navigator.vibrate = (p) => buzzes.push(p) > 0;")
        page = context.new_page()
        page.on("request", lambda request: self.requested.append(request.url))
        page.on("websocket", lambda ws: self.requested.append(ws.url))
        page.on("console", lambda m: self.console.append(f"{seat}: {m.text}")
                if m.type in ("error", "warning") else None)
        page.goto(self.url + "/")
        if seat == "operator":  # the operator's own PIN opens the operator's seat directly
            page.get_by_label("PIN").fill(OPERATOR_PIN)
            page.get_by_role("button", name="Join", exact=True).click()
        else:
            page.get_by_label("PIN").fill(PIN)
            page.get_by_role("button", name="Join", exact=True).click()
            label = {"table": "The table view (tablet or TV)"}.get(seat, seat)
            button = page.get_by_role("button", name=label, exact=True)
            expect(button).to_be_visible()
            if screenshot is not None:
                page.screenshot(path=screenshot)
            button.click()
        expect(page.locator("#conn")).to_have_text("live")
        self.pages[seat] = page
        return page

    def turn_everywhere(self, text_by_seat: dict[str, str]) -> None:
        for seat, text in text_by_seat.items():
            expect(self.pages[seat].locator("#turn")).to_have_text(text)


def play(page: Page, color: str, face: str, *, count: int | None = None) -> None:
    """The card picker: the colour, then the face, then any extra, then the Play button."""
    page.get_by_role("button", name=color, exact=True).click()
    page.get_by_role("button", name=f"{color} {face}", exact=True).click()
    if count is not None:
        page.locator("#count").fill(str(count))
    page.locator("#go").click()


def accepted_click(page: Page, selector: str) -> dict:
    """Click the page's button `selector`; the table's reply to the request it sent, which it accepted."""
    with page.expect_response(re.compile(r"/api/requests$")) as response:
        page.locator(selector).click()
    reply = response.value.json()
    assert reply["ok"], reply
    return reply


def press(page: Page) -> dict:
    """Press on the phone; the host fires the simulated launcher. Returns the table's reply."""
    return accepted_click(page, "#press")


def hand_of(page: Page, player: str) -> int:
    row = page.locator("#seats tr", has_text=player).first
    return int(row.locator("td").nth(1).inner_text())


def test_a_whole_hand_on_four_phones_and_a_table_view(serve, browser, artifacts, tmp_path):
    journal = tmp_path / "game.db"
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "sim", "--profile", "arduino",
                   "--seed", "3", "--journal", str(journal))
    table = Table(browser, server.url)
    op = table.open("operator")
    ann = table.open("Ann", screenshot=artifacts / "join.png")
    bob, cy = (table.open(name) for name in ("Bob", "Cy"))
    tv = table.open("table", {"width": 1024, "height": 768})

    # The operator deals and turns up the first card (S2, S4); everyone sees it is Bob's turn.
    op.get_by_role("button", name="Deal", exact=True).click()
    table.turn_everywhere({"Ann": "Waiting for the first card to be turned up"})
    play(op, "green", "7")
    table.turn_everywhere({"Bob": "Your turn: play a card or press", "Ann": "It is Bob's turn",
                           "table": "It is Bob's turn", "operator": "It is Bob's turn"})
    expect(bob.locator("#live")).to_have_text("Your turn: play a card or press, Bob")  # aria-live
    assert bob.evaluate("buzzes.length") == 1 and ann.evaluate("buzzes.length") == 0
    expect(tv.locator(".top .card").first).to_have_attribute("aria-label", "green 7")
    expect(op.locator("#log li").first).to_have_text("First card turned up: green 7.")  # by name (finding 10)

    # T1: an illegal card is refused, in the table's words, and nothing changes.
    play(bob, "red", "5")
    expect(bob.locator("#msg")).to_contain_text("red 5 cannot go on green 7")  # by name (issue 25)
    bob.screenshot(path=artifacts / "player.png")

    # A2: Bob's Hit 2; Cy owes 2 presses, each fired by the simulated launcher and counted by its beam.
    play(bob, "green", "Hit 2")
    expect(cy.locator("#turn")).to_have_text("You owe 2 presses")
    expect(tv.locator("#turn")).to_have_text("Cy owes 2 presses")
    expect(cy.locator("#live")).to_have_text("You owe 2 presses, Cy")
    assert cy.evaluate("buzzes.length") == 1
    first = press(cy)
    expect(cy.locator("#turn")).to_have_text("You owe 1 press")
    second = press(cy)
    fired = [r["launcher"]["fired"] for r in (first, second)]
    assert [r["launcher"]["fault"] for r in (first, second)] == [None, None]
    assert fired == [r["launcher"]["requested"] for r in (first, second)] and sum(fired) > 0
    expect(tv.locator("#seats tr", has_text="Cy").locator("td").nth(1)).to_have_text(str(7 + sum(fired)))
    expect(ann.locator("#turn")).to_have_text("Your turn: play a card or press")

    # A4 and U2/P3: Ann discards all but one card and forgets UNO; Cy catches her; she owes 2 presses.
    play(ann, "green", "Discard All", count=5)
    catch = cy.get_by_role("button", name="Catch Ann")
    expect(catch).to_be_visible()
    expect(bob.get_by_role("button", name="Catch Ann")).to_be_visible()
    catch.click()
    expect(ann.locator("#turn")).to_have_text("You owe 2 presses")
    press(ann)
    press(ann)

    # U1: Bob discards all but one and calls UNO from his phone; nobody can catch him then.
    expect(bob.locator("#turn")).to_have_text("Your turn: play a card or press")
    bob.get_by_role("button", name="yellow", exact=True).click()
    bob.get_by_role("button", name="yellow Discard All", exact=True).click()
    bob.locator("#count").fill("4")
    bob.locator("#go").click()
    expect(bob.locator("#uno")).to_be_visible()
    bob.locator("#uno").click()
    expect(tv.locator("#log li").first).to_have_text("Bob calls UNO.")
    expect(cy.get_by_role("button", name="Catch Bob")).to_have_count(0)

    # A reload brings a phone back to the same table; so does a restart of the server (the journal).
    before = {seat: page.locator("#turn").inner_text() for seat, page in table.pages.items()}
    cards_before = {name: hand_of(tv, name) for name in ("Ann", "Bob", "Cy")}
    ann.reload()
    expect(ann.locator("#turn")).to_have_text(before["Ann"])
    port = int(server.url.rsplit(":", 1)[1])
    server.stop(signal.SIGKILL)
    expect(ann.locator("#conn")).to_have_text("reconnecting…")
    serve("--resume", str(journal), port=port)
    for seat, page in table.pages.items():
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("#turn")).to_have_text(before[seat])
    assert {name: hand_of(tv, name) for name in ("Ann", "Bob", "Cy")} == cards_before
    # Finding 10: the log comes back from the journal, cards by name as the picker says them, no file path.
    expect(tv.locator("#log li").first).to_have_text("Bob calls UNO.")
    expect(tv.locator("#log li")).to_have_count(12)  # the table view's whole log, not "Resumed from ..."
    assert str(journal.parent) not in tv.locator("#log").inner_text() and "Journal" not in ann.content()

    # Cy plays, Ann presses, Bob plays his last card: the hand is over and the operator scores it (G1).
    play(cy, "yellow", "5")
    expect(ann.locator("#turn")).to_have_text("Your turn: play a card or press")
    press(ann)
    play(bob, "yellow", "8")
    over = " went out: the hand is over, the operator enters the scores"
    table.turn_everywhere({seat: ("You" if seat == "Bob" else "Bob") + over  # issue 25: "You" on his own
                           for seat in table.pages})
    tv.set_viewport_size(PHONE)
    tv.screenshot(path=artifacts / "table.png")
    op.locator("#pts-Ann").fill("30")
    op.locator("#pts-Cy").fill("44")
    op.screenshot(path=artifacts / "operator.png")
    op.get_by_role("button", name="Enter the scores").click()
    expect(tv.locator("#seats tr", has_text="Bob").locator("td").nth(2)).to_have_text("74")  # TV: score 3rd
    table.turn_everywhere({"Ann": "Waiting for the deal"})
    # Finding 8: the phones no longer show the last hand's counts and top card once it is scored.
    expect(ann.locator("#seats tr", has_text="Bob").locator("td").nth(1)).to_have_text("–")
    expect(ann.locator(".top .note").first).to_have_text("no card yet")
    for page in table.pages.values():  # finding 7
        assert "null" not in page.locator("#app").inner_text()
    op.get_by_role("button", name="Undo the last event").click()  # the operator takes the scores back
    expect(tv.locator("#seats tr", has_text="Bob").locator("td").nth(2)).to_have_text("0")
    expect(op.locator("#pts-Ann")).to_be_visible()

    # Nothing any page loaded or connected to came from anywhere but the server.
    origin = server.url.split("://", 1)[1]
    outside = [url for url in table.requested if url.split("://", 1)[1].split("/", 1)[0] != origin]
    assert table.requested and outside == []
    assert any(url.startswith("ws://") for url in table.requested)
    # The CSP held on every page (finding 7): the browser reported no violation on any of them.
    assert table.console and [m for m in table.console if "Content Security Policy" in m] == []


def test_without_a_launcher_the_phone_says_what_came_out_and_the_table_view_only_watches(serve, browser):
    """`--launcher script`: a press says how many cards came out. The table view's token is read-only."""
    server = serve("--players", "Ann,Bob", "--launcher", "script")
    table = Table(browser, server.url)
    op, bob = table.open("operator"), table.open("Bob")
    op.get_by_role("button", name="Deal", exact=True).click()
    play(op, "blue", "4")
    expect(bob.locator("#turn")).to_have_text("Your turn: play a card or press")
    bob.get_by_label("cards that came out").fill("3")
    bob.locator("#press").click()
    expect(bob.locator("#seats tr", has_text="Bob").locator("td").nth(1)).to_have_text("10")
    expect(bob.locator("#turn")).to_have_text("It is Ann's turn")
    tv = table.open("table")
    expect(tv.locator("#launcher")).to_contain_text("none attached")
    status, reply = tv.evaluate("""async () => {
        const res = await fetch('/api/requests', {method: 'POST', body: JSON.stringify({cmd: 'reload'})});
        return [res.status, await res.json()];
    }""")
    assert status == 403 and reply["error"]["code"] == "forbidden"
    assert "table view only shows" in reply["error"]["message"]
