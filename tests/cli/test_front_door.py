"""What every command shares (issue 8 items 3, 16, 17): the registry, crashes, closed pipes, usage errors."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest
from unox.cli import commands
from unox.cli.main import COMMANDS, build_parser, unlisted_modules

from .conftest import UNOX, usage_error


def test_the_registry_names_every_command_module_with_the_help_it_registers():
    # A module missing here still works (`unlisted_modules`), but is imported on every start: add its line.
    modules = {info.name for info in pkgutil.iter_modules(commands.__path__)}
    assert {module for module, _ in COMMANDS.values()} == modules
    assert unlisted_modules() == []
    full = next(a for a in build_parser()._actions if a.dest == "command")
    registered = {action.dest: action.help for action in full._choices_actions}
    assert registered == {name: help_text for name, (_, help_text) in COMMANDS.items()}


def test_a_module_not_yet_in_the_registry_still_works(monkeypatch, capsys):
    from unox.cli import main as main_module

    trimmed = {name: entry for name, entry in COMMANDS.items() if name != "rules"}
    monkeypatch.setattr(main_module, "COMMANDS", trimmed)
    assert main_module.unlisted_modules() == ["rules"]
    assert main_module.main(["rules", "errors", "--json"]) == 0
    assert "unknown_player" in capsys.readouterr().out


def python(code: str, user_env: dict, tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=user_env,
                          cwd=tmp_path, timeout=120)


LOADED = "import sys\nfrom unox.cli.main import main\n{call}\nprint(sorted(m for m in sys.modules if {test}))"


def test_a_start_imports_only_the_command_chosen(user_env, tmp_path):
    code = LOADED.format(call="main(['rules', 'errors', '--json'])",
                         test="m.startswith('unox.cli.commands.')")
    loaded = python(code, user_env, tmp_path).stdout.splitlines()[-1]
    assert loaded == "['unox.cli.commands.rules']"
    code = LOADED.format(call="main(['--version'])", test="m.startswith(('unox.', 'argparse'))")
    assert python(code, user_env, tmp_path).stdout.splitlines()[-1] == "['unox.cli', 'unox.cli.main']"


def test_demo_plain_imports_neither_textual_nor_rich(user_env, tmp_path):
    code = LOADED.format(call="main(['demo', '--plain', '--seed', '3', '--players', '2', '--target', '50'])",
                         test="m.split('.')[0] in ('textual', 'rich')")
    done = python(code, user_env, tmp_path)
    assert done.stdout.splitlines()[-1] == "[]" and "wins" in done.stdout


CRASH = """
import sys
from unox.cli.commands import rules

def run_errors(args):
    {}["no such key"]

