"""Issue 21: `unox table` drives the table night, so its undo keeps the night's limit: the cards a press
fired are out for good (`not_undoable`, state unchanged), while an announcement still goes back."""

from __future__ import annotations

import json
import subprocess
import sys


def replies(lines: list[dict], tmp_path) -> list[dict]:
    done = subprocess.run([sys.executable, "-m", "unox", "table", "--players", "Ann,Bob"],
                          input="\n".join(json.dumps(line) for line in lines) + "\n", capture_output=True,
                          text=True, check=True, cwd=tmp_path, timeout=60)
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_protocol_refuses_to_undo_a_press_and_still_undoes_a_play(tmp_path):
    got = replies([{"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip", "card": "G7"},
                   {"cmd": "press", "player": "Bob", "fired": 2}, {"cmd": "undo"},
                   {"cmd": "play", "player": "Ann", "card": "G5"}, {"cmd": "undo"}], tmp_path)
    pressed, refused, played, undone = got[2], got[3], got[4], got[5]
    assert not refused["ok"] and refused["error"]["code"] == "not_undoable"
    assert "cards are already out" in refused["error"]["message"]
    assert refused["state"] == pressed["state"]  # nothing changed
    assert played["ok"] and undone["ok"] and undone["undone"]["card"] == "G5"
    assert undone["state"] == pressed["state"]
