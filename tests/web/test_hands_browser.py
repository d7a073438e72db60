"""A whole hand of every edition, played through the page only, in a real Chromium: phones at 390x844.

For each edition (`unox play --rules` choices) and each way a card comes out (`--launcher sim`: the host fires
the simulated launcher; `--launcher script`: the phone says how many came out), three phones and the
operator's page play one hand from the deal to its scores with clicks alone. Bob's phone plays the edition's
special moves, in the order people make them at a table (the card comes out, then it is named); Ann's and
Cy's phones take whatever turn or debt falls to them. At each special move the test takes a screenshot and
checks what it shows: the panel, the buttons offered, and no protocol text (JSON, field or code names, rule
IDs). Each test starts its own server, so the tests share nothing and may run on any xdist worker.

Rule IDs of docs/rules.md: S2/S4 (deal, first card), A1 (Hit 2), A3 (Skip), A4 (Discard All), A7 (Wild All
Hit), A8 (Wild Hit-Fire), U1 (UNO), U3/G1 (the hand's end and its scores); DL3/DL4 (the launcher turns up the
first card, deals the hands), C-A1 (Draw Two), C-A2 (Reverse), C-A5/C-A7 (Wild Draw Four, its challenge),
C-T2 (draw, then pass); BA-A1 (Beachcomber's gift); CC-A1/CC-A2 (Casting Call's turn and share); MK-I1/MK-I4
(Item Wild and the green shell).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.web.test_browser import Table

expect.set_options(timeout=20_000)

PLAYERS = ("Ann", "Bob", "Cy")
# What a page must never show a person: a rule ID, JSON, a field or code name, a card code, "null".
PROTOCOL = [
    re.compile(r"\((?:[A-Z]{1,2}-)?[A-Z]{1,3}\d+\)"),  # (U2), (BA-A1)
    re.compile(r"\b(?:MK|BA|CC|DL|C)-[A-Z]+\d"),  # MK-I1, C-A7
    re.compile(r"[{}\"`]|\bnull\b|\bundefined\b|\bNaN\b"),
    re.compile(r"\b[a-z]+_[a-z_]+\b"),  # green_shell, seat_taken
]


def readable(page: Page) -> str:
    """The page's text, which must read as words."""
    text = page.locator("#app").inner_text()
    for pattern in PROTOCOL:
        assert not pattern.search(text), (pattern.pattern, text)
    return text


