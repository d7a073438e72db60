"""The table's words (from `views`) painted for the terminal: cards in their colours, the turn highlighted.

A red card shows in red, a wild in its own style, and the player whose turn it is has a marker, a bold
highlighted row and the words "to play", so a colour-blind player or a monochrome terminal loses nothing.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any

from rich.table import Table as RichTable
from rich.text import Text

from unox.rules.cards import CARDS
from unox.ui.commands import card_meaning, edition, rules_of
from unox.ui.prompt import Context
from unox.ui.views import launcher_lines, player_rows, table_lines

if TYPE_CHECKING:
    from unox.rules.ruleset import Ruleset

CARD_STYLES = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold dodger_blue1"}
# Any edition's colours by name; a colour not listed is shown bold in its own name if the terminal knows it.
COLOR_STYLES = {
    "red": "bold red", "yellow": "bold yellow", "green": "bold green", "blue": "bold dodger_blue1",
    "turquoise": "bold dark_turquoise", "pink": "bold hot_pink", "orange": "bold dark_orange",
    "purple": "bold medium_purple",
}
WILD_STYLE = "bold black on bright_white"
TURN_STYLE = "bold reverse"
# A card code standing alone; a rule ID in brackets, "(R2)" or "R1/R2", is not a card.
CARD_CODE = re.compile(r"(?<![(/\w])(?:[RYGB](?:[1-9]|[HRSDT])|W[AF]?)(?![\w/)])")


@cache
def card_pattern(rules: Ruleset | None = None) -> re.Pattern:
    """A card code standing alone, of Extreme or of the edition (longest codes first: `W+4` before `W`)."""
    rules = edition(rules)
    if rules is None:
        return CARD_CODE
    codes = "|".join(re.escape(code) for code in sorted(rules.cards, key=len, reverse=True))
    return re.compile(rf"(?<![(/\w+])(?:{codes})(?![\w/)+])")


def card_style(code: str, rules: Ruleset | None = None) -> str:
    rules = edition(rules)
    if rules is None:
        return WILD_STYLE if code.startswith("W") else CARD_STYLES.get(code[:1], WILD_STYLE)
    card = rules.cards.get(code)
    if card is None or card.color is None:
        return WILD_STYLE
    name = rules.color_names[card.color]
    return COLOR_STYLES.get(name, f"bold {name}")


def explained(line: str, rules: Ruleset | None = None) -> str:
    """Action and wild cards spelled out where they show in a log line: `RD` -> `RD (red Discard All)`."""
    rules = edition(rules)
    cards = CARDS if rules is None else rules.cards

    def spell(match: re.Match) -> str:
        code = match.group()
        card = cards.get(code)
        if card is None or card.kind == "number" or line[match.end():match.end() + 2] == " (":
            return code
        return f"{code} ({card_meaning(code, rules)})"

    return card_pattern(rules).sub(spell, line)


def painted(line: str, rules: Ruleset | None = None) -> Text:
    """One line of text with every card code in it coloured (in the edition's colours)."""
    rules = edition(rules)
    text = Text(line)
    for match in card_pattern(rules).finditer(line):
        text.stylize(card_style(match.group(), rules), match.start(), match.end())
    return text


def players_grid(state: dict, called: set[str]) -> RichTable:
    """The seats in order: cards, score, UNO and what they owe; the turn player's row stands out."""
    grid = RichTable(box=None, expand=True, pad_edge=False)
    # One line a seat, whatever its notes (issue 13): at 80x24 ten seats that wrapped pushed the prompt away.
    # The turn marker leads the name in one column: as a column of its own it was the first to shrink to
    # nothing (at 60x20, or beside a long note); a cut name keeps it. The numbers keep their width (`car…`).
    rows = player_rows(state, called, short=True)
    longest = max((len(name) for _, name, *_ in rows), default=4)
    widths = {"player": min(longest + 2, 12), "hand": 4, "pts": 4}  # the notes give way first
    for column, justify in (("player", "left"), ("hand", "right"), ("pts", "right"), ("UNO / owes", "left")):
        grid.add_column(column, justify=justify, no_wrap=True, overflow="ellipsis",  # type: ignore[arg-type]
                        min_width=widths.get(column))
    for marker, name, cards, score, extra in rows:
        style = TURN_STYLE if marker else ""
        grid.add_row(Text(f"{marker or ' '} {name}"), Text(cards), Text(score), Text(extra), style=style)
    return grid


def table_panel(state: dict, ctx: Context, status: Any) -> Text:
    """The phase, the turn, the top card spelled out, what is owed, then the launcher's lines."""
    out = Text(no_wrap=True, overflow="ellipsis")  # a line a fact: a long one is cut, never wrapped
    rules = rules_of(state, ctx.rules)
    for line in table_lines(state, rules):
        if line.startswith("Turn:") and state.get("turn"):
            label, _, value = line.partition(":")
            out.append(f"{label}:")
            out.append(value, style=TURN_STYLE)
        else:
            out.append_text(painted(line, rules))
        out.append("\n")
    for line in launcher_lines(state, ctx, status):
        faulty = ctx.fault and line.startswith("Fault:") or line.startswith("Link: DOWN")
        out.append(line, style="bold red" if faulty else "")
        out.append("\n")
    out.rstrip()
    return out
