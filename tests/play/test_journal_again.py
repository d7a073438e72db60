"""Issue 21: `unox play --journal FILE` run a second time on the same table (quit, then the same command
again, with or without the same --players and --rules) continues that table; options naming another table
are refused in one line that says which and what to type, and the file is left as it was."""

from unox.table.journal import Journal

from tests.play.test_continue import finished_game


def play(run_cli, path, lines, *extra):
    argv = ["play", "--plain", "--journal", str(path), *extra]
    return run_cli(argv, stdin="".join(line + "\n" for line in lines))


def cmds(path) -> list[str]:
    with Journal(path) as journal:
        return [entry["cmd"] for entry in journal.entries()]


def started(run_cli, path) -> None:
    code, out, err = play(run_cli, path, ["deal Ann", "flip G7", "quit", "yes"], "--players", "Ann,Bob",
                          "--seed", "2")
    assert (code, err) == (0, ""), err
    assert cmds(path) == ["deal", "flip"]


def test_the_same_command_again_continues_the_table(tmp_path, run_cli):
    path = tmp_path / "j.db"
    started(run_cli, path)
    code, out, err = play(run_cli, path, ["G5", "quit", "yes"], "--players", "Ann,Bob", "--seed", "2")
    assert (code, err) == (0, ""), err
    assert "Resumed from" in out and "Bob plays G5." in out
    assert cmds(path) == ["deal", "flip", "play"]


def test_the_journal_alone_continues_the_table(tmp_path, run_cli):
    path = tmp_path / "j.db"
    started(run_cli, path)
    code, out, err = play(run_cli, path, ["G5", "quit", "yes"])
    assert (code, err) == (0, ""), err
    assert "Bob plays G5." in out
    assert cmds(path) == ["deal", "flip", "play"]


def test_the_same_players_and_rules_continue_the_table(tmp_path, run_cli):
    path = tmp_path / "j.db"
    started(run_cli, path)
    code, out, err = play(run_cli, path, ["G5", "quit", "yes"], "--players", "Ann,Bob", "--rules", "extreme")
    assert (code, err) == (0, ""), err
    assert cmds(path) == ["deal", "flip", "play"]


def test_options_of_another_table_are_refused_saying_which_and_what_to_type(tmp_path, run_cli):
    path = tmp_path / "j.db"
    started(run_cli, path)
    kept, folder = path.read_bytes(), sorted(tmp_path.rglob("*"))
    for extra, named in ((["--players", "Ann,Cy"], "--players Ann,Cy"),
                         (["--rules", "classic"], "--rules classic"),
                         (["--players", "Ann,Bob", "--target", "200"], "--target 200")):
        code, out, err = play(run_cli, path, ["G5"], *extra)
        assert code == 1 and err.count("\n") == 1, err
        assert named in err and "Ann, Bob" in err, err  # which options, and the table the file holds
        assert f"--resume {path}" in err and "new --journal" in err, err  # what to type
        assert path.read_bytes() == kept  # nothing written
    assert sorted(tmp_path.rglob("*")) == folder  # no other file either


def test_a_finished_game_says_how_to_start_a_new_one_there(tmp_path, run_cli):
    path = tmp_path / "j.db"
    kept = finished_game(path)
    code, out, err = play(run_cli, path, ["quit", "yes"], "--players", "Ann,Bob,Cy")
    assert code == 1 and err.count("\n") == 1, err
    assert "finished game" in err and f"--continue {path} --players Ann,Bob,Cy" in err, err
    assert path.read_bytes() == kept
