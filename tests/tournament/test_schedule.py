"""The tournament's schedule (C-V2, C-V3, D7) and its results journal, without a broker."""

from __future__ import annotations

import sqlite3

import pytest
from unox.install_broker import MAX_TABLES as BROKER_TABLES
from unox.rules.variants import multi_table_rounds
from unox.tournament.join import MAX_TABLES
from unox.tournament.journal import JournalError, ResultsJournal
from unox.tournament.schedule import MAX_PLAYERS, Plan, ScheduleError, seats

from .kit import C_V2_PLAYERS, C_V3_PLAYERS


def test_C_V3_the_tournament_plays_the_rules_schedule_28_hands_a_player():
    plan = Plan(tuple(C_V3_PLAYERS))
    assert plan.rounds == multi_table_rounds(C_V3_PLAYERS)
    assert plan.tables == 2 and len(plan.hands()) == 56 and plan.hands_per_player() == 28


def test_C_V2_four_players_partner_a_then_c_then_b_then_d():
    plan = Plan(tuple(C_V2_PLAYERS))
    assert [r[0][0] for r in plan.rounds] == [("Ann", "Cy"), ("Ann", "Bob"), ("Ann", "Dee")]
    assert plan.hands_per_player() == 12 and len(plan.hands()) == 12


def test_twelve_players_at_three_tables_partner_everyone_once():
    players = [f"P{n}" for n in range(12)]
    plan = Plan(tuple(players))
    pairs = [frozenset(pair) for r in plan.rounds for match in r for pair in match]
    assert len(pairs) == len(set(pairs)) == 12 * 11 // 2
    for r in plan.rounds:
        assert sorted(p for match in r for pair in match for p in pair) == sorted(players)


def test_partners_sit_opposite():
    assert seats((("Ann", "Bob"), ("Cy", "Dee"))) == ["Ann", "Cy", "Bob", "Dee"]


@pytest.mark.parametrize("players", [["A", "B", "C"], ["A"] * 8, [f"P{n}" for n in range(MAX_PLAYERS + 4)]])
def test_players_that_make_no_tournament_are_refused(players):
    with pytest.raises(ScheduleError):
        Plan(tuple(players)).rounds  # noqa: B018


def test_the_table_limits_agree():
    assert MAX_TABLES == BROKER_TABLES == MAX_PLAYERS // 4


def test_a_result_is_journalled_once_however_often_it_comes(tmp_path):
    with ResultsJournal(tmp_path / "r.db") as journal:
        assert journal.record("r1-t1-h1", 1, 1, 1, {"x": 1}) is True
        assert journal.record("r1-t1-h1", 1, 1, 1, {"x": 2}) is False
        assert journal.results() == [{"x": 1}] and journal.copies() == {"r1-t1-h1": 2}


def test_another_programs_sqlite_file_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "theirs.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (text TEXT)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="not a unox tournament journal"):
        ResultsJournal(path)
    assert path.read_bytes() == before


def test_a_journal_held_by_a_running_coordinator_is_refused(tmp_path):
    with ResultsJournal(tmp_path / "club.db"), pytest.raises(JournalError):
        ResultsJournal(tmp_path / "club.db")
