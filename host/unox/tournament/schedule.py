"""Who sits where: the round-robin of pairs across tables (C-V2, C-V3, D7) and the ids of the hands.

C-V3 (8 players, 2 tables) is `unox.rules.variants.multi_table_rounds`; C-V2 (4 players, 1 table) is the
partner rotation's A+C, A+B, A+D. Any other multiple of 4 players is the same circle method over more
tables. Each round is `HANDS_PER_ROUND` hands of `partners` at every table, partners seated opposite.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from unox.rules.errors import RuleError
from unox.rules.variants import ROTATION_HANDS, multi_table_rounds, teams

HANDS_PER_ROUND = ROTATION_HANDS  # 4 hands with each partner (C-V2, C-V3)
MAX_PLAYERS = 80  # 20 tables
MAX_CYCLES = 10  # "Se pueden jugar varias rondas" (C-V2): the whole rotation again, up to this many times

Pair = tuple[str, str]
Match = tuple[Pair, Pair]  # the two pairs at one table


TOURNAMENT_ID = re.compile(r"^[0-9a-z]{4,32}$")


def new_tournament_id() -> str:
    """A tournament's identity, made by `start`: the name is the club's and comes back every week, the id
    never does (its journals, client ids and messages carry it)."""
    return secrets.token_hex(4)


class ScheduleError(ValueError):
    """Players that cannot make a tournament; the message says how many to seat."""


def circle_rounds(players: list[str]) -> list[list[Match]]:
    """The circle method: the first player fixed, the others turning; each round's pairs two per table."""
    fixed, ring = players[0], list(players[1:])
    rounds = []
    for _ in range(len(ring)):
        line = [fixed, *ring]
        pairs = [(line[i], line[-1 - i]) for i in range(len(line) // 2)]
        rounds.append([(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)])
        ring = ring[-1:] + ring[:-1]
    return rounds


def rounds_for(players: list[str]) -> list[list[Match]]:
    """The rounds for these players: C-V2 for 4, C-V3 for 8, the circle method for more."""
    if len(players) < 4 or len(players) % 4 or len(players) > MAX_PLAYERS:
        raise ScheduleError(f"a tournament of pairs seats 4, 8, 12 ... up to {MAX_PLAYERS} players, "
                            f"not {len(players)}: four at each table")
    if len(set(players)) != len(players):
        raise ScheduleError("each player's name must be different")
    if len(players) == 4:  # C-V2 / D7: A+C, A+B, A+D
        hands = range(1, 3 * HANDS_PER_ROUND + 1, HANDS_PER_ROUND)
        return [[tuple(tuple(pair) for pair in teams("rotation", players, hand))] for hand in hands]  # type: ignore[misc]
    if len(players) == 8:
        try:
            return multi_table_rounds(players)  # C-V3
        except RuleError as exc:
            raise ScheduleError(exc.message) from exc
    return circle_rounds(players)


def seats(match: Match) -> list[str]:
    """Clockwise seats with partners opposite (`partners` pairs seat i with seat i + 2)."""
    (a, b), (c, d) = match
    return [a, c, b, d]


def hand_id(round_no: int, table: int, hand: int) -> str:
    return f"r{round_no}-t{table}-h{hand}"


@dataclass(frozen=True)
class Plan:
    """A tournament's schedule: players, rounds of matches (one per table), the edition each table plays."""

    players: tuple[str, ...]
    rules: str = "classic"
    hands_per_round: int = HANDS_PER_ROUND
    tournament: str = field(default_factory=new_tournament_id)  # this tournament's id, new for each start
    cycles: int = 1  # the whole rotation played this many times (C-V2: "Se pueden jugar varias rondas")

    @cached_property
    def rounds(self) -> list[list[Match]]:
        if not 1 <= self.cycles <= MAX_CYCLES:
            raise ScheduleError(f"a tournament plays its rotation 1 to {MAX_CYCLES} times, not {self.cycles}")
        return rounds_for(list(self.players)) * self.cycles

    @property
    def tables(self) -> int:
        return len(self.players) // 4

    def hands(self) -> list[tuple[str, int, int, int, Match]]:
        """Every hand to play: (hand id, round, table, hand, match), in order."""
        return self._hands

    @cached_property
    def _hands(self) -> list[tuple[str, int, int, int, Match]]:
        return [
            (hand_id(r, t, h), r, t, h, match)
            for r, matches in enumerate(self.rounds, 1)
            for t, match in enumerate(matches, 1)
            for h in range(1, self.hands_per_round + 1)
        ]

    @cached_property
    def by_id(self) -> dict[str, tuple[int, int, int, Match]]:
        """hand id -> (round, table, hand, match)."""
        return {hand_id: (r, t, h, match) for hand_id, r, t, h, match in self.hands()}

    def hands_per_player(self) -> int:
        return len(self.rounds) * self.hands_per_round

    def to_json(self) -> dict[str, Any]:
        rounds = [[{"table": t, "seats": seats(m), "pairs": [list(p) for p in m]} for t, m in enumerate(r, 1)]
                  for r in self.rounds]
        return {"id": self.tournament, "players": list(self.players), "rules": self.rules,
                "hands_per_round": self.hands_per_round, "tables": self.tables, "cycles": self.cycles,
                "rounds": rounds}

    @staticmethod
    def from_json(data: Any) -> Plan:
        if not isinstance(data, dict) or not isinstance(data.get("players"), list):
            raise ScheduleError("the schedule message has no players")
        tournament = data.get("id")
        if not isinstance(tournament, str) or not TOURNAMENT_ID.match(tournament):
            raise ScheduleError("the schedule message has no tournament id")
        hands = data.get("hands_per_round", HANDS_PER_ROUND)
        plan = Plan(tuple(str(p) for p in data["players"]), str(data.get("rules", "classic")), int(hands),
                    tournament, int(data.get("cycles", 1)))
        plan.rounds  # noqa: B018 - checks the players make a schedule
        return plan
