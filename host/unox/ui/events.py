"""Log lines for accepted requests: what happened, read off the request and the state before and after.

The same lines feed the textual UI's event log and the plain transcript, so a transcript says exactly what
the screen said. Consequences (presses owed, direction, the end of a hand) come from comparing the two
states, never from re-implementing a rule.
"""

from __future__ import annotations

from unox.rules.cards import COLOR_NAMES


def describe(request: dict, before: dict, after: dict) -> list[str]:
    """One line for the request itself, then one per visible consequence."""
    lines = [_headline(request, before, after)]
    lines += _consequences(before, after)
    return [line for line in lines if line]


def _headline(request: dict, before: dict, after: dict) -> str:
    cmd = request.get("cmd")
    player = request.get("player")
    if cmd == "deal":
        return f"{request.get('dealer')} deals 7 cards to each player."
    if cmd == "flip":
        if after.get("phase") == "flip":
            card = request.get("card")
            return f"First card turned up: {card}: back into the launcher (S4), turn up another."
        return f"First card turned up: {request.get('card')}{_color_note(request, after)}."
    if cmd == "play":
        return _play_line(request, after)
    if cmd == "press":
        return _press_line(player, request.get("fired"), before, after)
    if cmd == "uno":
        return f"{player} calls UNO."
    if cmd == "catch":
        return f"{request.get('by')} catches {player} without UNO (U2)."
    if cmd == "penalty":
        rule = "P1: advice" if request.get("kind") == "advice" else "P2: wrong card, taken back"
        return f"Penalty for {player} ({rule})."
    if cmd == "reload":
        return f"Launcher reloaded (R1): {after.get('launcher', {}).get('cards')} cards inside."
    if cmd == "score":
        pts = ", ".join(f"{p} {n}" for p, n in request.get("points", {}).items())
        return f"Points left in the hands: {pts}."
    return f"{cmd}: {request}"


def _color_note(request: dict, after: dict) -> str:
    if request.get("color") or (after.get("top") or "").startswith("W"):
        return f", colour {COLOR_NAMES.get(after.get('color') or '', after.get('color'))}"
    return ""


def _play_line(request: dict, after: dict) -> str:
    line = f"{request['player']} plays {request['card']}{_color_note(request, after)}"
    if request.get("target"):
        line += f" and trades hands with {request['target']}"
    if request.get("count"):
        line += f", discarding {request['count']} more"
    return line + "."


def _press_line(player: str | None, fired: int | None, before: dict, after: dict) -> str:
    if fired is None:
        fired = before.get("launcher", {}).get("cards", 0) - after.get("launcher", {}).get("cards", 0)
    if fired <= 0:
        return f"{player} presses: one beep, nothing fired."
    held = after.get("hands", {}).get(player)
    return f"{player} presses: {fired} card{'s' if fired != 1 else ''} fired ({player} holds {held})."


def _owed_text(entry: dict) -> str:
    if entry.get("until_fire"):
        return f"{entry['player']} presses until the launcher fires"
    n = entry.get("presses", 0)
    return f"{entry['player']} owes {n} press{'es' if n != 1 else ''}"


def _consequences(before: dict, after: dict) -> list[str]:
    lines: list[str] = []
    if before.get("direction") != after.get("direction") and after.get("phase") == "turn":
        lines.append(f"Play now goes {after.get('direction')}.")
    owed_after = after.get("owed") or []
    if owed_after and owed_after != (before.get("owed") or []):
        lines.append("Owed: " + "; ".join(_owed_text(e) for e in owed_after) + ".")
    lines += _hand_end(before, after)
    return lines


def _hand_end(before: dict, after: dict) -> list[str]:
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