class Hand:
    """One table's pages, the launcher mode, and the moves a phone makes."""

    def __init__(self, serve, browser, shots: Path, rules: str, launcher: str, seed: int):
        self.rules, self.launcher, self.shots = rules, launcher, shots
        self.server = serve("--players", ",".join(PLAYERS), "--launcher", launcher, "--rules", rules,
                            "--seed", str(seed), "--no-journal")
        self.table = Table(browser, self.server.url)
        self.op = self.table.open("operator")
        self.phones = {name: self.table.open(name) for name in PLAYERS}
        self.draws = rules != "extreme"
        self.state: dict = {}
        self.taken: list[str] = []

    # -- what the test checks at each special move ---------------------------------------------
    def shot(self, page: Page, name: str, *, panel: str | None = None, buttons: tuple[str, ...] = ()) -> str:
        """A screenshot under the test's tmp dir; the panel shown, the buttons offered, words only."""
        if panel is not None:
            expect(page.locator(panel)).to_be_visible()
        for label in buttons:
            expect(page.get_by_role("button", name=label, exact=True)).to_be_visible()
        path = self.shots / f"{self.rules}-{self.launcher}-{len(self.taken):02d}-{name}.png"
        page.screenshot(path=path)
        self.taken.append(path.name)
        return readable(page)

    # -- a move is a click whose reply the table accepted --------------------------------------
    def click(self, page: Page, target: str | Locator) -> dict:
        """Click a button (a selector or a locator); the table must accept what the page sent."""
        with page.expect_response(re.compile(r"/api/requests$")) as response:
            (page.locator(target) if isinstance(target, str) else target).click()
        reply = response.value.json()
        assert reply["ok"], reply
        self.state = reply["state"]
        return reply

    def choose(self, page: Page, group: str, color: str, face: str) -> None:
        """The card picker inside a pending choice's field `group`: the colour, then the face."""
        page.locator(group).get_by_role("button", name=color, exact=True).click()
        page.locator(group).get_by_role("button", name=f"{color} {face}", exact=True).click()

    def play(self, who: str, color: str, face: str, *, name: str | None = None, count: int | None = None,
             target: str | None = None, shot: str | None = None) -> dict:
        """`who`'s phone plays a card with the picker; a wild names `name`. The reply's state is kept."""
        page = self.phones[who] if who in self.phones else self.op
        page.get_by_role("button", name=color, exact=True).click()
        page.get_by_role("button", name=face if color == "Wild" else f"{color} {face}", exact=True).click()
        if name is not None:
            page.get_by_role("button", name=f"name {name}", exact=True).click()
        if count is not None:
            page.locator("#count").fill(str(count))
        if target is not None:
            page.get_by_role("button", name=target, exact=True).click()
        if shot is not None:
            expect(page.locator("#go")).to_be_enabled()
            self.shot(page, shot, panel="#picker")
        return self.click(page, "#go")

    def take(self, who: str, due: int) -> dict:
        """`who`'s phone presses or draws: the host fires (`sim`), or the phone says what came out."""
        page = self.phones[who]
        control = "#draw" if self.draws else "#press"
        if self.launcher == "script":
            page.locator("#fired").fill(str(due if self.draws else 1))
        return self.click(page, control)

    def others_until(self, who: str = "Bob") -> dict:
        """Ann's and Cy's phones take the turns and debts that fall to them until `who` is to play (or
        owes, or the hand is over): each waits for its own page to say so, then clicks."""
        for _ in range(40):
            s = self.state
            if s["phase"] == "hand_over" or s.get("pending"):
                return s
            owed = (s.get("owed") or [None])[0]
            actor = owed["player"] if owed else s["turn"]
            if actor == who:
                return s
            page = self.phones[actor]
            if owed:
                expect(page.locator("#turn")).to_contain_text("You owe")
                self.take(actor, owed.get("draws") or 1)
            elif s.get("drawn") == actor:
                expect(page.locator("#turn")).to_have_text("You drew: play that card or pass")
                self.click(page, "#pass")
            else:
                expect(page.locator("#turn")).to_have_text(
                    "Your turn: play a card or " + ("draw" if self.draws else "press"))
                self.take(actor, 1)
        raise AssertionError(f"{who} never got the turn: {self.state}")

    def bobs_turn(self) -> Page:
        self.others_until("Bob")
        bob = self.phones["Bob"]
        unit = "draw" if self.draws else "press"
        expect(bob.locator("#turn")).to_have_text(f"Your turn: play a card or {unit}")
        return bob

    def hand_of(self, name: str) -> int:
        return self.state["hands"][name]

    def uno(self) -> None:
        """Bob's play left him one card: he calls UNO on his phone before anyone catches him."""
        bob = self.phones["Bob"]
        expect(self.phones["Ann"].get_by_role("button", name="Catch Bob", exact=True)).to_be_visible()
        self.shot(bob, "uno", panel="#calls", buttons=("UNO!",))
        self.click(bob, "#uno")
        expect(self.phones["Ann"].get_by_role("button", name="Catch Bob", exact=True)).to_have_count(0)

    # -- the deal and the hand's end -------------------------------------------------------------
    def deal(self) -> None:
        """The operator deals (Ann is the dealer: Bob starts) and the first card, green 7, is turned up."""
        op = self.op
        by_launcher = self.draws and self.launcher == "sim" and self.rules == "classic"
        if by_launcher:  # DL4: each phone draws its 7 from the launcher in turn
            op.locator("#launcher-deals").check()
        self.click(op, op.get_by_role("button", name="Deal", exact=True))
        if by_launcher:
            for name in ("Bob", "Cy", "Ann"):
                expect(self.phones[name].locator("#turn")).to_have_text("You owe 7 draws")
                if name == "Bob":
                    self.shot(self.phones[name], "launcher-deal", buttons=("Draw from the launcher",))
                reply = self.take(name, 7)
                assert reply["launcher"]["fired"] == 7, reply["launcher"]
        expect(op.locator("#turn")).to_have_text("Waiting for the first card to be turned up")
        if self.draws and self.launcher == "sim":  # DL3: the launcher turns it up, then it is named
            # (the operator's page offers the fire alone, then the picker)
            self.shot(op, "first-card", buttons=("Fire the first card",))
            self.click(op, "#fire-first")
        self.play("operator", "green", "7")
        assert self.state["phase"] == "turn" and self.state["turn"] == "Bob", self.state
        assert self.hand_of("Bob") == 7

    def score(self) -> None:
        """Bob went out (U3): every page says so; the operator enters the points left and the scores show."""
        assert self.state["phase"] == "hand_over" and self.state["went_out"] == "Bob", self.state
        for name, page in (*self.phones.items(), ("operator", self.op)):
            who = "You" if name == "Bob" else "Bob"
            over = f"{who} went out: the hand is over, the operator enters the scores"
            expect(page.locator("#turn")).to_have_text(over)
            readable(page)
        op = self.op
        expect(op.locator("#pts-Bob")).to_have_value("0")
        op.locator("#pts-Ann").fill("12")
        op.locator("#pts-Cy").fill("30")
        self.shot(op, "scores", panel="#score", buttons=("Enter the scores",))
        with op.expect_response(re.compile(r"/api/requests$")) as response:
            op.get_by_role("button", name="Enter the scores", exact=True).click()
        reply = response.value.json()
        assert reply["ok"], reply
        assert reply["state"]["scores"]["Bob"] == 42, reply["state"]["scores"]
        for page in (*self.phones.values(), op):
            expect(page.locator("#seats tr", has_text="Bob").locator("td").nth(3)).to_have_text("42")
            readable(page)


