"""The phases of a hand as a `transitions` machine, declared once for the game and for the diagram.

Triggers fire only when the phase changes, never per action, so the hot path stays cheap. The machine is a
plain `Machine` (a nested machine costs about seven times as much per trigger).
"""

from __future__ import annotations

from typing import Any

STATES = ["deal", "flip", "turn", "pressing", "hand_over", "game_over"]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "cards_dealt", "source": "deal", "dest": "flip"},
    {"trigger": "first_card_up", "source": "flip", "dest": "turn"},
    {"trigger": "presses_owed", "source": ["flip", "turn", "hand_over"], "dest": "pressing"},
    {"trigger": "presses_done", "source": "pressing", "dest": "turn"},
    {"trigger": "hand_ended", "source": ["turn", "pressing"], "dest": "hand_over"},
    {"trigger": "next_hand", "source": "hand_over", "dest": "deal"},
    {"trigger": "game_won", "source": "hand_over", "dest": "game_over"},
]

# the `phase` of the table protocol: `pressing` is part of a turn there
PROTOCOL_PHASE = {s: s for s in STATES} | {"pressing": "turn"}


def machine_config() -> dict[str, Any]:
    """Keyword arguments for `Machine`/`GraphMachine`, shared so the diagram is the machine."""
    return {
        "states": list(STATES),
        "transitions": [dict(t) for t in TRANSITIONS],
        "initial": "deal",
        "auto_transitions": False,
    }


def mermaid_diagram(title: str = "UNO Extreme hand") -> str:
    """The Mermaid `stateDiagram-v2` of the machine, rendered by transitions itself (no graphviz)."""
    from transitions.extensions.diagrams import GraphMachine

    class _Model:
        pass

    model = _Model()
    GraphMachine(model=model, graph_engine="mermaid", title=title, **machine_config())
    return model.get_graph().draw(None)  # type: ignore[attr-defined]
