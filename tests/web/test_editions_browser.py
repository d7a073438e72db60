"""Draw editions on the phones, in a real Chromium at 390x844: `unox serve --rules classic --launcher sim`.

The simulated launcher is the draw pile (DL1): each draw a phone asks for is fired by the simulated motor
and counted by its beam, exactly what is due. Rule IDs of docs/rules.md: C-A1 (Draw Two: the next
player draws 2), C-T2 (the turn's draw of 1, then play that card or pass), C-A5/C-A7 (Wild Draw Four and its
challenge: a wrong challenger draws 6).
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.web.test_browser import Table, accepted_click, hand_of, play

expect.set_options(timeout=15_000)


def sent_from(page: Page, request: dict) -> tuple[int, dict]:
    """One request sent by the page's own token (its cookie), as a hand-made client of the API would."""
    return page.evaluate("""async (request) => {
        const res = await fetch('/api/requests', {method: 'POST', body: JSON.stringify(request)});
        return [res.status, await res.json()];
    }""", request)


def draw(page: Page) -> dict:
    """The phone's Draw button; the host fires what is due. Returns the table's reply."""
    return accepted_click(page, "#draw")


def test_a_classic_hand_on_phones_draws_exactly_what_is_due(serve, browser, artifacts):
    server = serve("--players", "Ann,Bob,Cy", "--launcher", "sim", "--rules", "classic", "--seed", "5",
                   "--no-journal")
    table = Table(browser, server.url)
    op = table.open("operator")
    ann, bob, cy = (table.open(name) for name in ("Ann", "Bob", "Cy"))

    # DL4: the launcher deals; each phone draws its 7 in turn from the dealer's left, each fired exactly.
    op.locator("#launcher-deals").check()
    op.get_by_role("button", name="Deal", exact=True).click()
    expect(ann.locator("#turn")).to_have_text("Bob owes 7 draws")
    for phone in (bob, cy, ann):
        expect(phone.locator("#turn")).to_have_text("You owe 7 draws")
        reply = draw(phone)
        assert reply["launcher"]["requested"] == 7 and reply["launcher"]["fired"] == 7
    expect(op.locator("#turn")).to_have_text("Waiting for the first card to be turned up")
    assert [hand_of(op, name) for name in ("Ann", "Bob", "Cy")] == [7, 7, 7]
    with op.expect_response(re.compile(r"/api/requests$")) as response:
        op.locator("#fire-first").click()  # DL3: the launcher fires the first card; the operator names it
    first = response.value.json()
    assert first["ok"] and first["launcher"]["fired"] == 1 and first["state"]["first_fired"], first
    play(op, "green", "7")
    expect(bob.locator("#turn")).to_have_text("Your turn: play a card or draw")
    expect(bob.locator("#edition")).to_have_text("UNO")
    # The picker shows classic's faces: 0 to 9, Draw Two, Reverse, Skip; no Extreme card.
    bob.get_by_role("button", name="green", exact=True).click()
    faces = bob.locator("#picker .grid button")
    expect(faces).to_have_count(13)
    assert faces.evaluate_all("bs => bs.map(b => b.textContent)") == [*"0123456789", "+2", "⟲", "⊘"]
    expect(bob.get_by_role("button", name="green Hit 2")).to_have_count(0)
    bob.get_by_role("button", name="green Draw Two", exact=True).click()
    # the Play button names the move in words, colour included (colour-blind safe)
    expect(bob.locator("#go")).to_have_text("Play green Draw Two")
    bob.screenshot(path=artifacts / "classic.png")
    bob.locator("#go").click()

    # C-A1: Cy owes 2 draws; her phone's Draw fires exactly 2, counted by the simulated launcher's beam.
    expect(cy.locator("#turn")).to_have_text("You owe 2 draws")
    expect(ann.locator("#seats tr", has_text="Cy").locator("td").nth(2)).to_have_text("2 draws")
    reply = draw(cy)
    assert reply["launcher"]["requested"] == 2 and reply["launcher"]["fired"] == 2
    assert reply["launcher"]["fault"] is None
    expect(ann.locator("#seats tr", has_text="Cy").locator("td").nth(1)).to_have_text("9")

    # C-T2: Ann draws one voluntarily (exactly 1 fired), keeps it and passes.
    expect(ann.locator("#turn")).to_have_text("Your turn: play a card or draw")
    reply = draw(ann)
    assert reply["launcher"]["requested"] == 1 and reply["launcher"]["fired"] == 1
    expect(ann.locator("#turn")).to_have_text("You drew: play that card or pass")
    expect(bob.locator("#turn")).to_have_text("Ann drew: a play or a pass")
    ann.locator("#pass").click()
    expect(bob.locator("#turn")).to_have_text("Your turn: play a card or draw")
    assert hand_of(bob, "Ann") == 8

    # C-A5/C-A7: Bob's Wild Draw Four naming red; Cy challenges from her phone, Bob is not guilty: 6 draws.
    bob.get_by_role("button", name="Wild", exact=True).click()
    bob.get_by_role("button", name="Wild Draw Four", exact=True).click()
    bob.get_by_role("button", name="name red", exact=True).click()
    bob.locator("#go").click()
    expect(cy.locator("#challenge")).to_be_visible()
    cy.screenshot(path=artifacts / "classic-challenge.png")
    expect(ann.locator("#challenge")).to_have_count(0)  # only the victim's phone asks
    expect(op.locator("#color")).to_contain_text("red (R)")
    cy.get_by_role("button", name="Bob did not: not guilty").click()
    expect(cy.locator("#turn")).to_have_text("You owe 6 draws")
    reply = draw(cy)
    assert reply["launcher"]["requested"] == 6 and reply["launcher"]["fired"] == 6
    expect(op.locator("#seats tr", has_text="Cy").locator("td").nth(1)).to_have_text("15")
    expect(ann.locator("#turn")).to_have_text("Your turn: play a card or draw")