# -- each edition's hand: Bob's plays, his special moves among them --------------------------------------
def extreme(hand: Hand) -> None:
    bob = hand.bobs_turn()
    hand.play("Bob", "green", "Hit 2", shot="hit2")  # A1: Cy owes 2 presses, Ann plays
    cy = hand.phones["Cy"]
    expect(cy.locator("#turn")).to_have_text("You owe 2 presses")
    hand.shot(cy, "owes", buttons=("Press the launcher",) if hand.launcher == "sim" else ("Pressed",))
    hand.bobs_turn()
    hand.play("Bob", "green", "Skip")  # A3
    hand.bobs_turn()
    hand.play("Bob", "green", "Discard All", count=1, shot="discard-all")  # A4: 2 cards down
    assert hand.hand_of("Bob") == 3
    hand.bobs_turn()
    hand.play("Bob", "Wild", "Wild All Hit", name="green", shot="wild-all-hit")  # A7: Cy and Ann owe 1
    assert [o["player"] for o in hand.state["owed"]] == ["Cy", "Ann"], hand.state["owed"]
    hand.bobs_turn()
    hand.play("Bob", "Wild", "Wild Hit-Fire", name="green")  # A8: Cy presses until a card fires
    expect(cy.locator("#turn")).to_have_text("You owe presses until a card fires")
    hand.shot(cy, "hit-fire")
    hand.uno()
    hand.bobs_turn()
    hand.play("Bob", "green", "4")
    expect(bob.locator("#turn")).to_contain_text("You went out")


