"""`unox sim --games N --players K [--bot ...] [--profile ...] [--seed S] [--json] [--silent]`."""

import io

import pytest
from unox.cli.commands import sim as sim_command
from unox.cli.errors import CommandError
from unox.cli.main import build_parser, main
from unox.cli.progress import Progress
from unox.simulation import SimulationError


def run_cli(argv):
    args = build_parser().parse_args(argv)
    return args.func(args)


def test_human_summary_names_every_tally(capsys):
    assert main(["sim", "--games", "2", "--players", "3", "--bot", "mix", "--seed", "4", "--silent"]) == 0
    out = capsys.readouterr().out
    words = ("2 games, 3 players", "hands:", "turns", "presses", "cards fired", "wins by seat", "wins by bot")
    for word in words:
        assert word in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bot", "smart"], "unknown bot 'smart'; use one of random, heuristic, mix"),
        (["--profile", "wild"], "unknown eject profile 'wild'; use one of measured, arduino, gentle, brutal"),
    ],
)
def test_bad_option_exits_1_with_one_line_saying_what_to_do(argv, message, capsys):
    with pytest.raises(CommandError, match=message):
        run_cli(["sim", *argv])
    assert main(["sim", "--silent", *argv]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("unox: error: ") and message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "argument --games: 0 is out of range; give a whole number from 1 to 1000000"),
        (["--players", "1"], "argument --players: 1 is out of range; give a whole number from 2 to 10"),
        (["--players", "11"], "argument --players: 11 is out of range; give a whole number from 2 to 10"),
        (["--target", "0"], "argument --target: 0 is out of range; give a whole number from 1 to 100000"),
        (["--seed", "-1"], "argument --seed: -1 is out of range; give a whole number from 0 to 4294967295"),
    ],
)
def test_a_number_out_of_range_is_refused_where_it_is_typed_with_its_range(argv, message, capsys):
    # Issue 8 item 8: a usage error of `unox sim` (exit 2, its usage), before any game is played.
    with pytest.raises(SystemExit) as exit_info:
        main(["sim", "--silent", *argv])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2 and out == ""
    assert err.startswith("usage: unox sim ") and err.rstrip().endswith(f"unox sim: error: {message}")


def test_custom_profile_from_the_config_file(tmp_path, capsys):
    path = tmp_path / "unox.toml"
    path.write_text("[profiles.kids]\nbase = \"gentle\"\ncards = { max = 3, means = 2 }\n")
    argv = ["sim", "--games", "1", "--players", "2", "--bot", "heuristic", "--profile", "kids",
            "--config", str(path), "--seed", "1", "--silent"]
    assert main(argv) == 0
    assert "profile kids" in capsys.readouterr().out


class Recorded(Progress):
    """A progress bar drawn into a buffer, as on a terminal."""

    drawn = io.StringIO()

    def __init__(self, total, label, *, silent=False, stream=None):
        super().__init__(total, label, silent=silent, stream=Recorded.drawn)


@pytest.mark.parametrize(("flag", "drawn"), [([], True), (["--silent"], False), (["--json"], False)])
def test_progress_bar_counts_games_unless_silent(monkeypatch, capsys, flag, drawn):
    Recorded.drawn = io.StringIO()
    monkeypatch.setattr(sim_command, "Progress", Recorded)
    assert main(["sim", "--games", "3", "--players", "2", "--bot", "heuristic", "--seed", "1", *flag]) == 0
    assert ("3/3" in Recorded.drawn.getvalue()) is drawn


def test_a_broken_game_is_one_clear_error_naming_the_seed(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise SimulationError("game with seed 9 did not end within 10 actions")

    monkeypatch.setattr("unox.simulation.simulate", broken)  # the command imports it when it runs
    with pytest.raises(CommandError, match=r"did not end within 10 actions; this is a bug.*--seed 77"):
        run_cli(["sim", "--games", "1", "--seed", "77"])
    capsys.readouterr()
    assert main(["sim", "--games", "1", "--seed", "77", "--silent"]) == 1
    err = capsys.readouterr().err
    assert "--seed 77" in err and err.count("\n") == 1
