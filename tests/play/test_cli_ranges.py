"""Issue 8.8: every number option of `unox play` and `unox demo` is checked where it is typed, and the
refusal gives its range (a usage error: exit 2, the argparse form)."""

import pytest
from unox.cli.main import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--players", "A,B", "--seed", "-1"], f"--seed: -1 is out of range; give 0 to {2**63 - 1}"),
        (["play", "--players", "A,B", "--seed", "7x"], "--seed: '7x' is not a whole number; give 0 to"),
        (["play", "--players", "A,B", "--target", "0"], "--target: 0 is out of range; give 1 to 100000"),
        (["demo", "--seed", "-1"], "argument --seed: -1 is out of range; give 0 to"),
        (["demo", "--players", "1"], "argument --players: 1 is out of range; give 2 to 10"),
        (["demo", "--players", "11"], "argument --players: 11 is out of range; give 2 to 10"),
        (["demo", "--target", "9999999"], "argument --target: 9999999 is out of range; give 1 to 100000"),
        (["demo", "--pace", "-1"], "argument --pace: -1 is out of range; give 0 to 10 seconds"),
        (["demo", "--pace", "nan"], "argument --pace: nan is out of range; give 0 to 10 seconds"),
    ],
)
def test_a_number_out_of_range_is_refused_with_its_range(argv, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    out, err = capsys.readouterr()
    assert stopped.value.code == 2 and out == ""
    assert message in err.splitlines()[-1]


def test_the_largest_seed_is_taken(run_cli):
    code, out, _ = run_cli(["demo", "--plain", "--players", "2", "--target", "1", "--seed", str(2**63 - 1)])
    assert code == 0 and f"seed {2**63 - 1}" in out.splitlines()[0]
