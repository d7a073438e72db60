"""Issue 21: an option that means something only beside another is refused without it, never ignored: the
phones' options (`--host`, `--port`, `--pin`, `--operator-pin`, `--allow-host`) without `--web` in `play`
and `demo`; a tournament's `--table` and `--bots` without `--tournament`; `demo --plain` with `--web` or
`--pace`; `play --list` with anything else (it lists and exits); `table --bots` with `--launcher`, `--profile`
or `--config` (its bots play in the engine: no launcher fires). Each is argparse's usage error (exit 2,
one line naming what to add or leave out), and nothing is written: a `play` that went ahead would make its
journal in the tables folder."""

from __future__ import annotations

import pytest

from .conftest import usage_error
from .test_refused_starts import left_behind

PLAY = ("play", "--players", "Ann,Bob", "--launcher", "sim", "--plain")
TABLE = ("table", "--players", "Ann,Bob")
SERVE = ("serve", "--players", "Ann,Bob", "--host", "127.0.0.1", "--pin", "", "--operator-pin", "")
DEMO = ("demo", "--plain", "--seed", "1")
WEB_ALONE = [("--host", "127.0.0.1"), ("--port", "9999"), ("--pin", "1234"), ("--operator-pin", "1234"),
             ("--allow-host", "unox.example")]

# (the command line, the options the error must name, what it must say to add or leave out)
LONE = [
    *[((*PLAY, *option), [option[0]], "add --web") for option in WEB_ALONE],
    *[((*PLAY, "--no-journal", *option), [option[0]], "add --web") for option in WEB_ALONE],
    *[((*DEMO, *option), [option[0]], "add --web") for option in WEB_ALONE],
    ((*DEMO, "--port", "9999", "--pin", "1"), ["--port and --pin"], "add --web"),
    ((*PLAY, "--table", "3"), ["--table"], "add --tournament URL"),
    ((*SERVE, "--table", "3"), ["--table"], "add --tournament URL"),
    ((*TABLE, "--table", "3"), ["--table"], "add --tournament URL"),
    ((*TABLE, "--bots", "heuristic"), ["--bots"], "add --tournament URL"),
    ((*TABLE, "--table", "3", "--bots", "random"), ["--table and --bots"], "add --tournament URL"),
    ((*DEMO, "--pace", "1"), ["--pace"], "leave out --pace"),
    ((*DEMO, "--web", "--host", "127.0.0.1", "--pin", ""), ["--web"], "leave out --web"),
    *[(("table", "--tournament", "mqtt://u:p@127.0.0.1:1/club", "--table", "1", "--bots", "random", *fired),
       [fired[0]], f"leave out {fired[0]}")
      for fired in (("--launcher", "sim"), ("--profile", "brutal"), ("--config", "unox.toml"))],
    (("play", "--list", "--players", "Ann,Bob"), ["--players"], "leave out --players"),
    (("play", "--list", "--continue"), ["--continue"], "leave out --continue"),
]


@pytest.mark.parametrize(("argv", "named", "says"), LONE, ids=[" ".join(argv) for argv, _, _ in LONE])
def test_an_option_without_the_one_it_needs_is_refused_and_nothing_is_written(unox, home, argv, named,
                                                                               says):
    done = unox(*argv, stdin="quit\n", timeout=60)
    line = usage_error(done, argv[0])
    assert all(name in line for name in named) and says in line, line
    assert done.out == ""
    assert left_behind(home) == []
