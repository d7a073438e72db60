"""The README opens with the two set-up commands, and CI runs the second one verbatim."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    head = text.split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", head, re.S)]


def test_readme_opens_with_exactly_two_commands():
    commands = readme_commands()
    assert len(commands) == 2
    assert all("\n" not in command for command in commands)
    assert commands[0].endswith("unox demo")
    assert commands[1].endswith("-m pytest -n 4")  # four workers, the chip's tests on one (tests/conftest.py)


def test_ci_runs_the_readme_test_command_verbatim():
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert readme_commands()[1] in ci_lines


def test_every_documented_subcommand_exists():
    from unox.cli.main import build_parser

    parser = build_parser()
    choices = next(a for a in parser._actions if a.dest == "command").choices
    text = (ROOT / "README.md").read_text()
    for used in set(re.findall(r"`unox ([a-z-]+)", text)) - {"COMMAND"}:
        assert used in choices, f"README mentions `unox {used}` but there is no such command"


def test_the_readme_names_every_debian_package_the_test_command_needs_in_one_apt_line():
    """Issue 26 item 18: without chromium and mosquitto the suite gave 1 failure and 39 errors, and the
    README never named them. CI installs what the suite needs; the README's one apt line names all of it."""
    ci = (ROOT / ".ci" / "run").read_text()
    needed = {name for line in re.findall(r"apt-get install -y ([^\n]+)", ci) for name in line.split()}
    head = (ROOT / "README.md").read_text().split("\n## ", 1)[0]
    lines = re.findall(r"`sudo apt install -y ([^`]+)`", head)
    assert needed >= {"nodejs", "npm", "chromium", "mosquitto", "python3-venv"}
    assert len(lines) == 1 and needed <= set(lines[0].split()), (needed, lines)