def test_a_fire_the_table_stopped_in_is_asked_on_every_page_and_the_operators_count_books_it_once(
        serve, browser, tmp_path):
    """A journal left with Bob's fire intent and no outcome (the process died mid-fire): after the restart
    nobody can tell what came out, so every page says the table waits, and the operator's settle panel
    books the count once; a second settle is refused and a further restart keeps the count."""
    from unox.table.journal import Journal

    from tests.table.test_fire_intents import crash_during_a_fire

    journal = tmp_path / "stopped.db"
    crash_during_a_fire(journal, requested=3)
    server = serve("--resume", str(journal), "--launcher", "script")
    table = Table(browser, server.url)
    op, bob, tv = table.open("operator"), table.open("Bob"), table.open("table")
    for page in (op, bob, tv):
        expect(page.locator(".top .msg")).to_have_text(
            "A fire is unsettled: the operator settles it before play goes on.")
    expect(op.locator("#settle")).to_contain_text("player: Bob")
    expect(op.locator("#settle")).to_contain_text("requested: 3")
    expect(bob.locator("#settle")).to_have_count(0)  # only the operator counts
    before = hand_of(tv, "Bob")

    op.locator("#settle input").fill("2")
    op.get_by_role("button", name="Settle", exact=True).click()
    for page in (op, bob, tv):
        expect(page.locator(".top .msg")).to_have_count(0)
        expect(page.locator("#seats tr", has_text="Bob").locator("td").nth(1)).to_have_text(str(before + 2))
    expect(op.locator("#settle")).to_have_count(0)
    status, reply = sent_from(op, {"cmd": "settle", "fired": 2})
    assert status == 200 and reply["error"]["code"] == "nothing_to_settle"
    assert reply["state"]["hands"]["Bob"] == before + 2
    server.stop()
    with Journal(journal) as kept:
        assert kept.pending_fire() is None
        assert kept.fires()[-1]["settled_by"] == "operator" and kept.fires()[-1]["fired"] == 2
        assert [e for e in kept.entries() if e.get("cmd") == "press"] == [
            {"cmd": "press", "player": "Bob", "fired": 2}]
