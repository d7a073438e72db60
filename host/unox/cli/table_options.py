"""The options `unox table` and `unox play` share: a new table's settings, or a journal to resume.

One place checks them, so both commands refuse the same mistakes with the same words.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from unox.cli.errors import CommandError
from unox.rules.editions import rule_names
from unox.table.settings import SCORINGS, SettingsError, TableSettings, parse_players

NEW_TABLE_ONLY = ("players", "profile", "seed", "scoring", "target", "journal", "rules", "variant")


def add_table_options(parser: argparse.ArgumentParser, *, launcher_help: str) -> None:
    parser.add_argument("--players", help="seats clockwise, e.g. Ann,Bob,Cy (2 to 10)")
    parser.add_argument("--launcher", metavar="SPEC", help=launcher_help)
    parser.add_argument("--profile", help="eject profile for the launcher (default measured)")
    parser.add_argument("--seed", type=int, help="repeatable eject counts and simulator (default: random)")
    parser.add_argument(
        "--rules", metavar="EDITION", help=f"the edition: {', '.join(rule_names())} (default extreme)"
    )
    parser.add_argument("--variant", help="one the edition has: two-player, elimination, partners, rotation")
    parser.add_argument("--scoring", choices=SCORINGS, help="g1 (default), g2 or g3")
    parser.add_argument("--target", type=int, help="score that ends the game (default 500)")
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
            rules=args.rules or "extreme",
            variant=args.variant,
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
