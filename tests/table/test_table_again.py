"""Reviewer finding 3: `unox table --journal FILE` run a second time continues that table, as `unox play`
and `unox serve` do; options of another table are refused naming them, the file left as it was; the
launcher it names takes another board only with --accept-launcher."""

from __future__ import annotations

import json
import subprocess
import sys

from unox.table.journal import Journal
from unox.table.runtime import BOARD_KEY

OURS = "sim:?seed=2&cards=60&jam=0&double=0&stuck=0"
OTHER = "sim:?seed=3&cards=60&jam=0&double=0&stuck=0"
STATE = json.dumps({"cmd": "state"}) + "\n"


def unox(*argv: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "unox", "table", *argv], input=stdin, capture_output=True,
                          text=True, timeout=120)


def view(path) -> tuple:
    with Journal(path) as journal:
        return journal.raw_rows(), journal.fires(), journal.get_meta(BOARD_KEY), journal.settings


def started(path, *launcher: str) -> list[str]:
    """The table of Ann, Bob and Cy dealt and flipped; the command line that made it."""
    argv = ["--players", "Ann,Bob,Cy", "--seed", "5", "--journal", str(path), *launcher]
    lines = [{"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip", "card": "B2"}]
    made = unox(*argv, stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert made.returncode == 0, made.stderr
    return argv


def test_the_same_table_command_again_continues_the_table(tmp_path):
    path = tmp_path / "t.db"
    argv = started(path)
    before = view(path)
    for again in (argv, ["--journal", str(path)]):  # the same line, and the journal alone
        run = unox(*again, stdin=STATE)
        assert run.returncode == 0, run.stderr
        reply = json.loads(run.stdout.splitlines()[-1])
        assert reply["ok"] and reply["state"]["top"] == "B2" and reply["state"]["phase"] == "turn", reply
        assert view(path)[0] == before[0]


def test_options_of_another_table_are_refused_naming_them_and_nothing_is_written(tmp_path):
    path = tmp_path / "t.db"
    started(path)
    before = path.read_bytes(), sorted(tmp_path.iterdir())
    refused = unox("--players", "Ann,Cy", "--journal", str(path), stdin=STATE)
    assert refused.returncode == 1 and refused.stdout == ""
    assert "not one with --players Ann,Cy" in refused.stderr and refused.stderr.count("\n") == 1
    assert (path.read_bytes(), sorted(tmp_path.iterdir())) == before


def test_the_same_command_with_another_board_is_refused_unless_accepted(tmp_path):
    path = tmp_path / "t.db"
    argv = started(path, "--launcher", OURS)
    ours = view(path)[2]
    before = view(path)
    other = [*argv[:-2], "--launcher", OTHER]
    refused = unox(*other, stdin=STATE)
    assert refused.returncode == 1 and f"bound to launcher board {ours}" in refused.stderr
    assert "add --accept-launcher to the command" in refused.stderr
    assert view(path) == before
    taken = unox(*other, "--accept-launcher", stdin=STATE)
    assert taken.returncode == 0, taken.stderr
    assert "as --accept-launcher said" in taken.stderr and view(path)[2] != ours
