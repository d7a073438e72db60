"""The table's narration: sentences for people about what just happened, and what to do about a fault.

An accepted request is told from the request and the table's state before and after it: one headline, then
one line per visible consequence (presses owed, direction, the end of a hand, an empty launcher). The
consequences come from comparing the two states, never from re-implementing a rule. The table runtime sends
these lines to its listeners and the UI's session logs the very same lines, so a `--plain` transcript says
exactly what the table's log says.
"""

from __future__ import annotations

from typing import Any

from unox.launcher.faults import fault_action as launcher_fault_action
from unox.rules.cards import COLOR_NAMES
from unox.words import counted

State = dict[str, Any]


def describe(request: dict[str, Any], before: State, after: State) -> list[str]:
    """One line for the accepted request itself, then one per visible consequence."""
    lines = [_headline(request, before, after)]
    lines += _consequences(before, after)
    return [line for line in lines if line]


def undone(request: dict[str, Any], before: State, after: State) -> str:
    """The line for an undo: `before`/`after` are the states before and after the undo itself."""
    return "Undone: " + _headline(request, after, before)


def fault_action(fault: str) -> str:
    """The launcher fault's instruction as a sentence for the table's log."""
    text = launcher_fault_action(fault)
    key = ' Send {"cmd":"reload"} once it is loaded.' if fault == "empty" else ""
    return text[0].upper() + text[1:] + "." + key


def whats_next(state: State) -> str:
    """What the table waits for now, said in the JSON table protocol (the UI's prompt has its own keys)."""
    phase = state.get("phase")
    if phase == "deal":
        return 'Deal a new hand: send {"cmd":"deal","dealer":NAME}.'
    if phase == "flip" and state.get("first_fired"):
        return 'Report the first card the launcher turned up: send {"cmd":"flip","card":CODE}.'
    if phase == "flip":
        return 'Turn up the first card: send {"cmd":"flip","card":CODE}.'
    if phase == "hand_over":
        return 'The hand is over: send {"cmd":"score","points":{...}} with the points left in each hand.'
    if phase == "game_over":
        return f"The game is over; {state.get('winner')} won. Start a new table for another game."
    pending = state.get("pending")
    if pending:  # an edition's special card waits for its player's choice: nothing else goes first
        why = pending.get("why", "the card just played")
        return f'{pending["player"]} sends {{"cmd":"{pending["cmd"]}"}}: {why}.'
    owed = state.get("owed") or []
    if owed and "draws" in owed[0]:
        return f"{owed[0]['player']} draws {owed[0]['draws']} from the launcher."
    if owed:
        first = owed[0]
        times = counted(first.get("presses") or 0, "time")
        what = "until the launcher fires" if first.get("until_fire") else times
        return f"{first['player']} presses {what}."
    if "drawn" in state:  # a draw edition
        if state["drawn"] == state.get("turn"):
            return f"{state.get('turn')} plays the card drawn or passes."
        return f"{state.get('turn')} plays a card or draws."
    return f"{state.get('turn')} plays a card or presses."


def nobody_owes(state: State) -> str:
    """The message for a launcher press that belongs to nobody."""
    return "Nobody owes a press now, so nothing was fired. " + whats_next(state)


def _headline(request: dict[str, Any], before: State, after: State) -> str:
    cmd = request.get("cmd")
    player = request.get("player")
    if cmd == "deal":
        if request.get("launcher"):  # DL4: nobody holds a card yet; each draws their 7 from the launcher
            return f"{request.get('dealer')} deals from the launcher: each player draws 7 from it in turn."
        return f"{request.get('dealer')} deals 7 cards to each player."
    if cmd == "flip":
        if after.get("first_fired"):
            return "The launcher turns up the first card (DL3): say which it is."
        if after.get("phase") == "flip":
            card = request.get("card")
            if after.get("discard", 0) > before.get("discard", 0):  # MK-S4: it stays, covered
                return f"First card turned up: {card}: ignored (S4), the next card is turned up on it."
            return f"First card turned up: {card}: back into the launcher (S4), turn up another."
        return f"First card turned up: {request.get('card')}{_color_note(request, after)}."
    if cmd == "play":
        return _play_line(request, after)
    if cmd == "press":
        return _press_line(player, request.get("fired"), before, after)
    if cmd == "draw":
        fired = request.get("fired") or 0
        return f"{player} draws {counted(fired, 'card')} ({player} holds " \
               f"{after.get('hands', {}).get(player)})."
    if cmd == "pass":
        return f"{player} keeps the card drawn and passes (C-T2)."
    if cmd == "challenge":
        owed = after.get("owed") or []
        verdict = "guilty" if owed and owed[0].get("player") != player else "not guilty"
        return f"{player} challenges the Wild Draw Four (C-A7): {verdict}."
    if cmd == "uno":
        return f"{player} calls UNO."
    if cmd == "catch":
        return f"{request.get('by')} catches {player} without UNO (U2)."
    if cmd == "penalty":
        rule = "P1: advice" if request.get("kind") == "advice" else "P2: wrong card, taken back"
        return f"Penalty for {player} ({rule})."
    if cmd == "reload":
        return f"Launcher reloaded (R1): {counted(after.get('launcher', {}).get('cards', 0), 'card')} inside."
    if cmd == "score":
        pts = ", ".join(f"{p} {n}" for p, n in request.get("points", {}).items())
        return f"Points left in the hands: {pts}."
    return _edition_line(request, before, after) or f"{cmd}: {request}"


