"""`--rules` on the commands as a user meets them: `unox table`, `unox sim`, `unox demo` as subprocesses."""

from __future__ import annotations

import json

from .kit import unox


def test_unox_table_rules_classic_speaks_the_draw_protocol():
    lines = [
        {"cmd": "deal", "dealer": "Ann"},
        {"cmd": "flip", "card": "G7"},
        {"cmd": "play", "player": "Bob", "card": "G+2"},
        {"cmd": "draw", "player": "Cy", "fired": 2},
    ]
    done = unox("table", "--rules", "classic", "--players", "Ann,Bob,Cy",
                stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(reply["ok"] for reply in replies)
    assert replies[2]["state"]["owed"] == [{"player": "Cy", "draws": 2}]
    final = replies[-1]["state"]
    assert final["rules"] == "classic" and final["hands"]["Cy"] == 9 and final["turn"] == "Ann"


def test_unox_table_refuses_unknown_rules_in_one_line():
    done = unox("table", "--rules", "uno-flip", "--players", "Ann,Bob")
    assert done.returncode == 1 and done.stdout == ""
    err = done.stderr
    assert err.startswith("unox: error: ") and "classic" in err and err.count("\n") == 1


def test_unox_sim_refuses_unknown_rules_in_one_line():
    done = unox("sim", "--rules", "uno-flip")
    assert done.returncode == 1 and "classic" in done.stderr and done.stderr.count("\n") == 1


def test_unox_demo_rules_classic_plays_a_whole_game_with_draws_and_passes():
    done = unox("demo", "--rules", "classic", "--plain", "--seed", "3", "--players", "3")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "UNO, " in out.splitlines()[0]  # the edition is named on the first line
    assert " draws " in out and "passes (C-T2)" in out and "Game over:" in out
    assert "presses" not in out


def test_unox_demo_refuses_unknown_rules():
    done = unox("demo", "--rules", "uno-flip", "--plain")
    assert done.returncode == 1 and "classic" in done.stderr and done.stderr.count("\n") == 1


def test_unox_play_plays_another_edition_with_its_own_cards(tmp_path):
    done = unox("play", "--rules", "classic", "--players", "Ann,Bob", "--plain", "--journal",
                str(tmp_path / "t.db"), stdin="deal Ann\nflip\nflip R+2\ndraw Bob\n")  # DL3: fire, name
    assert done.returncode == 0, done.stderr
    assert "Bob draws 2 cards (Bob holds 9)." in done.stdout  # C-A1 on the first card, dealt by the launcher