def classic(hand: Hand) -> None:
    hand.bobs_turn()
    hand.play("Bob", "green", "Draw Two", shot="draw-two")  # C-A1: Cy draws 2 and is skipped
    hand.bobs_turn()
    hand.play("Bob", "Wild", "Wild Draw Four", name="green", shot="wild-draw-four")  # C-A5
    cy = hand.phones["Cy"]
    hand.shot(cy, "challenge", panel="#challenge",
              buttons=("Bob held a matching card: guilty", "Bob did not: not guilty"))
    expect(cy.locator("#challenge h2")).to_have_text("Challenge Bob?")
    # said to Cy on her own phone, as "You went out" is (it once read "Cy may challenge ... to Cy")
    expect(cy.locator("#challenge .note")).to_have_text(
        "You may challenge before drawing: Bob shows their hand to you.")
    expect(hand.phones["Ann"].locator("#challenge")).to_have_count(0)
    hand.click(cy, "#innocent")  # C-A7: not guilty, Cy draws 6
    expect(cy.locator("#turn")).to_have_text("You owe 6 draws")
    _draw_then_pass(hand)
    hand.play("Bob", "green", "Skip")  # C-A3
    hand.bobs_turn()
    hand.play("Bob", "green", "Reverse")  # C-A2: Ann plays next
    assert hand.state["direction"] == "right" and hand.state["turn"] == "Ann"
    _plain_run(hand, ("5", "6"))


def _draw_then_pass(hand: Hand) -> None:
    """C-T2: Ann draws one on her turn and keeps it: her phone offers Pass beside the picker."""
    hand.others_until("Ann")
    ann = hand.phones["Ann"]
    expect(ann.locator("#turn")).to_have_text("Your turn: play a card or draw")
    hand.take("Ann", 1)
    expect(ann.locator("#turn")).to_have_text("You drew: play that card or pass")
    hand.shot(ann, "drew", panel="#picker", buttons=("Pass: keep the card",))
    hand.click(ann, "#pass")
    hand.bobs_turn()


def _plain_run(hand: Hand, faces: tuple[str, ...], color: str = "green") -> None:
    """Bob plays out the rest of his hand in `color`, calling UNO when one card is left."""
    for face in faces:
        hand.bobs_turn()
        hand.play("Bob", color, face)
    assert hand.hand_of("Bob") == 1, hand.state["hands"]
    hand.uno()
    hand.bobs_turn()
    hand.play("Bob", color, "8")


def barbie(hand: Hand) -> None:
    bob = hand.bobs_turn()
    hand.play("Bob", "Wild", "Beachcomber", name="green", shot="beachcomber")
    # BA-A1: Bob gives away a card of each colour he likes, to a player he names
    text = hand.shot(bob, "gift", panel="#pending", buttons=("Ann", "Cy", "Nobody", "Done"))
    assert "Pick who gets them, then the cards, then press Done." in text
    expect(hand.phones["Ann"].locator("#turn")).to_have_text(re.compile(r"^Bob chooses: "))
    readable(hand.phones["Ann"])
    bob.locator("#req-to").get_by_role("button", name="Cy", exact=True).click()
    hand.choose(bob, "#req-cards", "pink", "3")
    hand.choose(bob, "#req-cards", "orange", "Skip")
    hand.shot(bob, "gift-chosen", buttons=("Remove pink 3", "Remove orange Skip"))
    hand.click(bob, "#answer")
    assert hand.hand_of("Bob") == 4 and hand.hand_of("Cy") == 9, hand.state["hands"]
    hand.bobs_turn()
    hand.play("Bob", "green", "Draw Two")
    _plain_run(hand, ("2", "3"))


