"""The options `unox table` and `unox play` share: a new table's settings, or a journal to resume.

One place checks them, so both commands refuse the same mistakes with the same words.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from unox.cli.errors import CommandError
from unox.table.settings import MAX_TARGET, SCORINGS, SettingsError, TableSettings, parse_players

NEW_TABLE_ONLY = ("players", "profile", "seed", "scoring", "target", "journal")
MAX_SEED = 2**63 - 1  # the simulator's seed range


def whole_number(low: int, high: int):
    """An argparse type: a whole number from `low` to `high`, refused with the range in the message."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            message = f"{text!r} is not a whole number; give {low} to {high}"
            raise argparse.ArgumentTypeError(message) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range; give {low} to {high}")
        return value

    return parse


def seconds(low: float, high: float):
    """An argparse type: a number of seconds from `low` to `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            message = f"{text!r} is not a number of seconds; give {low:g} to {high:g}"
            raise argparse.ArgumentTypeError(message) from None
        if not low <= value <= high:  # also refuses nan
            raise argparse.ArgumentTypeError(f"{text} is out of range; give {low:g} to {high:g} seconds")
        return value

    return parse


def add_table_options(parser: argparse.ArgumentParser, *, launcher_help: str) -> None:
    parser.add_argument("--players", help="seats clockwise, e.g. Ann,Bob,Cy (2 to 10)")
    parser.add_argument("--launcher", metavar="SPEC", help=launcher_help)
    parser.add_argument("--profile", help="eject profile for the launcher (default measured)")
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED),
                        help=f"repeatable eject counts and simulator, 0 to {MAX_SEED} (default: random)")
    parser.add_argument("--scoring", choices=SCORINGS, help="g1 (default), g2 or g3")
    parser.add_argument("--target", type=whole_number(1, MAX_TARGET),
                        help=f"score that ends the game, 1 to {MAX_TARGET} (default 500)")
    parser.add_argument("--journal", type=Path, metavar="FILE", help="SQLite journal of every accepted event")
    parser.add_argument("--resume", type=Path, metavar="FILE", help="continue the table a journal holds")
    parser.add_argument(
        "--config", metavar="FILE", help="calibrated launcher settings (default: ~/.config/unox/config.toml)"
    )


def settings_from_args(args: argparse.Namespace, *, default_launcher: str) -> TableSettings:
    """A new table's settings, checked against their bounds; a bad value is a CommandError."""
    if not args.players:
        raise CommandError("give the seats with --players Ann,Bob,Cy, or continue a table with --resume FILE")
    try:
        return TableSettings(
            players=parse_players(args.players),
            scoring=args.scoring or "g1",
            target=500 if args.target is None else args.target,
            profile=checked_profile(args.profile or "measured"),
            seed=args.seed,
            launcher=args.launcher or default_launcher,
        )
    except SettingsError as exc:
        raise CommandError(str(exc)) from exc


def check_resume_args(args: argparse.Namespace) -> Path:
    """The journal to resume; the settings come from it, so new-table options are refused."""
    given = [f"--{name}" for name in NEW_TABLE_ONLY if getattr(args, name) is not None]
    if given:
        raise CommandError(
            f"--resume takes the table's settings from the journal; leave out {', '.join(given)} "
            "(only --launcher may change, e.g. a new serial port)"
        )
    if not args.resume.is_file():
        raise CommandError(f"no journal at {args.resume}; give the file written by --journal")
    return args.resume


def checked_profile(name: str) -> str:
    from unox.profiles import ProfileError, get_spec

    try:
        get_spec(name)
    except ProfileError as exc:
        raise CommandError(str(exc)) from exc
    return name


def launcher_config(args: argparse.Namespace) -> dict:
    """The checked config file (`unox calibrate` writes it): its [firmware] values go to the launcher."""
    from unox import config as config_file

    try:
        return config_file.load(args.config)
    except config_file.ConfigError as exc:
        raise CommandError(str(exc)) from exc
