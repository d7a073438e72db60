"""What Home Assistant is told, read from the table or the press-button mode and the launcher's last report.

Only what is already known is read (the driver's cached device state), never a round trip to the launcher
from the publisher's thread.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from unox.homeassistant.discovery import FAULT_STATES, OFF, ON, OTHER_FAULT

NOTHING = "none"
NOBODY = "nobody"
UNKNOWN = "None"  # HA's MQTT sensor reads the payload "None" as unknown (the battery before its first report)


def launcher_view(launcher: Any) -> dict[str, str]:
    """link, lid and last fault, as the driver last heard them; no launcher: link OFF."""
    state, link = getattr(launcher, "state", None), getattr(launcher, "link", None)
    if launcher is None or state is None or link is None:
        return {"link": OFF, "lid": OFF, "last_fault": NOTHING, "battery": UNKNOWN, "battery_low": OFF}
    alive = bool(link.alive())
    fault = str(state.last_fault or NOTHING)
    battery = getattr(state, "battery_mv", None)
    return {"link": ON if alive else OFF, "lid": ON if state.lid_open else OFF,
            "last_fault": fault if fault in FAULT_STATES else OTHER_FAULT,  # an enum: only its own states
            "battery": str(battery) if battery else UNKNOWN,
            "battery_low": ON if getattr(state, "battery_low", False) else OFF}


def _no_hands() -> dict[str, str]:
    return {"hand": "0", "hand_attributes": json.dumps({"cards_held": {}, "scores": {}}), "winner": NOBODY}


def table_snapshot(table: Any) -> dict[str, str]:
    """A table (`unox play`, `unox serve`): its launcher estimate, whose turn, presses and cards tonight."""
    state = table.state()
    presses = fired = 0
    for request in list(table.entries):
        if request.get("cmd") in ("press", "draw"):
            presses += 1
            fired += int(request.get("fired") or 0)
    cards = (state.get("launcher") or {}).get("cards")
    hands = {"hand": str(state.get("hand") or 0),
             "hand_attributes": json.dumps({"cards_held": state.get("hands") or {},
                                            "scores": state.get("scores") or {}}, sort_keys=True),
             "winner": str(state.get("winner") or NOBODY)}
    return {**launcher_view(table.launcher), "cards_left": str(cards if cards is not None else NOTHING),
            "turn": str(state.get("turn") or NOBODY), "presses": str(presses), "cards_fired": str(fired),
            **hands}


def idle_snapshot() -> dict[str, str]:
    """No table yet (a tournament table between rounds, waiting for the coordinator): nothing counted."""
    return {**launcher_view(None), "cards_left": NOTHING, "turn": NOBODY, "presses": "0", "cards_fired": "0",
            **_no_hands()}


def press_snapshot(mode: Any) -> dict[str, str]:
    """The press-button mode (`unox press`): its tally; no table, so nobody's turn."""
    tally = mode.tally
    return {**launcher_view(mode.launcher), "cards_left": str(tally.estimate), "turn": NOBODY,
            "presses": str(tally.presses), "cards_fired": str(tally.fired), **_no_hands()}


class CurrentTable:
    """The table being played now, which a tournament replaces each round, for a bridge that lasts the
    night: before the first round (or between rounds) nothing is counted yet. It also shows the tournament
    (`tournament_*`): the round from the table's own seat (`round_state`, set once it joined, with the
    tournament's id), the leader and winner from the coordinator's retained standings (`on_standings`, a
    subscription of the bridge), each only for this table's tournament id, never last week's."""

    def __init__(self) -> None:
        self.table: Any = None
        self.tournament: str | None = None
        self.round_state: Callable[[], Any] | None = None
        self._standings: dict[str, dict[str, Any]] = {}  # tournament id -> its latest standings
        self._round: dict[str, Any] = {}

    def on_standings(self, topic: str, payload: Any) -> None:
        if isinstance(payload, dict) and isinstance(payload.get("id"), str):
            self._standings[payload["id"]] = payload

    def snapshot(self) -> dict[str, str]:
        shown = idle_snapshot() if self.table is None else table_snapshot(self.table)
        return {**shown, **self.tournament_view()}

    def tournament_view(self) -> dict[str, str]:
        try:
            state = (self.round_state() if self.round_state is not None else None) or {}
            self._round = state
        except Exception:  # the seat's journal closed before the bridge's last look: the round it last had
            state = self._round
        if self.tournament is None or state.get("id") != self.tournament:
            state = {}
        standings = self._standings.get(self.tournament or "") or {}
        view = tournament_snapshot(standings, state.get("round"))
        over = bool(state.get("over") or standings.get("over"))
        return {"tournament_round": "over" if over else view["round"],
                "tournament_leader": view["standings"],
                "tournament_leader_attributes": view["standings_attributes"],
                "tournament_winner": view["winner"]}


def tournament_snapshot(standings: dict[str, Any], round_no: int | None) -> dict[str, str]:
    """A tournament (its coordinator's standings): the open round, hands in, the leader with everyone's
    points (and points with each partner) as attributes, the winner once every hand is in."""
    import json

    players = standings.get("players") or []
    attributes = {"id": standings.get("id"),
                  "points": {row["player"]: row["points"] for row in players},
                  "with_each_partner": {row["player"]: row.get("partners", {}) for row in players}}
    return {"round": "over" if standings.get("over") else str(round_no or NOTHING),
            "hands": str(standings.get("results", 0)),
            "standings": str(players[0]["player"]) if players and standings.get("results") else NOBODY,
            "standings_attributes": json.dumps(attributes, sort_keys=True),
            "winner": str(standings.get("winner") or NOBODY)}
