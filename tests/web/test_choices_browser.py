"""An edition's own choice on the phones, in words, in a real Chromium at 390x844; and the join page's words.

`--launcher script`: the phones say what came out. Rule IDs of docs/rules.md: MK-I1 (the Item Wild names
no colour; the launcher turns up one card and its item acts), MK-I4 (the green shell: the player named draws
1), BA-A1 (Barbie's Beachcomber: its player gives cards away).
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect

from tests.web.conftest import PHONE
from tests.web.test_browser import Table, play

expect.set_options(timeout=15_000)


def readable(page: Page) -> str:
    """What the page shows; it must read as words: no rule IDs, no JSON, no "null"."""
    text = page.locator("#app").inner_text()
    assert not re.search(r"\b(MK|BA|CC|DL)-?[A-Z]*\d", text), text
    assert "null" not in text and "{" not in text and '"' not in text, text
    return text


def sent(page: Page, selector: str) -> dict:
    """Click `selector`; the request the page sent, and check the table took it."""
    with page.expect_response(re.compile(r"/api/requests$")) as response:
        page.locator(selector).click()
    assert response.value.json()["ok"], response.value.json()
    return json.loads(response.value.request.post_data)


def start(serve, browser, rules: str) -> tuple[Table, Page, Page, Page, Page]:
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--rules", rules, "--no-journal")
    table = Table(browser, server.url)
    op, ann, bob, cy = (table.open(seat) for seat in ("operator", "Ann", "Bob", "Cy"))
    op.get_by_role("button", name="Deal", exact=True).click()
    play(op, "green", "7")
    expect(bob.locator("#turn")).to_have_text("Your turn: play a card or draw")
    return table, op, ann, bob, cy


def test_mario_karts_item_wild_is_played_and_its_item_chosen_in_words(serve, browser, artifacts):
    """Findings 4 and 5: MK-I1's Item Wild names no colour; the card turned up is picked by name and its
    item comes with it; MK-I4's green shell names its victim from the other players."""
    table, op, ann, bob, cy = start(serve, browser, "mario-kart")
    bob.get_by_role("button", name="Wild", exact=True).click()
    bob.get_by_role("button", name="Item Wild", exact=True).click()
    expect(bob.locator("[aria-label='colour to name']")).to_have_count(0)
    assert sent(bob, "#go") == {"cmd": "play", "card": "WI", "player": "Bob"}

    why = "Item Wild: the launcher fires 1 card, its item acts"  # MK-I1's rule IDs left out
    expect(ann.locator("#turn")).to_have_text(f"Bob chooses: {why}")
    expect(bob.locator("#pending h2")).to_have_text("Your choice")
    bob.locator("#req-card").get_by_role("button", name="red", exact=True).click()
    bob.locator("#req-card").get_by_role("button", name="red 2, green shell", exact=True).click()
    expect(bob.locator("#answer")).to_have_text("Done: red 2 (green shell)")
    readable(bob)
    bob.screenshot(path=artifacts / "item-wild.png")
    assert sent(bob, "#answer") == {"cmd": "item", "player": "Bob", "card": "R2", "item": "green_shell",
                                    "fired": 1}

    expect(bob.locator("#req-target button")).to_have_text(["Ann", "Cy"])
    bob.locator("#req-target").get_by_role("button", name="Cy", exact=True).click()
    assert sent(bob, "#answer") == {"cmd": "choose", "player": "Bob", "target": "Cy"}
    expect(cy.locator("#turn")).to_have_text("You owe 1 draw")
    expect(op.locator("#log")).to_contain_text("Bob's Item Wild turns up red 2: green shell.")
    expect(op.locator("#log")).to_contain_text("Bob's green shell hits Cy.")
    for page in (op, ann, bob, cy):
        readable(page)


def test_barbies_gift_is_given_with_the_card_picker_to_a_named_player(serve, browser, artifacts):
    """Finding 5: BA-A1's gift: the other players as buttons, the cards by name; no fields, JSON or IDs."""
    table, op, ann, bob, cy = start(serve, browser, "barbie")
    bob.get_by_role("button", name="Wild", exact=True).click()
    bob.get_by_role("button", name="Beachcomber", exact=True).click()
    bob.get_by_role("button", name="name pink", exact=True).click()
    sent(bob, "#go")
    expect(bob.locator("#pending h2")).to_have_text("Your choice")
    expect(bob.locator("#req-to button")).to_have_text(["Ann", "Cy", "Nobody"])
    bob.locator("#req-to").get_by_role("button", name="Cy", exact=True).click()
    for colour, face in (("pink", "3"), ("orange", "Skip")):
        bob.locator("#req-cards").get_by_role("button", name=colour, exact=True).click()
        bob.locator("#req-cards").get_by_role("button", name=f"{colour} {face}", exact=True).click()
    expect(bob.locator("#req-cards .chosen button")).to_have_text(["Remove pink 3", "Remove orange Skip"])
    text = readable(bob)
    assert "to:" not in text.split("Give them to")[0]  # the field names are said in words
    bob.screenshot(path=artifacts / "gift.png")
    assert sent(bob, "#answer") == {"cmd": "gift", "player": "Bob", "to": "Cy", "cards": ["P3", "OS"]}
    expect(ann.locator("#pending")).to_have_count(0)
    expect(op.locator("#seats tr", has_text="Cy").locator("td").nth(1)).to_have_text("9")
    for page in (op, ann, bob, cy):
        readable(page)


