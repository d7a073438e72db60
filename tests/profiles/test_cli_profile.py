"""`unox profile NAME --presses N [--seed S] [--json] [--config FILE]`."""

import json

import pytest
from unox import config as config_file
from unox.cli.errors import CommandError
from unox.cli.main import build_parser, main
from unox.profiles import PROFILE_NAMES


def run_cli(argv):
    """Run one command the way `main` does, but let a CommandError through to the test."""
    args = build_parser().parse_args(argv)
    return args.func(args)


def test_json_has_the_promised_keys_and_consistent_counts(capsys):
    assert main(["profile", "brutal", "--presses", "2000", "--seed", "1", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    for key in ("fire_gaps", "cards_per_fire_mean", "fire_rate", "cards_per_press_mean"):
        assert key in stats
    assert stats["presses"] == 2000
    assert stats["fire_rate"] == stats["firings"] / 2000
    assert stats["cards_per_press_mean"] == stats["cards_fired"] / 2000


def test_same_seed_same_statistics(capsys):
    main(["profile", "measured", "--presses", "3000", "--seed", "5", "--json"])
    first = capsys.readouterr().out
    main(["profile", "measured", "--presses", "3000", "--seed", "5", "--json"])
    assert capsys.readouterr().out == first


def test_human_table_shows_every_gap_beside_the_real_unit(capsys):
    assert main(["profile", "measured", "--presses", "1000", "--seed", "2", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)  # the same seed by the JSON route: the numbers to show
    assert main(["profile", "measured", "--presses", "1000", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "1000 presses" in out and "cards per firing" in out
    assert f"fire rate: {stats['firings'] / 1000:.2%} of presses" in out
    assert len([line for line in out.splitlines() if line.strip()[:1].isdigit()]) == 5


def test_bad_name_lists_the_valid_names():
    with pytest.raises(CommandError) as info:
        run_cli(["profile", "nope", "--presses", "10"])
    assert all(name in str(info.value) for name in PROFILE_NAMES)


def test_bad_name_exits_1_with_one_line(capsys):
    assert main(["profile", "nope"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("unox: error: unknown eject profile 'nope'") and err.count("\n") == 1


@pytest.mark.parametrize("presses", ["0", "-3", "10000001"])
def test_presses_out_of_range_is_refused_with_the_range(presses, capsys):
    # Issue 8 item 8: checked where it is typed, a usage error of `unox profile` naming the range.
    with pytest.raises(SystemExit) as exit_info:
        main(["profile", "measured", "--presses", presses])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and err.startswith("usage: unox profile ")
    assert f"argument --presses: {presses} is out of range; give a whole number from 1 to 10000000" in err


def test_custom_profile_from_a_config_file(tmp_path, capsys):
    path = tmp_path / "unox.toml"
    path.write_text(
        '[profiles.kids]\nbase = "gentle"\nfire_hazard = [0.5, 1.0]\ncards = { max = 3, means = 2 }\n'
    )
    assert main(["profile", "kids", "--presses", "500", "--seed", "1", "--json", "--config", str(path)]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["profile"] == "kids" and set(stats["fire_gaps"]) == {"1", "2"}
    assert stats["cards_per_fire_max"] <= 3


def test_other_sections_of_the_config_file_are_left_alone(tmp_path, capsys):
    path = config_file.save(config_file.defaults(), tmp_path / "unox.toml")  # every section but profiles
    assert main(["profile", "measured", "--presses", "50", "--json", "--config", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["profile"] == "measured"
    path.write_text("profiles = 3\n")
    with pytest.raises(CommandError, match=r"\[profiles.NAME\]"):
        run_cli(["profile", "measured", "--config", str(path)])


def test_bad_config_value_is_a_command_error(tmp_path):
    path = tmp_path / "unox.toml"
    path.write_text("[profiles.kids]\nfire_hazard = [0.5, 0.5]\n")
    with pytest.raises(CommandError, match="must be 1.0"):
        run_cli(["profile", "kids", "--config", str(path)])


def test_unreadable_or_broken_config_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match="missing.toml does not exist; check the path"):
        run_cli(["profile", "measured", "--config", str(tmp_path / "missing.toml")])
    broken = tmp_path / "broken.toml"
    broken.write_text("[profiles\n")
    with pytest.raises(CommandError, match="not valid TOML"):
        run_cli(["profile", "measured", "--config", str(broken)])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["profile", "nope"], "unknown eject profile 'nope'"),
        (["profile", "measured", "--config", "/nonexistent/unox.toml"], "unox.toml does not exist"),
    ],
)
def test_every_bad_argument_exits_1_with_one_line_and_no_output(argv, message, capsys):
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("unox: error: ") and message in err and err.count("\n") == 1


def test_a_broken_config_exits_1_with_one_line(tmp_path, capsys):
    broken = tmp_path / "broken.toml"
    broken.write_text("[profiles\n")
    assert main(["profile", "measured", "--config", str(broken)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "not valid TOML" in err and err.count("\n") == 1
