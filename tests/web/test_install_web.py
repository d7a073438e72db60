"""The boot service's `--web` choice: `unox play --web` with a fixed PIN, a command line the CLI accepts."""

from __future__ import annotations

import shlex

import pytest
from unox import install


def exec_words(unit_text: str) -> list[str]:
    line = next(line for line in unit_text.splitlines() if line.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def test_the_web_choice_serves_phones_beside_the_console_ui_with_a_fixed_pin():
    from unox.cli.main import build_parser

    unit = install.service_unit("play", user="pi", unox="/opt/unox/bin/unox", players="Ann,Bob",
                                web_pin="2468")
    words = exec_words(unit)
    assert words[words.index("--web"):][:3] == ["--web", "--pin", "2468"]
    from unox.cli.web_option import web_options

    args = build_parser().parse_args(words[1:])
    assert args.command == "play" and args.web and args.pin == "2468" and web_options(args).port == 8765


def test_the_install_cli_passes_the_web_pin_into_the_unit(capsys):
    from unox.cli.main import main

    assert main(["install", "service", "--mode", "play", "--players", "Ann,Bob", "--user", "pi",
                 "--unox", "/opt/unox/bin/unox", "--web", "1357"]) == 0
    assert "--web --pin 1357" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("mode", "pin", "says"),
    [("press", "2468", "only applies to --mode play"), ("play", "12", "4 to 12 digits"),
     ("play", "24 68", "4 to 12 digits")],
)
def test_a_bad_web_choice_never_reaches_the_unit(mode, pin, says):
    players = "Ann,Bob" if mode == "play" else None
    with pytest.raises(install.InstallError, match=says):
        install.service_unit(mode, user="pi", unox="/opt/unox/bin/unox", players=players, web_pin=pin)
