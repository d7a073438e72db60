"""A seat joins with its own table's user: the club's ACL lets only `tableN` publish table N's results and
presence, and drops anything else without a word. Another user is refused in one line, before anything is
asked or written, naming the user the table number needs."""

from __future__ import annotations

import os
import subprocess

import pytest

from .kit import UNOX, WAIT

URL = "mqtt://{user}:secret@127.0.0.1:1/club"  # port 1: nothing listens, so the refusal precedes the broker


@pytest.mark.parametrize(("command", "extra"), [
    ("table", ("--bots", "heuristic")),
    ("play", ("--plain",)),
    ("serve", ()),
])
@pytest.mark.parametrize("user", ["table2", "coordinator"])
def test_a_seat_with_another_tables_user_is_refused_before_anything_is_written(tmp_path, command, extra,
                                                                               user):
    state = tmp_path / "state"
    argv = [*UNOX, command, "--tournament", URL.format(user=user), "--table", "1", *extra]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=WAIT, stdin=subprocess.DEVNULL,
                         env={**os.environ, "XDG_STATE_HOME": str(state)}, cwd=tmp_path)
    lines = run.stderr.strip().splitlines()
    assert run.returncode != 0 and len(lines) == 1, run.stderr
    assert f"--table 1 needs the user table1, not {user}" in lines[0]
    assert "mqtt://table1:PASSWORD@127.0.0.1:1/club" in lines[0] and "secret" not in lines[0]
    assert run.stdout == ""
    assert not state.exists() and list(tmp_path.iterdir()) == []
