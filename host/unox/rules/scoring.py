"""Scoring at the end of a hand (G1, G2, G3): who gains what, who drops out, who has won."""

from __future__ import annotations

from dataclasses import dataclass, field

SCORINGS = ("g1", "g2", "g3")


@dataclass
class Settlement:
    """What one hand's points did to the game."""

    gained: dict[str, int]
    winner: str | None = None
    dropped: list[str] = field(default_factory=list)


def settle(
    scoring: str,
    target: int,
    scores: dict[str, int],
    active: list[str],
    went_out: str,
    points: dict[str, int],
) -> Settlement:
    """Adds this hand's points to `scores` (in place) and decides the winner, if any.

    `points` holds the points left in each active player's hand (the one who went out has 0).
    """
    if scoring == "g1":
        return _g1(target, scores, went_out, points)
    final = len(active) == 2
    gained = {p: points[p] for p in active}
    for player, pts in gained.items():
        scores[player] += pts
    if scoring == "g2":
        if any(scores[p] >= target for p in active):
            return Settlement(gained, winner=_lowest(scores, active))
        return Settlement(gained)
    return _g3(target, scores, active, went_out, gained, final)


def _g1(target: int, scores: dict[str, int], went_out: str, points: dict[str, int]) -> Settlement:
    """G1: the player who went out scores what the others still hold; the first to the target wins."""
    won = sum(pts for p, pts in points.items() if p != went_out)
    scores[went_out] += won
    winner = went_out if scores[went_out] >= target else None
    return Settlement({went_out: won}, winner=winner)


def _g3(
    target: int,
    scores: dict[str, int],
    active: list[str],
    went_out: str,
    gained: dict[str, int],
    final: bool,
) -> Settlement:
    """G3: reaching the limit puts a player out; the winner of the two-player final wins the game."""
    if final:
        return Settlement(gained, winner=went_out, dropped=[p for p in active if p != went_out])
    dropped = [p for p in active if scores[p] >= target]
    left = [p for p in active if p not in dropped]
    winner = left[0] if len(left) == 1 else None
    return Settlement(gained, winner=winner, dropped=dropped)


def _lowest(scores: dict[str, int], active: list[str]) -> str:
    """G2: lowest total wins; a tie goes to the earlier seat (DECISION: the sources are silent)."""
    return min(active, key=lambda p: scores[p])


def settle_teams(
    target: int | None,
    scores: dict[str, int],
    pairs: list[tuple[str, ...]],
    went_out: str,
    points: dict[str, int],
) -> Settlement:
    """C-V1/C-V2: the pair of the player who went out scores the cards in the other pairs' hands; each of the
    pair is credited. With a `target`, a pair reaching it wins (the player who went out is named)."""
    own = next(pair for pair in pairs if went_out in pair)
    won = sum(pts for p, pts in points.items() if p not in own)
    for player in own:
        scores[player] += won
    winner = went_out if target is not None and scores[went_out] >= target else None
    return Settlement({p: won for p in own}, winner=winner)


def highest(scores: dict[str, int], active: list[str]) -> str:
    """C-V2: the highest total wins; a tie goes to the earlier seat."""
    return max(active, key=lambda p: (scores[p], -active.index(p)))
