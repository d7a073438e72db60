"""Issue 8 item 15: every `unox` command shown in README.md and docs/ is parsed by the real CLI, and every
example that needs no hardware is run, so a broken example fails CI.

Examples are the commands in code blocks, and those with options in README.md's inline code; an inline
`unox ...` elsewhere, or a bare `unox play`, is a mention in prose and is parsed only.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from unox.cli.main import build_parser

sys.path.insert(0, str(Path(__file__).parent))
from doc_commands import DocCommand, commands  # noqa: E402

UNOX = Path(sys.executable).parent / "unox"
FOUND = [c for c in commands() if c.argv()]
HARDWARE_KINDS = ("serial", "gpio")
CONFIGURED = (["diagnose"], ["calibrate"], ["press"], ["firmware", "version"], ["firmware", "flash"])


def option(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv[:-1] else None


def needs_hardware(argv: list[str]) -> bool:
    """A real launcher or Pico, or system files (install --write): parsed, not run."""
    spec = option(argv, "--launcher")
    if spec is not None:
        return spec.split(":")[0] in HARDWARE_KINDS
    if "--port" in argv or "--write" in argv and argv[0] == "install":
        return True
    if any(word.startswith("mqtt://") for word in argv):  # a club's broker: tests/tournament runs these
        return True
    return any(argv[: len(prefix)] == prefix for prefix in CONFIGURED)


def is_example(command: DocCommand) -> bool:
    return not command.inline or (command.page == "README.md" and len(command.argv()) > 1)


RUNNABLE = [c for c in FOUND if is_example(c) and not needs_hardware(c.argv())]


def name(command: DocCommand) -> str:
    return f"{command.page}:{command.line}:{command.text}"


def test_the_docs_show_commands_of_every_kind():
    assert len(FOUND) > 40 and len(RUNNABLE) >= 10  # the collector really reads the pages
    assert {c.argv()[0] for c in FOUND} >= {"demo", "press", "diagnose", "calibrate", "sim", "table", "play",
                                            "install", "firmware", "rules", "profile", "simulate-device"}


@pytest.mark.parametrize("command", FOUND, ids=name)
def test_every_command_in_the_docs_parses(command: DocCommand, capsys):
    argv = command.argv()
    try:
        args = build_parser(argv).parse_args(argv)
    except SystemExit as exc:
        err = capsys.readouterr().err
        assert exc.code == 0, f"{command.page}:{command.line}: `{command.text}` does not parse: {err}"
        return
    assert callable(args.func)


@pytest.fixture
def workdir(tmp_path, user_env) -> Path:
    """A folder with what the examples refer to: docs/ to write into and a journal to resume."""
    (tmp_path / "docs").mkdir()
    subprocess.run([str(UNOX), "table", "--players", "Ann,Bob,Cy", "--journal", "table.db"],
                   input='{"cmd":"deal","dealer":"Ann"}\n', text=True, env=user_env, cwd=tmp_path, check=True,
                   capture_output=True)
    kept = Path(user_env["XDG_STATE_HOME"]) / "unox" / "tables"  # where `unox play` keeps its tables
    kept.mkdir(parents=True)
    subprocess.run([str(UNOX), "table", "--players", "Ann,Bob,Cy", "--journal", str(kept / "kept.db")],
                   input='{"cmd":"deal","dealer":"Ann"}\n', text=True, env=user_env, cwd=tmp_path, check=True,
                   capture_output=True)
    return tmp_path


SERVERS = ("simulate-device",)  # they run until stopped: started, checked, stopped with Ctrl-C


def is_client(command: DocCommand) -> bool:
    return "--send" in command.argv()


def with_socket(argv: list[str], socket: Path) -> list[str]:
    """The example's argv with its control socket moved into the test's folder."""
    return [str(socket) if i and argv[i - 1] == "--control" else word for i, word in enumerate(argv)]


@pytest.mark.parametrize("command", [c for c in RUNNABLE if c.argv()[0] in SERVERS], ids=name)
def test_every_server_example_starts_and_stops_on_ctrl_c(command: DocCommand, workdir, user_env):
    """A server example is started and stopped; a client example (`--send`) talks to a started server."""
    socket = workdir / "sim.sock"
    server = ["simulate-device", "--pty", "--control", str(socket)] if is_client(command) else command.argv()
    process = subprocess.Popen([str(UNOX), *with_socket(server, socket)], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=user_env,
                               cwd=workdir)
    try:
        first = process.stdout.readline().strip()
        assert first.startswith("/dev/"), f"{name(command)}: first line {first!r}"
        if is_client(command):
            done = subprocess.run([str(UNOX), *with_socket(command.argv(), socket)], capture_output=True,
                                  text=True, env=user_env, cwd=workdir, timeout=60)
            assert done.returncode == 0 and done.stdout.strip(), (done.stdout, done.stderr)
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0 and "Traceback" not in err, err


@pytest.mark.parametrize("command", [c for c in RUNNABLE if c.argv()[0] not in SERVERS], ids=name)
def test_every_example_that_needs_no_hardware_runs(command: DocCommand, workdir, user_env):
    env = {**user_env, "LOGNAME": "pi"}  # `unox install service` prints a unit for the login user
    done = subprocess.run([str(UNOX), *command.argv()], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, env=env, cwd=workdir, timeout=300)
    where = f"{command.page}:{command.line}: `{command.text}`"
    assert done.returncode == 0, f"{where} exited {done.returncode}: {done.stderr}"
    assert "Traceback" not in done.stderr, where


@pytest.fixture
def user_env(tmp_path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith("XDG_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_STATE_HOME=str(home / ".state"))
    return env
