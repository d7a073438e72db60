"""`run_cli`: the real `unox` command line with a given standard input, returning (code, out, err)."""

import io
import sys

import pytest
from unox.cli.main import main


@pytest.fixture
def run_cli(capsys, monkeypatch):
    def run(argv, stdin=""):
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture(autouse=True)
def state_home(tmp_path, monkeypatch):
    """`unox play` journals every table under the user's state directory: here, a fresh one per test."""
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home
