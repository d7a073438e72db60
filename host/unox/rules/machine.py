"""The phases of a hand as a `transitions` machine, declared once for the game and for the diagram.

Triggers fire only when the phase changes, never per action, so the hot path stays cheap. The machine is a
plain `Machine` (a nested machine costs about seven times as much per trigger). Owed presses (Hit 2, Wild
All Hit, Wild Hit-Fire, catches, penalties) are an ordered list inside `turn`, not a state of their own: they
come and go with one card in nine, and a trigger costs about as much as a whole play, so a `pressing` state
made the engine a quarter slower. `Game.phase` still reads `pressing` while presses are owed.
"""

from __future__ import annotations

from typing import Any

STATES = ["deal", "flip", "turn", "hand_over", "game_over"]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "cards_dealt", "source": "deal", "dest": "flip"},
    {"trigger": "first_card_up", "source": "flip", "dest": "turn"},
    {"trigger": "hand_ended", "source": "turn", "dest": "hand_over"},
    {"trigger": "last_card_taken_back", "source": "hand_over", "dest": "turn"},
    {"trigger": "next_hand", "source": "hand_over", "dest": "deal"},
    {"trigger": "game_won", "source": "hand_over", "dest": "game_over"},
]


def machine_config() -> dict[str, Any]:
    """Keyword arguments for `Machine`/`GraphMachine`, shared so the diagram is the machine."""
    return {
        "states": list(STATES),
        "transitions": [dict(t) for t in TRANSITIONS],
        "initial": "deal",
        "auto_transitions": False,
    }


def mermaid_diagram(title: str = "A hand, in every edition") -> str:
    """The Mermaid `stateDiagram-v2` of the machine, rendered by transitions itself (no graphviz).

    transitions writes the title bare between `---` lines; as `title: ...` it is valid Mermaid front matter.
    """
    from transitions.extensions.diagrams import GraphMachine

    class _Model:
        pass

    model = _Model()
    GraphMachine(model=model, graph_engine="mermaid", title=f"title: {title}", **machine_config())
    return model.get_graph().draw(None)  # type: ignore[attr-defined]


_PAGE_INTRO = """# The state machine of a hand

Generated from `unox.rules.machine` by `unox rules diagram --write docs/state-machine.md`; a test fails when
this page no longer matches the machine. Rendered by transitions' `GraphMachine(graph_engine="mermaid")`.

Every edition runs the same machine (one `transitions.Machine` per game); what differs is what happens
inside `turn`, which each edition's section below draws from its ruleset (`unox.rules.editions`).

The states are the `phase` values of the table protocol:

| state | what happens there |
|---|---|
| `deal` | waiting for `deal` (a new hand) |
| `flip` | waiting for the first card (S2/S4); S4 Trade Hands stays here |
| `turn` | owed presses first, in order; then the turn player plays (T1) or presses once (T2/T3) |
| `hand_over` | someone went out (U3: after the owed presses); physical mode waits for `score` |
| `game_over` | someone has won (G1-G3) |

Triggers fire only when the phase changes: a play or press that keeps the phase touches no trigger. Owed
presses (A1, A7, A8, S4, U2, P1, P2) are data inside `turn` (`state()["owed"]`, and `state()["step"]` reads
`pressing`), not a state: they come and go with about one card in nine, and each trigger costs about as much
as a whole play. Dealt mode scores a hand at once, so it passes through `hand_over` to `deal` or
`game_over`; a wrong last card (P2) takes a physical game from `hand_over` back to `turn`.
"""


def state_machine_page() -> str:
    """The whole of docs/state-machine.md: the shared machine, then the steps of `turn` per edition."""
    from unox.rules.editions import get_rules, rule_names

    sections = [edition_section(get_rules(name)) for name in rule_names()]
    return f"{_PAGE_INTRO}\n```mermaid\n{mermaid_diagram().rstrip()}\n```\n" + "".join(sections)


def edition_steps(rules: Any) -> list[tuple[str, str, str]]:
    """The steps inside `turn` for one edition, as (from, to, what moves it), read from its ruleset."""
    if not rules.draws:
        return [
            ("play", "play", "play a card (T1, A1-A8)"),
            ("play", "pressing", "a card, catch or penalty owes presses"),
            ("pressing", "pressing", "press (owed presses, in order)"),
            ("pressing", "play", "the last owed press"),
            ("play", "play", "press once (T2, T3), then the next player"),
        ]
    declining = getattr(rules, "may_decline", True)
    steps = [
        ("play", "play", "play a card (C-T1)"),
        ("play", "drawn", "draw 1 (C-T2)" if declining else "draw 1, holding no playable card (C-T2, BA-T1)"),
        ("drawn", "play", "play the card drawn, or pass (C-T2, C-T3)" if declining
         else "play the card drawn if it goes, else pass (C-T2, BA-T1)"),
        ("play", "drawing", "a card, catch or penalty owes draws (DL1)"),
        ("drawing", "drawing", "draw (what is due, in order, a shortfall stays owed, DL2)"),
        ("drawing", "play", "the last owed draw"),
    ]
    if rules.challengeable:
        steps += [
            ("play", "challenge", "Wild Draw Four, its victim may challenge before drawing (C-A7)"),
            ("challenge", "drawing", "challenge (guilty, its player draws, else the victim draws more)"),
            ("challenge", "drawing", "draw (accepts the card, D2)"),
        ]
    steps += rules.choice_steps()
    return steps


def edition_section(rules: Any) -> str:
    """One edition's section: the steps of `turn` as a Mermaid diagram."""
    lines = ["stateDiagram-v2", "  direction LR", "  [*] --> play"]
    lines += [f"  {a} --> {b}: {what}" for a, b, what in edition_steps(rules)]
    owed = "draws" if rules.draws else "presses"
    step = "drawing" if rules.draws else "pressing"
    flip = ("\nIn `flip` the launcher fires the first card and the table reports which it is (DL3); one\n"
            "that goes back means another is fired." if rules.draws else "")
    title = f"---\ntitle: {rules.title}, the steps of a turn\n---\n"
    return (f"\n## {rules.title} (`--rules {rules.name}`)\n\nInside `turn`: owed {owed} come first "
            f"(`step` reads `{step}`).{flip}\n\n```mermaid\n{title}" + "\n".join(lines) + "\n```\n")
