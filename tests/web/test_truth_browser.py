"""Issue 25, items 5-7 in a real Chromium at 390x844: a phone always shows the truth, and says why it left.

`--launcher script` (the phones say what came out); the table's seats are Ann, Bob and Cy.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import PHONE, PIN
from tests.web.test_browser import Table, play

expect.set_options(timeout=15_000)

NEW_PIN = "975310"


def join_page(page: Page, pin: str) -> None:
    page.get_by_label("PIN").fill(pin)
    page.get_by_role("button", name="Join", exact=True).click()


def pages_of_one_phone_then_stopped(serve, browser, count: int) -> tuple[list[Page], int]:
    """Ann's seat open on `count` pages of one phone (one browser context: the cookie and the stored PIN and
    seat are shared), each live; then the server stops, for the test to start again on the same port.
    Returns the pages (the one that joined first) and the port."""
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--no-journal")
    port = int(server.url.rsplit(":", 1)[1])
    ann = Table(browser, server.url).open("Ann")
    pages = [ann] + [ann.context.new_page() for _ in range(count - 1)]
    for page in pages[1:]:
        page.goto(server.url + "/play")
        expect(page.locator("#conn")).to_have_text("live")
    server.stop()
    return pages, port


def test_a_phones_pages_after_a_restart_with_a_new_pin_say_so_and_it_opens(serve, browser, artifacts):
    """Items 5 and 7: five pages of one phone each rejoined with the old PIN they stored: five wrong PINs,
    "locked" even for the right one, and a bare join page. Now the first refusal drops the stored PIN, every
    page says the PIN changed, and the new PIN opens at once."""
    pages, port = pages_of_one_phone_then_stopped(serve, browser, 5)
    ann = pages[0]
    serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--no-journal", port=port, pin=NEW_PIN)
    for page in pages:
        expect(page.locator("#msg")).to_contain_text("The PIN has changed", timeout=20_000)
        expect(page.get_by_label("PIN")).to_be_visible()
    assert ann.evaluate("localStorage.getItem('unox.pin')") is None
    ann.screenshot(path=artifacts / "new-pin.png")
    join_page(ann, NEW_PIN)
    ann.get_by_role("button", name="Ann", exact=True).click()
    expect(ann.locator("#conn")).to_have_text("live")
    expect(ann.locator("#who")).to_have_text("Ann")


def test_a_phone_whose_socket_is_down_redraws_what_it_fetched(serve, browser):
    """Item 6: with its socket down, a phone fetched the state (the screen reader said "Your turn") but
    the screen still showed the turn before, with no card picker."""
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--no-journal")
    table = Table(browser, server.url)
    op, bob = table.open("operator"), table.open("Bob")
    expect(bob.locator("#turn")).to_contain_text("Waiting for the deal")
    bob.route_web_socket("**/api/ws", lambda ws: ws.close())  # every new socket of this page fails
    bob.evaluate("ws.close()")  # and the live one drops
    expect(bob.locator("#conn")).to_have_text("reconnecting…")
    op.get_by_role("button", name="Deal", exact=True).click()
    play(op, "green", "7")
    expect(bob.locator("#live")).to_contain_text("Your turn")
    expect(bob.locator("#turn")).to_have_text("Your turn: play a card or press")
    expect(bob.locator("#picker")).to_be_visible()
    expect(bob.locator("#conn")).to_have_text("reconnecting…")  # all of it without a socket


def test_a_taken_seat_leaves_the_list_and_a_freed_phone_is_told_why(serve, browser, artifacts):
    """Item 7: after "seat taken" the list still offered the taken seat; a phone the operator freed landed
    on a bare join page with no word of why."""
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--no-journal")
    table = Table(browser, server.url)
    op = table.open("operator")
    late = browser.new_context(viewport=PHONE).new_page()
    late.goto(server.url + "/")
    join_page(late, PIN)
    expect(late.locator("#app button")).to_have_text(["Ann", "Bob", "Cy", "The table view (tablet or TV)"])
    ann = table.open("Ann")  # another phone takes Ann's seat meanwhile
    late.get_by_role("button", name="Ann", exact=True).click()
    expect(late.locator("#msg")).to_contain_text("Ann's seat is taken by another phone")
    expect(late.locator("#app button")).to_have_text(["Bob", "Cy", "The table view (tablet or TV)"])
    late.screenshot(path=artifacts / "seat-taken.png")

    op.locator("#free-Ann").click()
    expect(op.locator("#msg")).to_have_text("Ann's seat is free: that phone can join again")
    expect(ann.locator("#msg")).to_contain_text("The operator freed Ann's seat")
    expect(ann.get_by_label("PIN")).to_be_visible()
    ann.screenshot(path=artifacts / "freed.png")

    tv = table.open("table")
    op.locator("#free-table").click()
    expect(op.locator("#msg")).to_contain_text("Every table view is signed out")
    expect(tv.locator("#msg")).to_contain_text("The operator signed the table views out")
    expect(tv.get_by_label("PIN")).to_be_visible()


def test_a_phones_pages_after_a_restart_with_the_same_pin_all_come_back_to_its_seat(serve, browser):
    """Several pages of one phone rejoined at the same moment after a restart with the same PIN: the first
    took the seat back, the others were told 409 `seat_taken` and left for the join page with "taken by
    another phone" (and the seat forgotten), though the phone's cookie, which every page shares, held it."""
    pages, port = pages_of_one_phone_then_stopped(serve, browser, 4)
    ann = pages[0]
    serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--no-journal", port=port)
    for page in pages:
        expect(page.locator("#conn")).to_have_text("live", timeout=20_000)
        expect(page.locator("#who")).to_have_text("Ann")
    assert ann.evaluate("localStorage.getItem('unox.seat')") is not None
    assert ann.evaluate("localStorage.getItem('unox.why')") is None


