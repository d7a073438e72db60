"""What a table night knows beyond the rules' state, in plain data: no launcher, no I/O, no front end.

`Context` is the night's bookkeeping (the launcher fault and who presses again, the S1 draw, the reload
advice); `Prompt` is one thing the table waits for and who must do it; `Refused` is a request the night
does not take, its message an instruction to a person. Every front end reads these; none defines them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from unox.words import counted


class Refused(ValueError):
    """A line or a request the table cannot take; the message says what to do instead. Nothing changed.
    `code` is the table protocol's error code when the table or the night refused it (None for a typed line
    the grammar could not read), so that every front end names a refusal alike."""

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        self.code = code


@dataclass
class Context:
    """What the session knows beyond S: the launcher fault, the S1 draw, reload advice, the driver."""

    fault: str | None = None
    presser: str | None = None  # who pressed when the launcher jammed: they press again once it is clear
    dealer: str | None = None
    draws: dict[str, str] = field(default_factory=dict)
    drawing: list[str] = field(default_factory=list)
    reload_due: bool = False
    sim: bool = False
    rules: Any = None  # the edition's Ruleset (None: Extreme)
    launcher: bool = False  # a launcher is attached (sim or hardware), not `--launcher script`


@dataclass
class Prompt:
    """`who` must do `text`; `who` is None when the whole table is asked."""

    who: str | None
    text: str

    def line(self) -> str:
        return f"{self.who}: {self.text}" if self.who else self.text


def next_seat(players: Sequence[str], player: str, active: Sequence[str] | None = None) -> str:
    """The first seat to the left (clockwise) still in the game (G3): the next dealer."""
    active = players if active is None else active
    start = list(players).index(player)
    for step in range(1, len(players) + 1):
        candidate = players[(start + step) % len(players)]
        if candidate in active:
            return candidate
    return player


def next_presser(state: dict) -> str | None:
    """Who the next press belongs to: the first who owes presses, else the player whose turn it is."""
    owed = state.get("owed") or []
    return owed[0]["player"] if owed else state.get("turn")



def settle_prompt(pending: dict) -> Prompt:
    """A fire the table stopped in (a crash, a link lost while firing): only a person's count settles it."""
    who, cmd = pending.get("player"), pending.get("cmd", "press")
    whose = f"{who}'s {cmd}" if who else f"the {cmd}"
    asked = pending.get("requested")
    text = (
        f"the launcher was asked for {counted(asked, 'card')} for {whose} and never said how many came out "
        "(the table stopped, or the link was lost); the table asks it again once it answers. If it cannot "
        "tell, count the cards that came out and type settle N (e.g. settle 2; settle 0 if none came out). "
        "Nothing else is taken until then, and nothing is fired again"
    )
    return Prompt(who, text)
