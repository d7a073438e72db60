"""The prompt line: what the table expects next and who must do it, derived from the state alone.

Someone who has never read the docs reads this line and knows what to do, so it names the person, the
action and the key or words to type.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from unox.launcher.faults import fault_action
from unox.rules.cards import COLOR_NAMES
from unox.ui.commands import card_meaning


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


@dataclass
class Prompt:
    """`who` must do `text`; `who` is None when the whole table is asked."""

    who: str | None
    text: str

    def line(self) -> str:
        return f"{self.who}: {self.text}" if self.who else self.text


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
        return Prompt(ctx.dealer, "turn up the first card and type it: flip G7 (flip W red for a wild)")
    if phase == "hand_over":
        return Prompt(None, "hand over: count the points left in each hand and type score Ann=0 Bob=23 ...")
    prompt = _turn_prompt(state, ctx)
    if ctx.reload_due:
        prompt.text += (". Launcher nearly empty: take the top card off the discard pile, shuffle the rest "
                        "into the launcher, then type reload")
    return prompt


def settle_prompt(pending: dict) -> Prompt:
    """A fire the table stopped in (a crash, a link lost while firing): only a person's count settles it."""
    who, cmd = pending.get("player"), pending.get("cmd", "press")
    whose = f"{who}'s {cmd}" if who else f"the {cmd}"
    asked = pending.get("requested")
    return Prompt(who, f"the launcher fired {asked} card(s) for {whose} and never said how many came out ("
                  "the table stopped, or the link was lost); the table asks it again once it answers. If it "
                  "cannot tell, count the cards that came out and type settle N (e.g. settle 2; settle 0 if "
                  "none came out). Nothing else is taken until then, and nothing is fired again")


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
        return Prompt(first["player"], f"{press_hint(ctx)}: {n} press{'es' if n != 1 else ''} owed")
    turn = state.get("turn")
    top = state.get("top") or ""
    color = COLOR_NAMES.get(state.get("color") or "", state.get("color"))
    shown = f"{card_meaning(top)}, colour {color}" if top.startswith("W") else card_meaning(top)
    text = f"play a card on {top} ({shown}) by typing it, e.g. R5, or {press_hint(ctx)}"
    catchable = state.get("uno") or []
    if catchable:
        text += (f". {', '.join(catchable)} may call UNO (uno NAME) or be caught (catch NAME by WHO) until "
                 "the next player begins")
    return Prompt(turn, text)
