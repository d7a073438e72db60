"""Issue 8.8: every number option of `unox play` and `unox demo` is checked where it is typed, and the
refusal gives its range, in the CLI's one-line error form (exit 1)."""

import pytest


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--players", "A,B", "--seed", "-1"], f"--seed -1 is out of range; give 0 to {2**32 - 1}"),
        (["play", "--players", "A,B", "--seed", "7x"], "--seed '7x' is not a whole number; give 0 to"),
        (["play", "--players", "A,B", "--target", "0"], "--target 0 is out of range; give 1 to 100000"),
        (["demo", "--seed", "-1"], "--seed -1 is out of range; give 0 to"),
        (["demo", "--players", "1"], "--players 1 is out of range; give 2 to 10"),
        (["demo", "--players", "11"], "--players 11 is out of range; give 2 to 10"),
        (["demo", "--target", "9999999"], "--target 9999999 is out of range; give 1 to 100000"),
        (["demo", "--pace", "-1"], "--pace -1 is out of range; give 0 to 10 seconds"),
        (["demo", "--pace", "nan"], "--pace nan is out of range; give 0 to 10 seconds"),
    ],
)
def test_a_number_out_of_range_is_refused_with_its_range(argv, message, run_cli):
    code, out, err = run_cli(argv)
    assert (code, out) == (1, "")
    assert err.startswith("unox: error: ") and err.count("\n") == 1 and message in err, err


def test_the_largest_seed_is_taken(run_cli):
    code, out, _ = run_cli(["demo", "--plain", "--players", "2", "--target", "1", "--seed", str(2**32 - 1)])
    assert code == 0 and f"seed {2**32 - 1}" in out.splitlines()[0]


def test_the_cli_bounds_agree_with_the_table_and_the_simulator():
    from unox.cli.table_options import MAX_SEED, MAX_TARGET, SCORINGS
    from unox.table import settings
    from unoxsim.url import PARAMETERS

    assert MAX_TARGET == settings.MAX_TARGET and SCORINGS == settings.SCORINGS
    assert MAX_SEED <= PARAMETERS["seed"][3]  # every seed the CLI takes, the simulator takes
