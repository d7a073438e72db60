"""Issue 26 item 17: every example a `--help` shows parses as the command it shows (the options exist, their
values are in range, the choices are real), the examples name one venv path, and the texts that disagreed
with the code agree: `demo --help` offered Extreme a `partners` variant, `install` left out `broker`,
`tournament demo` fixed seed 0 without saying so, and the config `calibrate` writes had an empty comment."""

from __future__ import annotations

import argparse
import re
import shlex

import pytest
from unox.cli.main import build_parser

from .test_option_convention import parsers

UNOX_LINE = re.compile(r"^(?:examples?:\s*)?(?:sudo\s+)?(?P<path>\S*/)?unox\s+(?P<rest>.*)$")


def examples() -> list[tuple[str, str, str]]:
    """(the command whose help shows it, the venv path it is run by or "", the example's words after unox)."""
    found = []
    for words, parser in parsers():
        text = "\n".join(part for part in (parser.description, parser.epilog) if part)
        for line in text.splitlines():
            match = UNOX_LINE.match(line.strip())
            if match is None:
                continue
            rest = match.group("rest").split("  #", 1)[0]
            rest = re.split(r"\s{2,}(?=[^-\s])", rest, maxsplit=1)[0]  # the words after it explain it
            found.append((" ".join(words) or "unox", match.group("path") or "", rest.strip()))
    return found


def test_the_examples_are_found_in_every_command_that_has_some():
    shown = {command.split()[0] for command, _, _ in examples()}
    assert {"demo", "install", "journal", "play", "serve", "simulate-device", "tournament"} <= shown


@pytest.mark.parametrize("command, path, example", examples(), ids=[e for _, _, e in examples()])
def test_every_help_example_parses(command, path, example):
    try:
        args = build_parser().parse_args(shlex.split(example))
    except SystemExit as exc:  # argparse printed why: an option that does not exist, a value out of range
        pytest.fail(f"`unox {example}` from `unox {command} --help` does not parse (exit {exc.code})")
    assert getattr(args, "func", None) is not None


def test_the_examples_run_unox_from_one_venv_path():
    """docs/install.md makes the venv at ~/unox: a sudo example names ~/unox/bin/unox, never another."""
    assert {path for _, path, _ in examples() if path} == {"~/unox/bin/"}


def variant_help(words: list[str]) -> str:
    parser = dict((tuple(w), p) for w, p in parsers())[tuple(words)]
    return next(a.help for a in parser._actions if "--variant" in a.option_strings)


@pytest.mark.parametrize("words", [["demo"], ["play"], ["table"], ["serve"]])
def test_the_variant_help_offers_extreme_only_its_own_variants(words):
    from unox.rules.editions import get_rules

    text = variant_help(words)
    extreme = re.search(r"extreme: ([^;)]*)", text)
    assert extreme is not None, text
    assert sorted(extreme.group(1).replace(" ", "").split(",")) == sorted(get_rules("extreme").variants)


def test_install_describes_every_thing_it_installs():
    parser = dict((tuple(w), p) for w, p in parsers())[("install",)]
    things = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name in things:
        assert name in parser.description, (name, parser.description)


def test_tournament_demo_says_its_seed_is_0_unless_given():
    parser = dict((tuple(w), p) for w, p in parsers())[("tournament", "demo")]
    seed = next(a for a in parser._actions if "--seed" in a.option_strings)
    assert seed.default == 0 and "default 0" in seed.help


def test_every_line_of_the_config_calibrate_writes_says_what_it_is():
    from unox import config

    lines = [line for line in config.dumps({}).splitlines() if "=" in line]
    empty = [line for line in lines if not line.partition("  # ")[2].strip()]
    assert lines and empty == []
