"""The real `unox table` process over stdin/stdout, including a SIGKILL in mid-hand and `--resume`.

The tests never sleep: they write one request and block on its reply line before the next.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest
from unox.cli.main import main
from unox.table.journal import Journal

from .tablekit import ask, new_table, send, table_process

HAND = [
    {"cmd": "deal", "dealer": "Bob"},
    {"cmd": "flip", "card": "YS"},
    {"cmd": "play", "player": "Ann", "card": "Y2"},
    {"cmd": "press", "player": "Bob", "fired": 3},
    {"cmd": "play", "player": "Cy", "card": "WF", "color": "blue"},
    {"cmd": "press", "player": "Ann", "fired": 0},
    {"cmd": "press", "player": "Ann", "fired": 5},
    {"cmd": "play", "player": "Bob", "card": "B4"},
]


def in_process(requests, **settings) -> dict:
    table = new_table(**settings)
    for request in requests:
        assert send(table, **request)["ok"], request
    return table.state()


def test_cli_answers_each_line_with_one_json_line_matching_the_library():
    proc = table_process("--protocol", "jsonl", "--players", "Ann,Bob,Cy", "--launcher", "script")
    try:
        replies = [ask(proc, request) for request in HAND[:4]]
        bad = ask(proc, "{not json")
        unknown = ask(proc, {"cmd": "shuffle"})
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
        proc.stdout.close()
        proc.stderr.close()
    assert [r["ok"] for r in replies] == [True] * 4
    assert replies[-1]["state"] == in_process(HAND[:4])
    assert bad["ok"] is False and bad["error"]["code"] == "bad_json"
    assert unknown["error"]["code"] == "unknown_cmd"
    assert bad["state"] == unknown["state"] == replies[-1]["state"]


@pytest.mark.parametrize("answered", [3, len(HAND)])
def test_resume_after_sigkill_in_mid_hand_equals_the_uninterrupted_run(tmp_path, answered):
    path = tmp_path / "table.db"
    proc = table_process(
        "--players", "Ann,Bob,Cy", "--scoring", "g2", "--target", "250", "--journal", str(path)
    )
    try:
        for request in HAND[:answered]:
            assert ask(proc, request)["ok"], request
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=60) == -signal.SIGKILL
    finally:
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()
    expected = in_process(HAND[:answered], scoring="g2", target=250)
    assert expected["phase"] == "turn"  # mid-hand
    resumed = subprocess.run(
        [sys.executable, "-m", "unox", "table", "--resume", str(path)],
        input='{"cmd":"state"}\n',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert resumed.returncode == 0, resumed.stderr
    lines = resumed.stdout.splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0]) == {"ok": True, "state": expected}


def test_resume_refuses_settings_that_come_from_the_journal(tmp_path, one_line_error):
    path = tmp_path / "t.db"
    path.touch()
    assert main(["table", "--resume", str(path), "--players", "Ann,Bob"]) == 1
    assert "--players" in one_line_error()


def test_resume_of_a_missing_file_says_which_file_to_give(tmp_path, one_line_error):
    assert main(["table", "--resume", str(tmp_path / "nope.db")]) == 1
    assert "no journal" in one_line_error()


def test_a_table_needs_players(one_line_error):
    assert main(["table"]) == 1
    assert "--players" in one_line_error()


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--players", "Ann"], "2 to 10"),
        (["--players", "Ann,Bob", "--profile", "wild"], "measured"),
        (["--players", "Ann,Bob", "--launcher", "usb"], "launcher"),
    ],
)
def test_bad_options_exit_1_with_one_clear_line(args, fragment, one_line_error):
    assert main(["table", *args]) == 1
    err = one_line_error()
    assert fragment in err


def test_a_number_out_of_range_is_a_usage_error(capsys):
    """Issue 26 item 16: as in every command (tests/cli/test_option_convention.py): usage, a line, exit 2."""
    with pytest.raises(SystemExit) as stop:
        main(["table", "--players", "Ann,Bob", "--target", "0"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("usage: unox table ")
    assert err.splitlines()[-1] == ("unox table: error: argument --target: 0 is out of range; give a whole "
                                    "number from 1 to 100000")


def test_a_journal_that_holds_a_table_is_not_reused_for_a_new_one(tmp_path, one_line_error):
    path = tmp_path / "t.db"
    table = new_table(journal=Journal(path))
    send(table, cmd="deal", dealer="Ann")
    table.close()
    assert main(["table", "--players", "Ann,Bob", "--journal", str(path)]) == 1
    assert f"--resume {path}" in one_line_error()
    assert Journal(path).entries() == [{"cmd": "deal", "dealer": "Ann"}]