rules.run_errors = run_errors
from unox.cli.main import main
sys.exit(main(["rules", "errors"]))
"""


def test_an_unexpected_error_is_one_line_naming_the_report_and_exits_70(user_env, tmp_path, home):
    done = python(CRASH, user_env, tmp_path)
    assert done.returncode == 70 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    line = done.stderr.strip()
    assert line.startswith("unox: error: unexpected KeyError: 'no such key' (a full report is in ")
    path = line.split("a full report is in ")[1].split(")")[0]
    assert path.startswith(str(home / ".state" / "unox" / "crash"))
    report = open(path, encoding="utf-8").read()
    assert "command: unox rules errors" in report and 'Traceback' in report and "run_errors" in report


def test_the_report_goes_to_the_temp_dir_when_the_state_dir_cannot_be_written(user_env, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the state folder should be")
    env = {**user_env, "XDG_STATE_HOME": str(blocked), "TMPDIR": str(tmp_path)}
    done = python(CRASH, env, tmp_path)
    assert done.returncode == 70 and f"a full report is in {tmp_path}/unox-" in done.stderr


PIPED = [
    ["demo", "--plain", "--seed", "1"],
    ["press", "--launcher", "sim:?seed=1", "--presses", "400"],
    ["sim", "--games", "3", "--seed", "1", "--players", "2"],
    ["diagnose", "--launcher", "sim"],
    ["rules", "diagram"],
]


@pytest.mark.parametrize("argv", PIPED, ids=[argv[0] for argv in PIPED])
def test_a_closed_pipe_is_a_quiet_exit(argv, user_env, tmp_path):
    # `unox ... | head -1`: the reader takes one line and goes.
    shell = f"set -o pipefail; {UNOX} {' '.join(repr(a) for a in argv)} | head -1"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, env=user_env, cwd=tmp_path,
                          timeout=120)
    assert done.stderr == "" and done.stdout.count("\n") == 1
    assert done.returncode in (0, 141)  # 141 = 128 + SIGPIPE, as `yes | head -1`


def test_play_plain_into_a_closed_pipe_is_a_quiet_exit(user_env, tmp_path):
    shell = (f"set -o pipefail; yes press | {UNOX} play --plain --players Ann,Bob --launcher sim "
             "--journal t.db | head -1")
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, env=user_env, cwd=tmp_path,
                          timeout=120)
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr
    assert done.stdout.count("\n") == 1


@pytest.mark.parametrize(("argv", "command"), [
    (["press", "--bogus"], "press"),
    (["firmware", "version", "--bogus"], "firmware version"),
    (["install", "udev", "--bogus"], "install udev"),
    (["sim", "--games", "1", "extra"], "sim"),
])
def test_an_unknown_flag_prints_the_sub_commands_usage(argv, command, unox):
    last = usage_error(unox(*argv), command)
    assert last.startswith(f"unox {command}: error: unrecognized arguments: ")


def test_the_version_and_the_top_level_help(unox):
    version = unox("--version")
    assert version.code == 0 and version.out.startswith("unox ")
    text = unox("--help").out
    assert all(name in text for name in COMMANDS)


def test_installed_script_is_the_one_tested():
    assert UNOX.exists()


def test_the_top_level_help_imports_no_command_and_not_the_simulator(user_env, tmp_path):
    code = ("import sys\nfrom unox.cli.main import main\ntry:\n    main(['--help'])\n"
            "except SystemExit:\n    pass\nprint(sorted(m for m in sys.modules if m.startswith(\n"
            "    ('unox.cli.commands.', 'unoxsim', 'textual'))))")
    assert python(code, user_env, tmp_path).stdout.splitlines()[-1] == "[]"


def test_help_texts_kept_apart_from_their_modules_for_speed_still_match_them():
    # sim's --bot help and the table options' --scoring choices are written out so that `--help` imports
    # neither the bots nor the table; they must name exactly what those modules accept.
    from unox.cli.commands.sim import BOTS_HELP
    from unox.cli.table_options import SCORINGS
    from unox.simulation import BOT_CHOICES
    from unox.table.settings import SCORINGS as TABLE_SCORINGS

    assert SCORINGS == TABLE_SCORINGS
    named = BOTS_HELP.split(" (")[0].replace(" or ", ", ").split(", ")
    assert named == list(BOT_CHOICES)


HELPS = [["--help"], ["calibrate"], ["demo"], ["diagnose"], ["firmware"], ["firmware", "flash"],
         ["firmware", "version"], ["install"], ["install", "service"], ["install", "udev"], ["press"],
         ["profile"], ["rules"], ["sim"], ["simulate-device"], ["table"]]  # play: the ui helper's (reported)


@pytest.mark.parametrize("argv", HELPS, ids=" ".join)
def test_every_help_fits_a_pi_screen_of_80_columns(argv, unox):
    done = unox(*argv, *([] if argv == ["--help"] else ["--help"]), env={"COLUMNS": "80"})
    wide = [line for line in done.out.splitlines() if len(line) > 80]
    assert done.code == 0 and wide == []


def test_the_editions_named_in_help_are_the_rules_editions():
    """`--rules` help lists the editions without importing the rules (fast help): the list must match."""
    from unox.cli.table_options import edition_names
    from unox.rules.editions import rule_names

    assert edition_names() == list(rule_names())