def test_the_join_page_says_wrong_pin_and_how_long_it_is_locked(serve, browser):
    """Finding 6: a 401 and a 429 are said on the join page, in words."""
    server = serve("--players", "Ann,Bob", "--launcher", "script")
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "/")
    for i in range(5):
        page.get_by_label("PIN").fill(f"00000{i}")
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator("#msg")).to_contain_text("wrong PIN")
        page.locator("#msg").evaluate("m => m.textContent = ''")
    page.get_by_label("PIN").fill("000009")
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator("#msg")).to_have_text(re.compile(r"too many wrong PINs: locked for \d+ s"))


def test_the_join_page_offers_only_free_seats_and_the_table_view(serve, browser):
    """Finding 2: Ann's seat is taken, so it is not offered; the operator's seat never is."""
    server = serve("--players", "Ann,Bob", "--launcher", "script")
    table = Table(browser, server.url)
    table.open("Ann")
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "/")
    page.get_by_label("PIN").fill("246813")
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator("#app button")).to_have_text(["Bob", "The table view (tablet or TV)"])


def test_casting_calls_turn_and_share_are_made_with_the_picker_and_named_players(serve, browser):
    """Finding 5: CC-A1's turn names each card that came out with the picker; CC-A2's share gives them to a
    player chosen by name (or deals them out), never through a form of fields."""
    table, op, ann, bob, cy = start(serve, browser, "casting-call")
    bob.get_by_role("button", name="Wild", exact=True).click()
    bob.get_by_role("button", name="Casting Call", exact=True).click()
    bob.get_by_role("button", name="name red", exact=True).click()
    sent(bob, "#go")
    for face, expected in (("5", "turn"), ("9", "share")):  # red 9 matches red 5: the turning stops
        bob.locator("#req-card").get_by_role("button", name="red", exact=True).click()
        bob.locator("#req-card").get_by_role("button", name=f"red {face}", exact=True).click()
        expect(bob.locator("#answer")).to_have_text(f"Done: red {face}")
        assert sent(bob, "#answer") == {"cmd": "turn", "player": "Bob", "card": f"R{face}", "fired": 1}
        expect(ann.locator("#turn")).to_contain_text("Bob chooses")
        readable(bob)
        if expected == "share":
            break
    expect(bob.locator("#req-to button")).to_have_text(["Ann", "Cy", "Nobody"])
    expect(bob.locator("#req-deal")).to_contain_text("Deal them out one at a time instead")
    bob.locator("#req-to").get_by_role("button", name="Cy", exact=True).click()
    assert sent(bob, "#answer") == {"cmd": "share", "player": "Bob", "to": "Cy"}
    expect(op.locator("#seats tr", has_text="Cy").locator("td").nth(1)).to_have_text("9")
    expect(op.locator("#log")).to_contain_text("Bob turns up red 5 from the launcher.")
    for page in (op, ann, bob, cy):
        readable(page)


def test_with_a_launcher_the_item_wild_fires_first_then_its_card_is_named(serve, browser, artifacts):
    """Findings 4 and 5 at a launcher table (DL3): the host fires the item card, the phone names it. Issue
    25 item 8: the card picker once came before the fire, and a card picked first hid the fire for good;
    now the card comes out first, then it is named."""
    server = serve("--players", "Ann,Bob", "--launcher", "sim", "--seed", "2", "--rules", "mario-kart",
                   "--no-journal")
    table = Table(browser, server.url)
    op, bob = table.open("operator"), table.open("Bob")
    op.get_by_role("button", name="Deal", exact=True).click()
    expect(op.locator("#fire-first")).to_be_visible()
    sent(op, "#fire-first")
    play(op, "green", "7")
    expect(bob.locator("#turn")).to_have_text("Your turn: play a card or draw")
    bob.get_by_role("button", name="Wild", exact=True).click()
    bob.get_by_role("button", name="Item Wild", exact=True).click()
    sent(bob, "#go")
    expect(bob.locator("#answer")).to_have_text("Fire the launcher")
    expect(bob.locator("#req-card")).to_have_count(0)  # nothing to name before the card is out
    expect(bob.locator("#pending-hint")).to_have_text(
        "First fire the launcher, then pick the card that came out.")
    bob.screenshot(path=artifacts / "item-wild-fire.png")
    readable(bob)
    with bob.expect_response(re.compile(r"/api/requests$")) as response:
        bob.locator("#answer").click()
    fired = response.value.json()
    assert fired["ok"] and fired["launcher"]["fired"] == 1, fired
    expect(bob.locator("#answer")).to_have_text("Done")
    expect(bob.get_by_role("button", name="Fire the launcher")).to_have_count(0)
    bob.locator("#req-card").get_by_role("button", name="red", exact=True).click()
    bob.locator("#req-card").get_by_role("button", name="red 0, mushroom", exact=True).click()
    expect(bob.locator("#answer")).to_have_text("Done: red 0 (mushroom)")
    bob.screenshot(path=artifacts / "item-wild-name.png")
    readable(bob)
    assert sent(bob, "#answer") == {"cmd": "item", "player": "Bob", "card": "R0", "item": "mushroom"}
    expect(bob.locator("#turn")).to_have_text("Your turn: play a card or draw")  # MK-I2: Bob again
    readable(bob)


