"""The prompt line: what the table expects next and who must do it, derived from the state alone.

Someone who has never read the docs reads this line and knows what to do, so it names the person, the
action and the key or words to type.
"""

from __future__ import annotations

from typing import Any

from unox.launcher.faults import fault_action
from unox.table.night_context import Context, Prompt, settle_prompt
from unox.ui.commands import card_meaning, color_name, flip_examples, request_usage, rules_of
from unox.words import counted


def press_hint(ctx: Context) -> str:
    if ctx.sim:
        return "press the launcher button (type press on the simulated one)"
    return "press the launcher button"


def prompt_for(state: dict, ctx: Context) -> Prompt:
    """The single most urgent thing the table waits for."""
    pending = state.get("unsettled")
    if pending:
        return settle_prompt(pending)
    if ctx.fault:
        key = "; then type reload once it is loaded" if ctx.fault == "empty" else ""
        again = f" ({ctx.presser} is the one to press again)" if ctx.presser else ""
        return Prompt(None, "LAUNCHER: " + fault_action(ctx.fault) + again + key)
    phase = state.get("phase")
    if phase == "game_over":
        return Prompt(None, f"game over: {state.get('winner')} wins. Type quit to leave.")
    if phase == "deal":
        return _deal_prompt(state, ctx)
    if phase == "flip":
        return _flip_prompt(state, ctx)
    if phase == "hand_over":
        return Prompt(None, "hand over: count the points left in each hand and type score Ann=0 Bob=23 ...")
    rules = rules_of(state, ctx.rules)
    prompt = _turn_prompt(state, ctx) if rules is None or not rules.draws else _draw_turn_prompt(state, rules)
    if ctx.reload_due:
        prompt.text += (". Launcher nearly empty: take the top card off the discard pile, shuffle the rest "
                        "into the launcher, then type reload")
    return prompt


def _flip_prompt(state: dict, ctx: Context) -> Prompt:
    """S4; DL3: a draw edition's launcher fires the first card, then the table types which it is."""
    rules = rules_of(state, ctx.rules)
    card, wild = flip_examples(rules)
    if rules is not None and rules.draws and ctx.launcher and not state.get("owed"):
        if state.get("first_fired"):
            return Prompt(ctx.dealer, f"type the card the launcher turned up: {card} ({wild} for a wild)")
        return Prompt(ctx.dealer, f"the launcher turns up the first card: type flip, or {press_hint(ctx)}")
    return Prompt(ctx.dealer, f"turn up the first card and type it: {card} ({wild} for a wild)")


def _deal_prompt(state: dict, ctx: Context) -> Prompt:
    if ctx.dealer:
        return Prompt(ctx.dealer, "deal 7 cards to each player, put the rest in the launcher, then type deal")
    drawing = ctx.drawing or list(state.get("players") or state.get("hands") or ())
    waiting = ", ".join(p for p in drawing if p not in ctx.draws)
    if ctx.drawing:
        return Prompt(None, f"S1: a tie for the highest card: {waiting} draw again (draw NAME CARD)")
    return Prompt(None, f"S1: each player takes a card; the highest number deals. Type draw NAME CARD "
                  f"(still to draw: {waiting}), or deal NAME to choose the dealer")


def _turn_prompt(state: dict, ctx: Context) -> Prompt:
    owed = state.get("owed") or []
    if owed:
        first = owed[0]
        if first.get("until_fire"):
            return Prompt(first["player"], f"{press_hint(ctx)} until cards come out (Wild Hit-Fire)")
        n = first.get("presses", 1)
        return Prompt(first["player"], f"{press_hint(ctx)}: {counted(n, 'press', 'presses')} owed")
    turn = state.get("turn")
    top = state.get("top") or ""
    color = color_name(state.get("color"))
    shown = f"{card_meaning(top)}, colour {color}" if top.startswith("W") else card_meaning(top)
    text = f"play a card on {top} ({shown}) by typing it, e.g. R5, or {press_hint(ctx)}"
    return Prompt(turn, text + _catch_hint(state))


def _catch_hint(state: dict) -> str:
    """Who may still call UNO or be caught, said after the turn's prompt (empty when nobody)."""
    catchable = state.get("uno") or []
    if not catchable:
        return ""
    return (f". {', '.join(catchable)} may call UNO (uno NAME) or be caught (catch NAME by WHO) until "
            "the next player begins")


def _draw_turn_prompt(state: dict, rules: Any) -> Prompt:
    """A draw edition's turn: its own choice, a Wild Draw Four to challenge, draws owed, a card drawn."""
    pending = state.get("pending")
    if pending:
        why = f" ({pending['why']})" if pending.get("why") else ""
        return Prompt(pending.get("player"), f"your choice{why}: type {request_usage(pending['cmd'], rules)}")
    challenge = state.get("challenge")
    if challenge:
        victim, against = challenge["player"], challenge.get("against")
        return Prompt(victim, f"{against} played a Wild Draw Four: challenge {victim} guilty (the hand "
                      f"held the colour in force: {against} draws) or challenge {victim} innocent, or draw "
                      f"{victim} to take the cards")
    owed = state.get("owed") or []
    if owed:
        first = owed[0]
        n = first.get("draws", first.get("presses", 1))
        return Prompt(first["player"], f"draw {n} card{'s' if n != 1 else ''}: type draw {first['player']} "
                      "(the launcher deals them) or press the launcher button")
    turn = state.get("turn")
    if state.get("drawn"):
        return Prompt(state["drawn"], f"play the card just drawn (type it) or keep it: pass {state['drawn']}")
    top = state.get("top") or ""
    color = color_name(state.get("color"), rules)
    meaning = card_meaning(top, rules)
    wild = top in rules.cards and rules.cards[top].color is None
    shown = f"{meaning}, colour {color}" if wild else meaning
    example = next(iter(rules.cards))
    text = f"play a card on {top} ({shown}) by typing it, e.g. {example}, or draw one: draw {turn}"
    return Prompt(turn, text + _catch_hint(state))
