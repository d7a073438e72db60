"""docs/install.md's `unox install` examples are real: each one parses with the real CLI parser."""

import re
import shlex
from pathlib import Path

import pytest
from unox.cli.main import build_parser

DOC = Path(__file__).resolve().parents[2] / "docs" / "install.md"


def install_examples() -> list[list[str]]:
    examples = []
    for block in re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            words = shlex.split(command)
            for i, word in enumerate(words[:-1]):
                if (word == "unox" or word.endswith("/unox")) and words[i + 1] == "install":
                    examples.append(words[i + 1 :])
    return examples


def test_install_md_shows_both_commands_printed_and_written():
    examples = install_examples()
    shown = {(words[1], "--write" in words) for words in examples}
    assert shown == {("service", False), ("service", True), ("udev", False), ("udev", True),
                     ("broker", False), ("broker", True), ("homeassistant", False)}  # the last writes no file


@pytest.mark.parametrize("words", install_examples(), ids=" ".join)
def test_every_install_example_parses(words):
    args = build_parser().parse_args(words)
    assert args.command == "install" and args.what == words[1]
    assert args.func.__module__ == "unox.cli.commands.install" and args.func.__name__ == f"run_{words[1]}"
    assert getattr(args, "write", False) is ("--write" in words)


@pytest.mark.parametrize("what", ["service", "udev", "broker"])
def test_help_has_an_example(what, capsys):
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["install", what, "--help"])
    assert exit_.value.code == 0
    assert "example: sudo" in capsys.readouterr().out
