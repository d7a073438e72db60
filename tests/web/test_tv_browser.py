"""The table view on a TV across the room, in a real Chromium at 1920x1080 and 1280x720 (finding 9).

Readable at 3 m means big: whose turn and the top card take most of the screen's height, owed presses and
scores are large, and while a player's seat is free the address to join and its QR code show. A2 (Hit 2: the
next player owes 2 presses) gives the owed line.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.test_browser import Table, play

expect.set_options(timeout=15_000)
SCREENS = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})


def height(page: Page, selector: str) -> float:
    """Measured in one step: the page redraws itself on every push, so a node found may be gone next."""
    expect(page.locator(selector).first).to_be_visible()
    return page.evaluate("s => document.querySelector(s).getBoundingClientRect().height", selector)


def font_px(page: Page, selector: str) -> float:
    expect(page.locator(selector).first).to_be_visible()
    return page.evaluate("s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector)


def test_the_table_view_fills_a_tv_and_shows_how_to_join_while_a_seat_is_free(serve, browser, artifacts):
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "sim", "--seed", "3", "--no-journal")
    table = Table(browser, server.url)
    op, bob = table.open("operator"), table.open("Bob")
    tv = table.open("table", SCREENS[0])
    op.get_by_role("button", name="Deal", exact=True).click()
    play(op, "green", "7")
    play(op, "green", "Hit 2")  # the operator acts for Bob: A2, Cy owes 2 presses
    expect(tv.locator("#turn")).to_have_text("Cy owes 2 presses")
    expect(tv.locator("#owed")).to_have_text("Cy owes 2 presses")

    # Ann and Cy have not joined: the address and its QR code (an image the page's CSP allows) show.
    expect(tv.locator("#join-url")).to_have_text(server.url + "/")
    expect(tv.locator("#join-info")).to_contain_text("Free: Ann, Cy")
    assert tv.locator("#join-info img").evaluate("img => img.complete && img.naturalWidth > 0")
    for screen in SCREENS:
        tv.set_viewport_size(screen)
        tall = screen["height"]
        assert height(tv, ".bigcard .card") >= 0.4 * tall  # the top card: 40% of the height at least
        assert font_px(tv, "#turn") >= 0.06 * tall  # whose turn: 65 px on a 1080 line screen
        assert height(tv, ".bigcard .card") + height(tv, "#turn") >= 0.5 * tall
        assert font_px(tv, "#owed li") >= 0.04 * tall and font_px(tv, ".scores td") >= 0.03 * tall
        qr = tv.evaluate("() => document.querySelector('#join-info img').getBoundingClientRect().width")
        assert qr >= 0.2 * tall  # a phone scans it from a couple of metres
        tv.screenshot(path=artifacts / f"tv-{screen['width']}x{screen['height']}.png")

    # Once every seat is taken, the join box gives its room back.
    table.open("Ann"), table.open("Cy")
    expect(tv.locator("#join-info")).to_have_count(0)
    assert [m for m in table.console if "Content Security Policy" in m] == []
    bob.screenshot(path=artifacts / "player-390x844.png")
