"""Checking a hand's result against the schedule, and adding the results up (C-V2/C-V3: each player adds up
what their pairs scored; the highest total wins, a tie going to the earlier player in the list)."""

from __future__ import annotations

from typing import Any

from unox.rules.scoring import highest, settle_teams
from unox.tournament.schedule import Plan, seats

MAX_POINTS = 10_000  # a hand's points left in one player's hand: far above any deck's worth


class ResultError(ValueError):
    """A result that does not fit the schedule: acknowledged (so not sent again), never counted."""


def checked(plan: Plan, result: Any) -> dict[str, Any]:
    """The result, if it names a scheduled hand and its points fit that hand's seats; else a ResultError."""
    if not isinstance(result, dict) or not isinstance(result.get("hand_id"), str):
        raise ResultError("a result must be an object with a hand_id")
    if result.get("tournament") != plan.tournament:
        other, hand = str(result.get("tournament"))[:40], result["hand_id"][:40]
        raise ResultError(f"hand {hand} is of tournament {other!r}, not {plan.tournament!r}")
    hands = plan.by_id
    if result["hand_id"] not in hands:
        raise ResultError(f"hand {result['hand_id'][:40]!r} is not in the schedule")
    round_no, table, hand, match = hands[result["hand_id"]]
    if (result.get("round"), result.get("table"), result.get("hand")) != (round_no, table, hand):
        raise ResultError(f"hand {result['hand_id']} is round {round_no}, table {table}, hand {hand}")
    points, went_out = result.get("points"), result.get("went_out")
    seated = seats(match)
    if not isinstance(points, dict) or sorted(points) != sorted(seated):
        raise ResultError(f"hand {result['hand_id']} needs the points of {', '.join(seated)}")
    if any(type(v) is not int or not 0 <= v <= MAX_POINTS for v in points.values()):
        raise ResultError(f"hand {result['hand_id']}: points are whole numbers from 0 to {MAX_POINTS}")
    if went_out not in seated or points[went_out] != 0:
        raise ResultError(f"hand {result['hand_id']}: went_out must be a seated player holding 0 points")
    return {"hand_id": result["hand_id"], "tournament": plan.tournament, "round": round_no, "table": table,
            "hand": hand, "went_out": went_out, "points": {p: points[p] for p in seated}}


class Tally:
    """The standings, added up one result at a time (the coordinator keeps one; a result costs O(1))."""

    def __init__(self, plan: Plan, results: list[dict[str, Any]] = ()):  # type: ignore[assignment]
        self.plan = plan
        self.totals = {player: 0 for player in plan.players}
        self.played = {player: 0 for player in plan.players}
        # C-V2: "Cada jugador llevará la cuenta de sus puntos ganados con cada pareja": each player's points
        # with each partner, in the order the schedule pairs them
        self.with_partner: dict[str, dict[str, int]] = {player: {} for player in plan.players}
        for matches in plan.rounds:
            for match in matches:
                for a, b in match:
                    self.with_partner[a].setdefault(b, 0)
                    self.with_partner[b].setdefault(a, 0)
        self.counted = 0
        for result in results:
            self.add(result)

    def add(self, result: dict[str, Any]) -> None:
        """One checked result; the pairs come from the schedule, never from the result."""
        pairs = [tuple(pair) for pair in self.plan.by_id[result["hand_id"]][3]]
        before = {player: self.totals[player] for pair in pairs for player in pair}
        settle_teams(None, self.totals, pairs, result["went_out"], result["points"])
        for a, b in pairs:
            self.with_partner[a][b] += self.totals[a] - before[a]
            self.with_partner[b][a] += self.totals[b] - before[b]
        for player in result["points"]:
            self.played[player] += 1
        self.counted += 1

    def table(self) -> dict[str, Any]:
        order = list(self.plan.players)
        ranked = sorted(order, key=lambda p: (-self.totals[p], order.index(p)))
        total_hands = len(self.plan.hands())
        over = self.counted == total_hands
        return {
            "id": self.plan.tournament,
            "players": [{"player": p, "points": self.totals[p], "hands": self.played[p],
                         "partners": dict(self.with_partner[p])} for p in ranked],
            "results": self.counted,
            "of": total_hands,
            "hands_per_player": self.plan.hands_per_player(),
            "over": over,
            "winner": highest(self.totals, order) if over else None,
        }


def standings(plan: Plan, results: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals from the checked results."""
    return Tally(plan, results).table()


def table_text(table: dict[str, Any]) -> str:
    """The standings as the terminal shows them."""
    lines = [f"{'':>3} {'player':<16} {'points':>7} {'hands':>6}"]
    for place, row in enumerate(table["players"], 1):
        lines.append(f"{place:>3} {row['player']:<16} {row['points']:>7} {row['hands']:>6}")
    lines.append("points with each partner:")
    for row in table["players"]:
        partners = ", ".join(f"{partner} {points}" for partner, points in row.get("partners", {}).items())
        lines.append(f"    {row['player']}: {partners}")
    state = f"winner: {table['winner']}" if table["over"] else "in progress"
    lines.append(f"{table['results']} of {table['of']} table hands in ({table['hands_per_player']} hands "
                 f"per player); {state}")
    return "\n".join(lines)
