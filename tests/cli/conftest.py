"""`unox` as a person meets it: a subprocess with its own HOME and XDG folders, so no test touches yours."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

UNOX = Path(sys.executable).parent / "unox"


@dataclass
class Done:
    code: int
    out: str
    err: str


@pytest.fixture
def home(tmp_path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def user_env(home) -> dict[str, str]:
    """A fresh user: empty HOME, config and state folders; COLUMNS fixed so help wraps the same everywhere."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("XDG_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_STATE_HOME=str(home / ".state"),
               COLUMNS="80", PYTHONUNBUFFERED="1")
    return env


@pytest.fixture
def unox(user_env, tmp_path):
    """`unox("diagnose", "--launcher", "sim")` runs the installed command; returns code, stdout, stderr."""

    def run(*argv: str, stdin: str = "", env: dict[str, str] | None = None, timeout: float = 120) -> Done:
        done = subprocess.run([str(UNOX), *argv], input=stdin, capture_output=True, text=True,
                              env={**user_env, **(env or {})}, cwd=tmp_path, timeout=timeout)
        return Done(done.returncode, done.stdout, done.stderr)

    return run


def one_line_error(done: Done) -> str:
    """A user error as the CLI gives it: exit 1, exactly one line on stderr, no traceback."""
    assert done.code == 1, (done.code, done.err)
    assert done.err.startswith("unox: error: ") and done.err.count("\n") == 1, done.err
    return done.err


def usage_error(done: Done, command: str) -> str:
    """A usage error: exit 2, the sub-command's own usage, then its error line."""
    assert done.code == 2, (done.code, done.err)
    assert done.err.startswith(f"usage: unox {command} "), done.err
    last = done.err.strip().splitlines()[-1]
    assert last.startswith(f"unox {command}: error: "), done.err
    return last