def _edition_line(request: dict[str, Any], before: State, after: State) -> str | None:
    """An edition's own request, told by its ruleset (`Ruleset.narrate`)."""
    from unox.rules.editions import get_rules
    from unox.rules.errors import RuleError

    try:
        rules = get_rules(after.get("rules", ""))
    except RuleError:
        return None
    return rules.narrate(request, before, after)


def _color_note(request: dict[str, Any], after: State) -> str:
    if after.get("color") is None:
        return ""  # Mario Kart's Item Wild names none: its item card will (MK-I1)
    if request.get("color") or (after.get("top") or "").startswith("W"):
        return f", colour {COLOR_NAMES.get(after.get('color') or '', after.get('color'))}"
    return ""


def _play_line(request: dict[str, Any], after: State) -> str:
    line = f"{request['player']} plays {request['card']}{_color_note(request, after)}"
    if request.get("target"):
        line += f" and trades hands with {request['target']}"
    if request.get("count"):
        line += f", discarding {request['count']} more"
    return line + "."


def _press_line(player: str | None, fired: int | None, before: State, after: State) -> str:
    if fired is None:
        fired = before.get("launcher", {}).get("cards", 0) - after.get("launcher", {}).get("cards", 0)
    if fired <= 0:
        return f"{player} presses: one beep, nothing fired."
    held = after.get("hands", {}).get(player)
    return f"{player} presses: {counted(fired, 'card')} fired ({player} holds {held})."


def _owed_text(entry: dict[str, Any]) -> str:
    if entry.get("until_fire"):
        return f"{entry['player']} presses until the launcher fires"
    if "draws" in entry:
        n = entry["draws"]
        return f"{entry['player']} owes {n} draw{'s' if n != 1 else ''}"
    n = entry.get("presses", 0)
    return f"{entry['player']} owes {n} press{'es' if n != 1 else ''}"


def _consequences(before: State, after: State) -> list[str]:
    lines: list[str] = []
    if before.get("direction") != after.get("direction") and after.get("phase") == "turn":
        lines.append(f"Play now goes {after.get('direction')}.")
    owed_after = after.get("owed") or []
    if owed_after and owed_after != (before.get("owed") or []):
        lines.append("Owed: " + "; ".join(_owed_text(e) for e in owed_after) + ".")
    lines += _launcher_dry(before, after)
    lines += _hand_end(before, after)
    return lines


def _launcher_dry(before: State, after: State) -> list[str]:
    """R2: once the table's count of cards inside reaches zero, say to reload before the next press."""
    cards = (after.get("launcher") or {}).get("cards")
    if cards == 0 and (before.get("launcher") or {}).get("cards") != 0 and after.get("phase") == "turn":
        return ["The launcher should be empty now: reload it (R2)."]
    return []


def _hand_end(before: State, after: State) -> list[str]:
    lines: list[str] = []
    out = [p for p, n in (after.get("hands") or {}).items() if n == 0]
    if before.get("phase") == "turn" and after.get("phase") != "turn" and out:
        lines.append(f"{out[0]} has gone out: the hand is over.")
    if before.get("scores") != after.get("scores"):
        totals = ", ".join(f"{p} {n}" for p, n in (after.get("scores") or {}).items())
        lines.append(f"Scores: {totals}.")
    dropped = [p for p in after.get("dropped") or [] if p not in (before.get("dropped") or [])]
    if dropped:
        lines.append(f"{', '.join(dropped)} reached the limit and {'is' if len(dropped) == 1 else 'are'} "
                     "out of the game (G3).")
    if after.get("phase") == "game_over" and before.get("phase") != "game_over":
        winner = after.get("winner")
        lines.append(f"Game over: {winner} wins with {(after.get('scores') or {}).get(winner)} points.")
    return lines
