"""A journal made by one command resumes in another (`--resume` across play, serve and table): the simulated
launcher is opened the same way by each (the table's seed, hence the same simulated board), so a seeded sim
table is not refused as "bound to another launcher board" when another command picks it up."""

from __future__ import annotations

import json


def test_a_table_started_by_play_on_a_seeded_sim_resumes_in_unox_table(unox, tmp_path):
    journal = tmp_path / "p.db"
    made = unox("play", "--plain", "--players", "Ann,Bob", "--launcher", "sim", "--seed", "3", "--journal",
                str(journal), stdin="deal Ann\n")
    assert made.code == 0, made.err
    done = unox("table", "--resume", str(journal), stdin='{"cmd":"state"}\n')
    assert done.code == 0, done.err
    state = json.loads(done.out.splitlines()[-1])["state"]
    assert (state["phase"], state["dealer"]) == ("flip", "Ann")


def test_a_table_started_by_unox_table_on_a_seeded_sim_resumes_in_play(unox, tmp_path):
    journal = tmp_path / "t.db"
    made = unox("table", "--players", "Ann,Bob", "--launcher", "sim", "--seed", "3", "--journal",
                str(journal), stdin='{"cmd":"deal","dealer":"Ann"}\n')
    assert made.code == 0, made.err
    done = unox("play", "--plain", "--resume", str(journal), stdin="")
    assert done.code == 0, done.err
    assert "Resumed from" in done.out and "1 accepted event replayed," in done.out  # not "1 accepted events"