def test_the_operator_signs_the_table_views_out_and_lets_them_join_again(serve, browser, artifacts):
    """Item 2 of round two: right after the operator signed the table views out, anyone with the player PIN
    took their places back. Now the sign-out closes the table view until the operator's page lets the views
    in again; the TV's page says why meanwhile, and a player's phone still joins."""
    server = serve("--players", "Ann,Bob", "--launcher", "script", "--no-journal")
    table = Table(browser, server.url)
    op, tv = table.open("operator"), table.open("table")
    laptop = table.open("operator")  # the operator's second page hears of it by its socket
    expect(op.locator("#open-views")).to_have_count(0)
    op.locator("#free-table").click()
    expect(op.locator("#msg")).to_contain_text("Every table view is signed out and the table view is closed")
    expect(op.locator("#views-note")).to_contain_text("The table view is closed")
    expect(op.locator("#open-views")).to_have_text("Let table views join again")
    expect(laptop.locator("#open-views")).to_have_text("Let table views join again")
    op.locator("#seat-list").screenshot(path=artifacts / "views-closed.png")
    expect(tv.get_by_label("PIN")).to_be_visible()
    join_page(tv, PIN)
    tv.get_by_role("button", name="The table view (tablet or TV)", exact=True).click()
    expect(tv.locator("#msg")).to_have_text("The operator has closed the table view: ask the operator to let "
                                            "table views join again, then try again.")
    assert tv.url.endswith("/")  # still on the join page: nothing was taken
    table.open("Ann")  # the players' seats stay open

    op.locator("#open-views").click()
    expect(op.locator("#msg")).to_have_text("Table views may join again: type the PIN on the TV or tablet")
    expect(op.locator("#open-views")).to_have_count(0)
    expect(laptop.locator("#open-views")).to_have_count(0)
    tv.get_by_role("button", name="The table view (tablet or TV)", exact=True).click()
    expect(tv.locator("#conn")).to_have_text("live")
    expect(tv.locator("#who")).to_have_text("Table view")
