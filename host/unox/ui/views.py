"""The table drawn as text: the same words for the textual panels and the plain `state` printout.

Each function reads the state dict `S` of the table protocol (plus the session's context and the launcher's
last status) and returns lines; nothing here knows about the terminal.
"""

from __future__ import annotations

from typing import Any

from unox.ui.commands import card_meaning, color_name, rules_of
from unox.ui.prompt import Context
from unox.words import counted

ARROWS = {"left": "left (clockwise)", "right": "right (anticlockwise)"}
TURN_MARKER = "▶"


def owed_by(state: dict, *, short: bool = False) -> dict[str, str]:
    """What each player owes the launcher right now, in words; `short` for a narrow column (the unit is in
    its heading), so a row of the players panel never wraps at 80 columns."""
    out: dict[str, str] = {}
    for entry in state.get("owed") or []:
        if entry.get("until_fire"):
            out[entry["player"]] = "till it fires" if short else "presses until it fires"
        elif "draws" in entry:  # a draw edition: the launcher deals what is owed
            n = entry["draws"]
            out[entry["player"]] = f"draws {n}" + ("" if short else f" card{'s' if n != 1 else ''}")
        else:
            n = entry.get("presses", 0)
            out[entry["player"]] = f"owes {n}" + ("" if short else f" press{'es' if n != 1 else ''}")
    return out


def player_rows(state: dict, called: set[str] | None = None, *, short: bool = False,
                ) -> list[tuple[str, str, str, str, str]]:
    """(marker, name, cards, score, uno/owed) per seat, in seat order; before the deal, the seats with
    nothing yet. `short`: the notes for the players panel's narrow column."""
    rows = []
    owed = owed_by(state, short=short)
    catchable = set(state.get("uno") or [])
    hands = state.get("hands") or dict.fromkeys(state.get("players") or (), "-")  # nobody holds cards yet
    for name, cards in hands.items():
        turn = name == state.get("turn") and state.get("phase") == "turn"
        marker = TURN_MARKER if turn else ""
        if name in catchable:
            uno = "UNO?" if short else "UNO? (catchable)"
        elif called and name in called and cards == 1:
            uno = "UNO called"
        else:
            uno = ""
        doing = owed.get(name, "to play" if turn else "")
        extra = "; ".join(x for x in (uno, doing) if x)
        rows.append((marker, name, str(cards), str((state.get("scores") or {}).get(name, 0)), extra))
    return rows


def table_lines(state: dict, rules: Any = None) -> list[str]:
    """Phase and direction, turn, the top card spelled out (and a wild's colour), what is owed."""
    direction = ARROWS.get(state.get("direction") or "", state.get("direction") or "-")
    lines = [
        f"Phase:     {state.get('phase')}, {direction}",
        f"Turn:      {state.get('turn') or '-'}",
        f"Top card:  {top_card(state, rules)}",
    ]
    owed = owed_by(state)
    lines.append("Owed:      " + ("; ".join(f"{p} {w}" for p, w in owed.items()) if owed else "nothing"))
    if state.get("winner"):
        lines.append(f"Winner:    {state['winner']}")
    return lines


def top_card(state: dict, rules: Any = None) -> str:
    """`RD  red Discard All`; a wild names its colour first (`WF  red, Wild Hit-Fire`): a narrow panel
    cuts the end of the line, and the colour is what the next player must match."""
    top = state.get("top")
    if not top:
        return "-"
    color = state.get("color")
    rules = rules_of(state, rules)
    if top.startswith("W") and color:
        return f"{top}  {color_name(color, rules)}, {card_meaning(top, rules)}"
    return f"{top}  {card_meaning(top, rules)}"


def launcher_lines(state: dict, ctx: Context, status: Any = None) -> list[str]:
    """Cards inside (the host's estimate), the link, the battery, the faults and what to do about them."""
    cards = (state.get("launcher") or {}).get("cards")
    lines = [f"Launcher:  {counted(cards, 'card') if cards is not None else '? cards'} inside (est.)"]
    if status is not None:
        battery = f"{status.battery_mv / 1000:.2f} V" if status.battery_mv else "unknown"
        link = "up" if status.connected else "DOWN"
        lines.append(f"Link: {link}  Battery: {battery}  Beam: {status.cards_counted}")
    lines.append(f"Fault: {ctx.fault.upper()}" if ctx.fault else "Fault: none")
    if ctx.reload_due:
        lines.append("Reload soon (R1): type reload after refilling")
    return lines


def render_state(state: dict, ctx: Context, status: Any = None) -> str:
    """The whole table as plain text, for `state` in the plain loop."""
    out = [f"{'':1} {'player':<12} {'cards':>5} {'score':>5}  notes"]
    for marker, name, cards, score, extra in player_rows(state):
        out.append(f"{marker or ' ':1} {name:<12} {cards:>5} {score:>5}  {extra}")
    out += table_lines(state, ctx.rules)
    out += launcher_lines(state, ctx, status)
    return "\n".join(out)
