"""An edition's cards: its colours, one interned `Card` per code, and parsing with the edition's own words.

Extreme keeps the module-level tables of `cards` (its codes are unchanged); every other edition builds its
set with `classic_cards`: numbers 0-9, Draw Two `+2`, Reverse `R`, Skip `S`, Wild `W`, Wild Draw Four `W+4`,
plus the edition's own wilds (Beachcomber `WB`, Casting Call `WC`, Item Wild `WI`).
"""

from __future__ import annotations

from collections.abc import Mapping

from unox.rules.cards import Card, CardError

CLASSIC_COLORS = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
# face after the colour letter -> (kind, points)
CLASSIC_ACTIONS = {"+2": ("draw2", 20), "R": ("reverse", 20), "S": ("skip", 20)}
CLASSIC_WILDS = {"W": "wild", "W+4": "wild_draw4"}
WILD_POINTS = 50


class CardSet:
    """The cards and colours of one edition; `parse_card`/`parse_color` raise CardError saying what exists."""

    def __init__(self, colors: Mapping[str, str], cards: Mapping[str, Card], help_text: str):
        self.colors: tuple[str, ...] = tuple(colors)
        self.color_names: dict[str, str] = dict(colors)
        self.cards: dict[str, Card] = dict(cards)
        self.help = help_text
        self._by_text = {**{c.lower(): c for c in colors}, **{n: c for c, n in colors.items()}}

    def parse_card(self, code: str | Card) -> Card:
        if isinstance(code, Card):
            if self.cards.get(code.code) is code:
                return code
            code = code.code
        card = self.cards.get(code)  # type: ignore[arg-type]
        if card is not None:
            return card
        if not isinstance(code, str):
            raise CardError(f"card must be a code such as 'G7', not {code!r}: {self.help}")
        card = self.cards.get(code.strip().upper())
        if card is None:
            raise CardError(f"unknown card {code!r}: {self.help}")
        return card

    def parse_color(self, text: str) -> str:
        if isinstance(text, str):
            letter = self._by_text.get(text.strip().lower())
            if letter is not None:
                return letter
        names = ", ".join(self.color_names.values())
        letters = ", ".join(self.colors)
        raise CardError(f"unknown colour {text!r}: use {names} (or {letters})")

    def color_name(self, letter: str | None) -> str | None:
        return self.color_names[letter] if letter is not None else None


def classic_cards(
    colors: Mapping[str, str] = CLASSIC_COLORS, extra_wilds: Mapping[str, str] | None = None
) -> dict[str, Card]:
    """One Card per code of a classic-shaped deck: per colour 0-9, +2, R, S; then the wilds."""
    cards: dict[str, Card] = {}
    for color in colors:
        for number in range(10):
            code = f"{color}{number}"
            cards[code] = Card(code, color, "number", number, number, str(number))
        for face, (kind, points) in CLASSIC_ACTIONS.items():
            code = f"{color}{face}"
            cards[code] = Card(code, color, kind, None, points, face)
    for code, kind in {**CLASSIC_WILDS, **(extra_wilds or {})}.items():
        cards[code] = Card(code, None, kind, None, WILD_POINTS, code)
    return cards


def classic_deck(colors: Mapping[str, str] = CLASSIC_COLORS, extra_wilds: Mapping[str, int] | None = None
                 ) -> list[str]:
    """C-D1's 108 codes (one 0 and two each of 1-9, +2, R, S per colour; 4 W, 4 W+4) plus extra wilds."""
    codes: list[str] = []
    for color in colors:
        codes.append(f"{color}0")
        codes += [f"{color}{n}" for n in range(1, 10)] * 2
        codes += [f"{color}{face}" for face in CLASSIC_ACTIONS] * 2
    codes += ["W"] * 4 + ["W+4"] * 4
    for code, count in (extra_wilds or {}).items():
        codes += [code] * count
    return codes


def classic_help(colors: Mapping[str, str], extra_wilds: Mapping[str, str] | None = None) -> str:
    letters = "/".join(colors)
    extra = [f"{code} ({kind})" for code, kind in (extra_wilds or {}).items()]
    wilds = ", ".join(["W (Wild)", "W+4 (Wild Draw Four)", *extra])
    return (f"a card code is a colour letter {letters} and a number 0-9 (e.g. {next(iter(colors))}7) or +2 "
            f"(Draw Two), R (Reverse), S (Skip); or {wilds}")
