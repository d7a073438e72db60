"""`unox play` and `unox demo` on the command line: usage errors say what to do and exit 1."""


import pytest


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play"], "--players Ann,Bob,Cy"),
        (["play", "--players", "Ann"], "a table seats 2 to 10"),
        (["play", "--players", "Ann,Bob", "--launcher", "warp"], "unknown kind 'warp'"),
        (["play", "--players", "Ann,Bob", "--profile", "wild"], "unknown eject profile 'wild'"),
        (["play", "--resume", "nowhere.db"], "no journal at nowhere.db"),
        (["play", "--resume", "x.db", "--players", "Ann,Bob"], "leave out --players"),
        (["play", "--continue", "t.db", "--resume", "t.db"], "give one of --journal, --resume or --continue"),
        (["play", "--continue", "t.db", "--journal", "j.db", "--players", "Ann,Bob"], "not --journal too"),
        (["play", "--continue", "t.db", "--players", "Ann"], "a table seats 2 to 10"),
        (["play", "--no-journal", "--resume", "x.db"], "--no-journal starts a table without one"),
        (["demo", "--profile", "wild"], "unknown eject profile 'wild'"),
    ],
)
def test_bad_options_exit_1_with_one_line_saying_what_to_do(argv, message, run_cli):
    code, out, err = run_cli(argv)
    assert code == 1
    assert out == ""
    assert err.startswith("unox: error: ") and message in err and err.count("\n") == 1


def test_play_plain_reads_lines_and_answers_each_with_the_next_prompt(run_cli, tmp_path):
    lines = "deal Bob\nflip G7\nG5\nZ9\nquit\nyes\n"
    code, out, _ = run_cli(["play", "--plain", "--players", "Ann,Bob", "--launcher", "sim", "--seed", "2",
                            "--journal", str(tmp_path / "j.db")], stdin=lines)
    assert code == 0
    answers = [line for line in out.splitlines() if line.startswith(("next: ", "not taken: "))]
    assert answers[0].startswith("next: S1:")
    assert answers[1] == "next: Bob: turn up the first card and type it: flip G7 (flip W red for a wild)"
    assert "Ann plays G5." in out
    assert any(a.startswith("not taken: ") and "G7" in a for a in answers)  # Z9 is no card: the syntax
    assert answers[-2].startswith("next: Bob: play a card on G5")
    assert answers[-1].startswith("next: leave the table?")  # quit asks first during a game; yes leaves
