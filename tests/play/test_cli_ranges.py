"""Issue 8.8: every number option of `unox play` and `unox demo` is checked where it is typed, and the
refusal gives its range; since issue 26 item 16 as argparse's usage error (usage, one line, exit 2), as
every other command gives it (tests/cli/test_option_convention.py)."""

import pytest


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--players", "A,B", "--seed", "-1"],
         f"--seed: -1 is out of range; give a whole number from 0 to {2**32 - 1}"),
        (["play", "--players", "A,B", "--seed", "7x"],
         "--seed: '7x' is not a whole number; give one from 0 to"),
        (["play", "--players", "A,B", "--target", "0"],
         "--target: 0 is out of range; give a whole number from 1 to 100000"),
        (["demo", "--seed", "-1"], "--seed: -1 is out of range; give a whole number from 0 to"),
        (["demo", "--players", "1"], "--players: 1 is out of range; give a whole number from 2 to 10"),
        (["demo", "--players", "11"], "--players: 11 is out of range; give a whole number from 2 to 10"),
        (["demo", "--target", "9999999"],
         "--target: 9999999 is out of range; give a whole number from 1 to 100000"),
        (["demo", "--pace", "-1"], "--pace: -1 is out of range; give a number from 0 to 10 seconds"),
        (["demo", "--pace", "nan"], "--pace: nan is out of range; give a number from 0 to 10 seconds"),
    ],
)
def test_a_number_out_of_range_is_refused_with_its_range(argv, message, run_cli, capsys):
    with pytest.raises(SystemExit) as stop:
        run_cli(argv)
    out, err = capsys.readouterr()
    assert (stop.value.code, out) == (2, "")
    assert err.startswith(f"usage: unox {argv[0]} ")
    assert err.splitlines()[-1].startswith(f"unox {argv[0]}: error: argument {message}"), err


def test_the_largest_seed_is_taken(run_cli):
    code, out, _ = run_cli(["demo", "--plain", "--players", "2", "--target", "1", "--seed", str(2**32 - 1)])
    assert code == 0 and f"seed {2**32 - 1}" in out.splitlines()[0]


def test_the_cli_bounds_agree_with_the_table_and_the_simulator():
    from unox.cli.table_options import MAX_SEED, MAX_TARGET, SCORINGS
    from unox.table import settings
    from unoxsim.url import PARAMETERS

    assert MAX_TARGET == settings.MAX_TARGET and SCORINGS == settings.SCORINGS
    assert MAX_SEED <= PARAMETERS["seed"][3]  # every seed the CLI takes, the simulator takes