def casting_call(hand: Hand) -> None:
    bob = hand.bobs_turn()
    hand.play("Bob", "Wild", "Casting Call", name="green", shot="casting-call")
    # CC-A1: the launcher turns up cards one at a time until one matches; each comes out, then is named
    for face in ("5", "9"):
        if hand.launcher == "sim":
            text = hand.shot(bob, f"turn-{face}-fire", panel="#pending", buttons=("Fire the launcher",))
            assert "First fire the launcher" in text
            expect(bob.locator("#req-card")).to_have_count(0)  # nothing to name before it is out
            reply = hand.click(bob, "#answer")
            assert reply["launcher"]["fired"] == 1, reply["launcher"]
        # the card is named, never "(if any)": a phone always says which came out
        expect(bob.locator("#req-card .label")).to_have_text(re.compile(r"^The card that came out:\s*$"))
        hand.choose(bob, "#req-card", "red", face)
        expect(bob.locator("#answer")).to_have_text(f"Done: red {face}")
        hand.shot(bob, f"turn-{face}", panel="#pending")
        hand.click(bob, "#answer")
    # CC-A2: red 9 matched red 5: Bob gives the turned cards to a player
    hand.shot(bob, "share", panel="#req-to", buttons=("Ann", "Cy"))
    expect(bob.locator("#req-deal")).to_contain_text("Deal them out one at a time instead")
    bob.locator("#req-to").get_by_role("button", name="Cy", exact=True).click()
    hand.click(bob, "#answer")
    assert hand.hand_of("Cy") == 9 and hand.hand_of("Bob") == 6, hand.state["hands"]
    hand.bobs_turn()
    hand.play("Bob", "green", "Draw Two")
    _plain_run(hand, ("1", "2", "3", "4"))


def mario_kart(hand: Hand) -> None:
    bob = hand.bobs_turn()
    hand.play("Bob", "Wild", "Item Wild", shot="item-wild")  # MK-I1: no colour is named
    if hand.launcher == "sim":  # the card comes out first, then it is named
        text = hand.shot(bob, "item-fire", panel="#pending", buttons=("Fire the launcher",))
        assert "First fire the launcher" in text
        expect(bob.locator("#req-card")).to_have_count(0)
        reply = hand.click(bob, "#answer")
        assert reply["launcher"]["fired"] == 1, reply["launcher"]
    hand.choose(bob, "#req-card", "red", "2, green shell")
    expect(bob.locator("#answer")).to_have_text("Done: red 2 (green shell)")
    hand.shot(bob, "item-card", panel="#pending")
    hand.click(bob, "#answer")
    # MK-I4: the green shell hits a player Bob names (never himself)
    expect(bob.locator("#req-target button")).to_have_text(["Ann", "Cy"])
    hand.shot(bob, "green-shell", panel="#req-target")
    bob.locator("#req-target").get_by_role("button", name="Cy", exact=True).click()
    hand.click(bob, "#answer")
    assert hand.state["color"] == "red", hand.state
    expect(hand.op.locator("#log")).to_contain_text("Bob's green shell hits Cy.")
    hand.bobs_turn()
    hand.play("Bob", "red", "Skip")
    _plain_run(hand, ("Draw Two", "1", "3", "4"), color="red")


EDITIONS: dict[str, Callable[[Hand], None]] = {
    "extreme": extreme, "classic": classic, "barbie": barbie, "casting-call": casting_call,
    "mario-kart": mario_kart,
}


@pytest.mark.parametrize("launcher", ["sim", "script"])
@pytest.mark.parametrize("rules", list(EDITIONS))
def test_a_whole_hand_of_each_edition_through_the_page_only(serve, browser, tmp_path, rules, launcher):
    shots = tmp_path / "shots"
    shots.mkdir()
    hand = Hand(serve, browser, shots, rules, launcher, seed=7)
    hand.deal()
    EDITIONS[rules](hand)
    hand.others_until("Bob")
    hand.score()
    assert len(hand.taken) >= 4 and all((shots / name).stat().st_size > 0 for name in hand.taken)
    assert hand.table.console == [], hand.table.console  # no CSP violation, no script error
