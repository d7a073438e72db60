"""The variants an edition declares (`Ruleset.variants`), shared by the editions that have them.

- `two-player`: exactly two seats; the editions' two-player rules (C-2P1-C-2P3) apply, as they do whenever
  two are seated.
- `elimination` (C-G3, G3): totals of the points left in one's own hand; reaching the target puts a player
  out.
- `partners` (C-V1): an even number of 4 or more, partners seated opposite; whoever goes out, their pair
  scores the cards in the other pairs' hands; a pair's total wins at the target (D6).
- `rotation` (C-V2): 4 players, 12 hands, four with each other player as partner (D7: A+C, A+B, A+D); each
  player adds up what their pairs scored; the highest total wins after the twelfth hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from unox.rules.errors import RuleError

ROTATION_HANDS = 4  # hands with each partner (C-V2)


def check_variant(variant: str | None, declared: Sequence[str], players: int, title: str) -> None:
    """RuleError `bad_setup` when the edition lacks the variant or the seats do not fit it."""
    if variant is None:
        return
    if variant not in declared:
        have = ", ".join(declared) or "none"
        raise RuleError("bad_setup", f"{title} has no variant {variant!r}: use one of {have}")
    if variant == "two-player" and players != 2:
        raise RuleError("bad_setup", "the two-player variant seats exactly 2 players")
    if variant == "partners" and (players < 4 or players % 2):
        raise RuleError("bad_setup", "partners play in pairs seated opposite: seat 4, 6, 8 or 10 players")
    if variant == "rotation" and players != 4:
        raise RuleError("bad_setup", "partner rotation is for exactly 4 players (C-V2)")


def teams(variant: str | None, players: Sequence[str], hand: int) -> list[tuple[str, ...]] | None:
    """The pairs for hand number `hand` (1-based), or None when every player scores alone."""
    if variant == "partners":
        half = len(players) // 2
        return [(players[i], players[i + half]) for i in range(half)]
    if variant == "rotation":
        a, b, c, d = players
        schedule = [((a, c), (b, d)), ((a, b), (c, d)), ((a, d), (b, c))]  # D7
        return list(schedule[min((hand - 1) // ROTATION_HANDS, len(schedule) - 1)])
    return None


def rotation_over(variant: str | None, hand: int) -> bool:
    """C-V2: the twelfth hand ends a rotation game."""
    return variant == "rotation" and hand >= 3 * ROTATION_HANDS


# C-V3's 7 rounds for seats 0..7, each round (table 1's two pairs, table 2's two pairs). Everyone partners
# everyone once (D7's round robin), and, where the sheet leaves it free, every two players meet as opponents
# exactly twice and everyone sits at table 1 between 1 and 5 of the 7 rounds. Found by an exhaustive search;
# the circle method's own tables meet 7 pairs never and 7 pairs four times, and keep seat 0 at table 1.
C_V3_BALANCED = (
    ((0, 1), (2, 3), (4, 5), (6, 7)),
    ((0, 2), (4, 6), (1, 3), (5, 7)),
    ((0, 3), (4, 7), (1, 2), (5, 6)),
    ((0, 4), (1, 5), (2, 6), (3, 7)),
    ((0, 5), (2, 7), (1, 4), (3, 6)),
    ((1, 7), (2, 4), (0, 6), (3, 5)),
    ((2, 5), (3, 4), (0, 7), (1, 6)),
)


def multi_table_rounds(players: Sequence[str]) -> list[list[tuple[tuple[str, str], tuple[str, str]]]]:
    """C-V3/D7: 8 players, everyone partners everyone once: 7 rounds of 4 pairs, two pairs at each of the two
    tables, opponents balanced (`C_V3_BALANCED`). Each round is 4 hands of `partners` at each table (28
    hands); every player adds up what their pairs scored, as in C-V2."""
    if len(players) != 8:
        raise RuleError("bad_setup", "the multi-table variant is for exactly 8 players (C-V3)")
    rounds = []
    for a, b, c, d in C_V3_BALANCED:
        pairs = [(players[x], players[y]) for x, y in (a, b, c, d)]
        rounds.append([(pairs[0], pairs[1]), (pairs[2], pairs[3])])
    return rounds
