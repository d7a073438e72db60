"""Short sentences for people: what just happened at the table, and what to do about a launcher fault.

The table runtime sends these to its event listeners (the textual UI's log, `--plain` transcripts).
"""

from __future__ import annotations

from typing import Any

from unox.launcher.faults import fault_action as launcher_fault_action


def fault_action(fault: str) -> str:
    """The launcher fault's instruction as a sentence for the table's log."""
    text = launcher_fault_action(fault)
    key = ' Send {"cmd":"reload"} once it is loaded.' if fault == "empty" else ""
    return text[0].upper() + text[1:] + "." + key


def describe(request: dict[str, Any]) -> str:
    """One accepted request, as a line in the table's log."""
    cmd = request["cmd"]
    player = request.get("player", "")
    if cmd == "deal":
        return f"{request['dealer']} deals a new hand"
    if cmd == "flip":
        return f"{request['card']} is turned up" + _colour(request)
    if cmd == "play":
        return _describe_play(request)
    if cmd == "press":
        fired = request["fired"]
        return f"{player} presses: {fired} card{'s' if fired != 1 else ''} fired"
    if cmd == "uno":
        return f"{player} calls UNO"
    if cmd == "catch":
        return f"{request['by']} catches {player} without UNO: {player} presses twice (U2)"
    if cmd == "penalty":
        rule = "P1: 4 presses" if request["kind"] == "advice" else "P2: the card goes back, 2 presses"
        return f"{player} is penalised for {request['kind'].replace('_', ' ')} ({rule})"
    if cmd == "reload":
        return "the discard pile goes back into the launcher (R1/R2)"
    if cmd == "score":
        return "the hand is scored: " + ", ".join(f"{p} {n}" for p, n in request["points"].items())
    return cmd


def _describe_play(request: dict[str, Any]) -> str:
    text = f"{request['player']} plays {request['card']}" + _colour(request)
    if "target" in request:
        text += f", trading hands with {request['target']}"
    if "count" in request:
        text += f", discarding {request['count']} more"
    return text


def _colour(request: dict[str, Any]) -> str:
    return f" and names {request['color']}" if "color" in request else ""


def whats_next(state: dict[str, Any]) -> str:
    """What the table waits for now, said to the people at it."""
    phase = state.get("phase")
    if phase == "deal":
        return 'Deal a new hand: send {"cmd":"deal","dealer":NAME}.'
    if phase == "flip":
        return 'Turn up the first card: send {"cmd":"flip","card":CODE}.'
    if phase == "hand_over":
        return 'The hand is over: send {"cmd":"score","points":{...}} with the points left in each hand.'
    if phase == "game_over":
        return f"The game is over; {state.get('winner')} won. Start a new table for another game."
    owed = state.get("owed") or []
    if owed:
        first = owed[0]
        what = "until the launcher fires" if first.get("until_fire") else f"{first.get('presses')} time(s)"
        return f"{first['player']} presses {what}."
    return f"{state.get('turn')} plays a card or presses."


def news(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Lines for what changed beyond the request itself: a hand won, a game won, a launcher run dry."""
    lines = []
    if after.get("phase") == "hand_over" and before.get("phase") != "hand_over":
        who = after.get("went_out") or "a player"
        lines.append(f"{who} went out: the hand is over. " + whats_next(after))
    if after.get("phase") == "game_over" and before.get("phase") != "game_over":
        lines.append(f"{after.get('winner')} wins the game!")
    cards = after.get("launcher", {}).get("cards")
    if cards == 0 and before.get("launcher", {}).get("cards") != 0 and after.get("phase") == "turn":
        lines.append('The launcher should be empty now: reload it (R2) and send {"cmd":"reload"}.')
    return lines


def nobody_owes(state: dict[str, Any]) -> str:
    """The message for a launcher press that belongs to nobody."""
    return "Nobody owes a press now, so nothing was fired. " + whats_next(state)
