"""Issue 24: seed 004 in full. "Se pueden jugar varias rondas" (several cycles of the rotation), "Cada
jugador llevará la cuenta de sus puntos ganados con cada pareja" (each player's points with each partner, in
the standings and `status`), and opponents balanced where the sheet leaves it free (C-V3, D7)."""

from __future__ import annotations

import subprocess
from collections import Counter

from unox.tournament.schedule import Plan

from .kit import (
    C_V2_PLAYERS,
    C_V3_PLAYERS,
    UNOX,
    WAIT,
    journal_rows,
    night_in_process,
    pairs_of,
    scored_by_hand,
)


def _meetings(plan: Plan) -> tuple[Counter, Counter, Counter]:
    partners, opponents, at_table_1 = Counter(), Counter(), Counter()
    for matches in plan.rounds:
        for table, (one, other) in enumerate(matches, 1):
            partners.update([frozenset(one), frozenset(other)])
            opponents.update(frozenset((a, b)) for a in one for b in other)
            if table == 1:
                at_table_1.update((*one, *other))
    return partners, opponents, at_table_1


def test_C_V3_every_two_players_meet_as_opponents_equally_often_and_nobody_stays_at_table_1():
    partners, opponents, at_table_1 = _meetings(Plan(tuple(C_V3_PLAYERS)))
    assert len(partners) == 28 and set(partners.values()) == {1}  # D7: everyone partners everyone once
    assert len(opponents) == 28 and set(opponents.values()) == {2}  # and meets everyone twice across a table
    assert set(at_table_1) == set(C_V3_PLAYERS) and max(at_table_1.values()) <= 5  # nobody all night at 1


def test_several_cycles_play_the_rotation_again_with_their_own_hand_ids():
    once, twice = Plan(tuple(C_V3_PLAYERS)), Plan(tuple(C_V3_PLAYERS), cycles=3)
    assert twice.rounds == once.rounds * 3 and twice.hands_per_player() == 3 * 28
    assert len({hand_id for hand_id, *_ in twice.hands()}) == len(twice.hands()) == 3 * 56
    partners, opponents, _ = _meetings(twice)
    assert set(partners.values()) == {3} and set(opponents.values()) == {6}
    assert Plan.from_json(twice.to_json()) == twice


def test_cycles_out_of_range_are_one_line_and_write_nothing(tmp_path):
    done = subprocess.run(
        [*UNOX, "tournament", "start", "--broker", "mqtt://c:p@127.0.0.1:9/club", "--players",
         ",".join(C_V2_PLAYERS), "--cycles", "11", "--journal", str(tmp_path / "club.db")],
        capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 2, done.stderr  # a usage error, as every number option's
    said = "argument --cycles: 11 is out of range; give a whole number from 1 to 10"
    assert done.stderr.strip().endswith(said)
    assert not (tmp_path / "club.db").exists()


def test_two_cycles_of_C_V2_and_each_players_points_with_each_partner(broker, tmp_path):
    """24 hands a player; each player's points with each partner add up to their total and equal a recount
    from the table's journal; `status` prints them."""
    plan = Plan(tuple(C_V2_PLAYERS), cycles=2)
    standings, _ = night_in_process(broker, tmp_path, "cycles", plan, (1,), seed=9, keep_plan=True)
    played = journal_rows(tmp_path / "table1.db")
    hands = {row["player"]: row["hands"] for row in standings["players"]}
    assert len(played) == 24 and hands == dict.fromkeys(C_V2_PLAYERS, 24)
    points = {row["player"]: row["points"] for row in standings["players"]}
    assert points == scored_by_hand(C_V2_PLAYERS, played)
    recount = {player: Counter() for player in C_V2_PLAYERS}
    for row in played:  # C-V1: the pair of whoever went out scores the other pair's points, both partners
        own = next(pair for pair in pairs_of(C_V2_PLAYERS, row["round"], 1) if row["went_out"] in pair)
        won = sum(points for player, points in row["points"].items() if player not in own)
        recount[own[0]][own[1]] += won
        recount[own[1]][own[0]] += won
    for row in standings["players"]:
        assert set(row["partners"]) == set(C_V2_PLAYERS) - {row["player"]}
        assert row["partners"] == {partner: recount[row["player"]][partner] for partner in row["partners"]}
        assert sum(row["partners"].values()) == row["points"]
    done = subprocess.run([*UNOX, "tournament", "status", "--journal", str(tmp_path / "club.db")],
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0, done.stderr
    ann = next(row for row in standings["players"] if row["player"] == "Ann")["partners"]
    assert "points with each partner:" in done.stdout
    assert f"    Ann: Cy {ann['Cy']}, Bob {ann['Bob']}, Dee {ann['Dee']}" in done.stdout.splitlines()