def test_with_a_launcher_a_casting_calls_cards_come_out_first_then_are_named(serve, browser, artifacts):
    """Issue 25 item 9: at a launcher table "Fire the launcher" always failed (CC-A1); the only order that
    worked was to name a card before it came out. Now each card comes out first (the host fires it, the
    beam counts it), then the phone names it; a match stops the turning and the cards are shared (CC-A2)."""
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "sim", "--seed", "2", "--rules", "casting-call",
                   "--no-journal")
    table = Table(browser, server.url)
    op, bob, cy = table.open("operator"), table.open("Bob"), table.open("Cy")
    op.get_by_role("button", name="Deal", exact=True).click()
    sent(op, "#fire-first")
    play(op, "green", "7")
    expect(bob.locator("#turn")).to_have_text("Your turn: play a card or draw")
    bob.get_by_role("button", name="Wild", exact=True).click()
    bob.get_by_role("button", name="Casting Call", exact=True).click()
    bob.get_by_role("button", name="name red", exact=True).click()
    sent(bob, "#go")
    for step, face in enumerate(("5", "9")):  # red 9 matches red 5: the turning stops
        expect(bob.locator("#answer")).to_have_text("Fire the launcher")
        expect(bob.locator("#req-card")).to_have_count(0)
        bob.screenshot(path=artifacts / f"casting-call-fire-{step}.png")
        readable(bob)
        with bob.expect_response(re.compile(r"/api/requests$")) as response:
            bob.locator("#answer").click()
        fired = response.value.json()
        assert fired["ok"] and fired["launcher"]["fired"] == 1, fired
        bob.locator("#req-card").get_by_role("button", name="red", exact=True).click()
        bob.locator("#req-card").get_by_role("button", name=f"red {face}", exact=True).click()
        expect(bob.locator("#answer")).to_have_text(f"Done: red {face}")
        bob.screenshot(path=artifacts / f"casting-call-name-{step}.png")
        readable(bob)
        assert sent(bob, "#answer") == {"cmd": "turn", "player": "Bob", "card": f"R{face}"}
    expect(bob.locator("#req-to button")).to_have_text(["Ann", "Cy", "Nobody"])
    bob.locator("#req-to").get_by_role("button", name="Cy", exact=True).click()
    bob.screenshot(path=artifacts / "casting-call-share.png")
    assert sent(bob, "#answer") == {"cmd": "share", "player": "Bob", "to": "Cy"}
    expect(op.locator("#seats tr", has_text="Cy").locator("td").nth(1)).to_have_text("9")
    expect(op.locator("#log")).to_contain_text(
        "The launcher turns up a card for Bob's Casting Call: Bob says which it is.")
    assert "nothing is left to turn up" not in op.locator("#log").inner_text()
    for page in (op, bob, cy):
        readable(page)


def test_a_freed_seats_page_goes_back_to_the_join_page_and_never_takes_it_back(serve, browser):
    """Finding 2: the operator frees Ann's seat; her old page leaves it, so another phone can take it."""
    server = serve("--players", "Ann,Bob", "--launcher", "script")
    table = Table(browser, server.url)
    op, old = table.open("operator"), table.open("Ann")
    expect(op.locator("#free-Ann")).to_be_visible()
    op.locator("#free-Ann").click()
    expect(op.locator("#msg")).to_have_text("Ann's seat is free: that phone can join again")
    expect(old.get_by_role("heading", name="Join the table")).to_be_visible()
    assert old.evaluate("localStorage.getItem('unox.seat')") is None
    table.open("Ann")  # another phone takes the seat
    expect(op.locator("#free-Ann")).to_be_visible()
