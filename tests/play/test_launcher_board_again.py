"""Issue 22 item 1 at a boot service's command line: `unox play --continue FILE --launcher PORT` (and the same
`--journal FILE` command run again) names its launcher every time, so naming it takes no other board. A
stranger at that port is refused naming both boards, with the journal left as it was; `--accept-launcher`
takes it on purpose, and `--resume FILE --launcher PORT` still does by itself."""

from unox.table.journal import Journal
from unox.table.runtime import BOARD_KEY

OURS = "sim:?seed=2&cards=60&jam=0&double=0&stuck=0"
OTHER = "sim:?seed=3&cards=60&jam=0&double=0&stuck=0"


def view(path) -> tuple:
    with Journal(path) as journal:
        return journal.raw_rows(), journal.get_meta(BOARD_KEY)


def started(run_cli, path) -> str:
    """A table of Ann and Bob on OURS, dealt and one press fired; the board it is bound to."""
    argv = ["play", "--plain", "--journal", str(path), "--players", "Ann,Bob", "--seed", "2",
            "--launcher", OURS]
    code, out, err = run_cli(argv, stdin="deal Ann\nflip G7\npress\nquit\nyes\n")
    assert (code, err) == (0, ""), err
    board = view(path)[1]
    assert board
    return board


def test_the_journal_command_again_refuses_a_stranger_at_its_launcher(tmp_path, run_cli):
    path = tmp_path / "j.db"
    ours = started(run_cli, path)
    before = view(path)
    code, out, err = run_cli(["play", "--plain", "--journal", str(path), "--launcher", OTHER], stdin="")
    assert code != 0 and err.count("\n") == 1
    assert f"bound to launcher board {ours}" in err and "--accept-launcher" in err
    assert f"the launcher {OTHER} is board" in err  # as typed, not the spec the sim was opened with
    assert "to --resume" not in err  # the remedy for the command typed
    assert view(path) == before


def test_continue_refuses_a_stranger_and_takes_it_with_accept_launcher(tmp_path, run_cli):
    path = tmp_path / "j.db"
    ours = started(run_cli, path)
    before = view(path)
    code, out, err = run_cli(["play", "--plain", "--continue", str(path), "--launcher", OTHER], stdin="")
    assert code != 0 and f"bound to launcher board {ours}" in err
    assert f"the launcher {OTHER} is board" in err and "add --accept-launcher to the command" in err
    assert "to --resume" not in err
    assert view(path) == before  # nothing fired, nothing booked, still bound to ours
    code, out, err = run_cli(["play", "--plain", "--continue", str(path), "--launcher", OTHER,
                              "--accept-launcher"], stdin="quit\nyes\n")
    assert (code, err) == (0, ""), err
    now = view(path)[1]
    assert now != ours and f"now fires launcher board {now}" in out and "as --accept-launcher said" in out


def test_the_same_board_again_continues_without_accepting(tmp_path, run_cli):
    path = tmp_path / "j.db"
    ours = started(run_cli, path)
    argv = ["play", "--plain", "--continue", str(path), "--launcher", OURS]
    code, out, err = run_cli(argv, stdin="quit\nyes\n")
    assert (code, err) == (0, ""), err
    assert "Resumed from" in out and view(path)[1] == ours


def test_accept_launcher_with_resume_or_without_launcher_is_refused_writing_nothing(tmp_path, run_cli):
    path = tmp_path / "j.db"
    started(run_cli, path)
    before = sorted(tmp_path.iterdir()), view(path)
    code, out, err = run_cli(["play", "--plain", "--resume", str(path), "--launcher", OTHER,
                              "--accept-launcher"], stdin="")
    assert code == 2 or code == 1
    assert "--accept-launcher goes with --continue, --journal or --tournament" in err
    code, out, err = run_cli(["play", "--plain", "--continue", str(path), "--accept-launcher"], stdin="")
    assert code != 0 and "add --launcher serial:PORT" in err
    assert (sorted(tmp_path.iterdir()), view(path)) == before


def stored_launcher(path) -> str:
    with Journal(path) as journal:
        return journal.settings["launcher"]


def test_a_board_taken_with_resume_launcher_is_the_one_the_next_plain_resume_opens(tmp_path, run_cli):
    path = tmp_path / "j.db"
    ours = started(run_cli, path)
    argv = ["play", "--plain", "--resume", str(path), "--launcher", OTHER]
    code, out, err = run_cli(argv, stdin="quit\nyes\n")
    assert (code, err) == (0, ""), err
    other = view(path)[1]
    assert other != ours and stored_launcher(path) == OTHER  # kept as the user typed it
    code, out, err = run_cli(["play", "--plain", "--resume", str(path)], stdin="quit\nyes\n")
    assert (code, err) == (0, ""), err
    assert "Resumed from" in out and "now fires" not in out and view(path)[1] == other


def test_a_board_taken_with_accept_launcher_is_the_one_the_next_plain_resume_opens(tmp_path, run_cli):
    path = tmp_path / "j.db"
    ours = started(run_cli, path)
    code, out, err = run_cli(["play", "--plain", "--continue", str(path), "--launcher", OTHER,
                              "--accept-launcher"], stdin="quit\nyes\n")
    assert (code, err) == (0, ""), err
    assert view(path)[1] != ours and stored_launcher(path) == OTHER
    code, out, err = run_cli(["play", "--plain", "--resume", str(path)], stdin="quit\nyes\n")
    assert (code, err) == (0, ""), err
    assert "Resumed from" in out and view(path)[1] != ours


def test_a_refused_stranger_leaves_the_tables_launcher_as_it_was(tmp_path, run_cli):
    path = tmp_path / "j.db"
    started(run_cli, path)
    code, out, err = run_cli(["play", "--plain", "--continue", str(path), "--launcher", OTHER], stdin="")
    assert code != 0
    assert stored_launcher(path) == OURS
