"""What a person does about each launcher fault: one wording, shared by every front end and `diagnose`."""

from __future__ import annotations

from unox.launcher.base import FAULTS

FAULT_ACTIONS: dict[str, str] = {
    "jam": "the launcher jammed: open the lid, put the wedged card back on the stack (it was not counted), "
    "close the lid and press again",
    "empty": "the launcher is empty (L4): take the top card off the discard pile, shuffle the rest into the "
    "launcher and reload it (R2), then press again",
    "stuck": "a card is sticking out of the exit slot (T4): it was counted and belongs to the player who "
    "pressed; take it and carry on",
    "lid": "the launcher's lid is open: close it, then press again",
    "battery": "the launcher's batteries are low (L5): fit 3 fresh C cells (4.5 V), then press again",
    "link": "the host lost the launcher: check its USB cable or wiring (unox reconnects by itself), then "
    "press again",
}
assert set(FAULT_ACTIONS) == set(FAULTS)


def fault_action(fault: str) -> str:
    """The instruction for `fault`, as a clause: callers capitalise or prefix it as their medium needs."""
    return FAULT_ACTIONS.get(fault, f"the launcher reported {fault!r}: check it, then press again")
