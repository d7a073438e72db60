"""Issue 26 item 16: one convention for option values over every command. A number option is checked while
parsing, so a malformed or out-of-range value is argparse's usage error in every command: the command's
usage, then `unox CMD: error: argument --OPT: ... give ... from LOW to HIGH`, exit 2. `demo` and `play`
exited 1 in another form, `simulate-device --seed abc` gave the raw `invalid int value`, and
`simulate-device --speed 0` was taken though its range is 0.01 to 100."""

from __future__ import annotations

import argparse
import re

import pytest
from unox.cli.main import build_parser, main
from unox.cli.numbers import SEED_MAX

from .conftest import Done, usage_error

RANGE = re.compile(r"^(?:whole )?number from (\S+) to (\S+)")


def parsers() -> list[tuple[list[str], argparse.ArgumentParser]]:
    """Every command and sub-command with its words, e.g. (["install", "broker"], parser)."""
    found = []

    def walk(words: list[str], parser: argparse.ArgumentParser) -> None:
        found.append((words, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk([*words, name], child)

    walk([], build_parser())
    return found


def value_options() -> list[tuple[list[str], str, object]]:
    """(command words, option, its type) for every option of every command that takes a value."""
    return [
        (words, action.option_strings[-1], action.type)
        for words, parser in parsers()
        for action in parser._actions
        if action.option_strings and action.nargs != 0 and not isinstance(action, argparse._HelpAction)
    ]


def number_options() -> list[tuple[list[str], str, str, str]]:
    found = []
    for words, option, kind in value_options():
        match = RANGE.match(getattr(kind, "__name__", ""))
        if match:
            found.append((words, option, match.group(1), match.group(2)))
    return found


def test_every_command_is_walked_and_has_number_options():
    commands = {words[0] for words, _ in parsers() if words}
    numbered = {words[0] for words, *_ in number_options()}
    assert {"demo", "play", "table", "serve", "sim", "press", "profile", "calibrate", "diagnose",
            "simulate-device", "tournament", "install"} <= numbered <= commands


def test_no_option_takes_a_bare_int_or_float():
    """A bare `type=int` answers `invalid int value: 'abc'`, with no range: every number gives its range."""
    bare = [(" ".join(words), option) for words, option, kind in value_options() if kind in (int, float)]
    assert bare == []


def out_of_range(high: str) -> str:
    return str(int(high) + 1) if re.fullmatch(r"\d+", high) else str(float(high) * 10 + 1)


@pytest.mark.parametrize("words, option, low, high",
                         number_options(), ids=[f"{' '.join(w)} {o}" for w, o, *_ in number_options()])
def test_a_bad_number_is_a_usage_error_naming_its_range(words, option, low, high, capsys):
    for value in ("abc", out_of_range(high)):
        with pytest.raises(SystemExit) as stop:
            main([*words, option, value])
        out, err = capsys.readouterr()
        assert stop.value.code == 2 and out == ""
        last = usage_error(Done(stop.value.code, out, err), " ".join(words))
        assert f"argument {option}" in last and f"from {low} to {high}" in last, last


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--players", "1"],
        ["demo", "--pace", "nan"],
        ["play", "--players", "Ann,Bob", "--seed", "7x"],
        ["table", "--players", "Ann,Bob", "--target", "0"],
        ["simulate-device", "--pty", "--seed", "abc"],
        ["simulate-device", "--pty", "--seed", str(SEED_MAX + 1)],
        ["simulate-device", "--pty", "--speed", "0"],
        ["tournament", "demo", "--seed", "-1"],
    ],
)
def test_the_commands_that_differed_give_the_same_usage_error(argv, unox):
    """As a person meets them: a subprocess, usage then one error line, exit 2, nothing started."""
    done = unox(*argv, timeout=30)
    command = " ".join(argv[:2]) if argv[0] == "tournament" else argv[0]
    last = usage_error(done, command)
    assert "argument --" in last and " to " in last and "invalid int value" not in done.err
    assert done.out == ""


def test_the_seed_range_is_the_same_everywhere():
    seeds = {(" ".join(words), low, high) for words, option, low, high in number_options()
             if option == "--seed"}
    assert {(low, high) for _, low, high in seeds} == {("0", str(SEED_MAX))}, seeds


def test_the_broker_tables_bound_agrees_with_the_installer():
    from unox.cli.commands.install import MAX_BROKER_TABLES
    from unox.install_broker import MAX_TABLES

    assert MAX_BROKER_TABLES == MAX_TABLES
