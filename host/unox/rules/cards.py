"""Cards and colours: one immutable `Card` per code, parsed and formatted the same way everywhere.

A code is a colour letter plus a face (`G7`, `RH`, `BR`, `YS`, `GD`, `RT`) or a wild code (`W`, `WA`, `WF`).
Cards with the same code are the same object, so the hot path compares and hashes cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass

COLORS = ("R", "Y", "G", "B")
COLOR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
_COLOR_BY_TEXT = {**{c.lower(): c for c in COLORS}, **{name: c for c, name in COLOR_NAMES.items()}}

KINDS = (
    "number",
    "hit2",
    "reverse",
    "skip",
    "discard_all",
    "trade",
    "wild",
    "wild_all_hit",
    "wild_hit_fire",
)
WILD_KINDS = frozenset({"wild", "wild_all_hit", "wild_hit_fire"})

# face letter after the colour -> (kind, points)
_ACTION_FACES = {
    "H": ("hit2", 20),
    "R": ("reverse", 20),
    "S": ("skip", 20),
    "D": ("discard_all", 30),
    "T": ("trade", 30),
}
_WILD_CODES = {"W": "wild", "WA": "wild_all_hit", "WF": "wild_hit_fire"}
_WILD_POINTS = 50


class CardError(ValueError):
    """A card code or colour that does not exist; the message says what is accepted."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card face. `face` is the code without its colour, so matching by number or symbol is one test.

    Cards are interned (`CARDS`, `parse_card`): equality is identity, which keeps hand searches cheap.
    """

    code: str
    color: str | None
    kind: str
    number: int | None
    points: int
    face: str

    @property
    def is_wild(self) -> bool:
        return self.color is None

    def __str__(self) -> str:
        return self.code


def _build_cards() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for color in COLORS:
        for number in range(1, 10):
            code = f"{color}{number}"
            cards[code] = Card(code, color, "number", number, number, str(number))
        for face, (kind, points) in _ACTION_FACES.items():
            code = f"{color}{face}"
            cards[code] = Card(code, color, kind, None, points, face)
    for code, kind in _WILD_CODES.items():
        cards[code] = Card(code, None, kind, None, _WILD_POINTS, code)
    return cards


CARDS: dict[str, Card] = _build_cards()

_HELP = (
    "a card code is a colour letter R/Y/G/B and a number 1-9 (e.g. G7) or H (Hit 2), R (Reverse), "
    "S (Skip), D (Discard All), T (Trade Hands); or W, WA (Wild All Hit), WF (Wild Hit-Fire)"
)


def parse_card(code: str | Card) -> Card:
    """Turn a code such as `g7` or ` RH ` into its Card; a Card passes through unchanged."""
    if isinstance(code, Card):
        return code
    card = CARDS.get(code)  # fast path: already canonical
    if card is not None:
        return card
    if not isinstance(code, str):
        raise CardError(f"card must be a code such as 'G7', not {code!r}: {_HELP}")
    card = CARDS.get(code.strip().upper())
    if card is None:
        if code.strip().upper() in {f"{c}0" for c in COLORS}:
            raise CardError(f"there are no zeros in UNO Extreme ({code!r}): use a number 1-9")
        raise CardError(f"unknown card {code!r}: {_HELP}")
    return card


def format_card(card: Card | str) -> str:
    """The canonical code of a card (`parse_card` then `.code`)."""
    return parse_card(card).code


def parse_color(text: str) -> str:
    """Accept `red`, `Red`, `R`, `r` ... and return the letter `R`."""
    if isinstance(text, str):
        letter = _COLOR_BY_TEXT.get(text.strip().lower())
        if letter is not None:
            return letter
    raise CardError(f"unknown colour {text!r}: use red, yellow, green or blue (or R, Y, G, B)")


def color_name(letter: str | None) -> str | None:
    """`R` -> `red`; None stays None (no colour named yet)."""
    return COLOR_NAMES[letter] if letter is not None else None


# What people call each kind of card, for every front end; a kind not listed is named from its own words
# ("item_wild": Item Wild), so an edition's new kind needs no entry here.
KIND_NAMES = {
    "hit2": "Hit 2", "draw2": "Draw Two", "reverse": "Reverse", "skip": "Skip", "discard_all": "Discard All",
    "trade": "Trade Hands", "wild": "Wild", "wild_all_hit": "Wild All Hit", "wild_hit_fire": "Wild Hit-Fire",
    "wild_draw4": "Wild Draw Four",
}


def kind_name(kind: str) -> str:
    return KIND_NAMES.get(kind) or kind.replace("_", " ").title()
