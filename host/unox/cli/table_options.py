"""The options `unox table` and `unox play` share: a new table's settings, or a journal to resume.

One place checks them, so both commands refuse the same mistakes with the same words.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from unox.cli.errors import CommandError, UsageError
from unox.cli.numbers import SEED_MAX as MAX_SEED  # tests/play checks the simulator takes every seed
from unox.cli.numbers import int_in

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `--help` stays fast
if TYPE_CHECKING:
    from unox.launcher import Launcher
    from unox.table.settings import TableSettings

SCORINGS = ("g1", "g2", "g3")  # unox.table.settings.SCORINGS, which tests/cli checks; not imported: fast help
NEW_TABLE_ONLY = ("players", "profile", "seed", "scoring", "target", "journal", "rules", "variant")
MAX_TARGET = 100_000  # unox.table.settings.MAX_TARGET (tests/play checks they agree); not imported: fast help


def whole_number(option: str, text: str | None, low: int, high: int) -> int | None:
    """The value of a number option (None if not given), or a UsageError that gives its range (the options
    are parsed with `numbers.int_in`; this checks values set in code, e.g. a round's own target)."""
    if text is None:
        return None
    try:
        return int_in(low, high)(str(text))
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"argument {option}: {exc}") from None


def seconds(option: str, text: str, low: float, high: float) -> float:
    """The value of a seconds option, or a UsageError that gives its range."""
    from unox.cli.numbers import float_in

    try:
        return float_in(low, high, "seconds")(str(text))
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"argument {option}: {exc}") from None


def edition_names() -> list[str]:
    """The `--rules` names, read off the editions' file names: importing the rules would slow `--help`
    (tests/cli checks this equals `unox.rules.editions.rule_names()`)."""
    folder = Path(__file__).resolve().parents[1] / "rules" / "editions"
    names = sorted(p.stem.replace("_", "-") for p in folder.glob("*.py") if not p.stem.startswith("_"))
    return ["extreme", *[name for name in names if name != "extreme"]]


JOURNAL_HELP = "SQLite journal of every accepted event"


def add_table_options(
    parser: argparse.ArgumentParser, *, launcher_help: str, journal_help: str = JOURNAL_HELP
) -> None:
    parser.add_argument("--players", help="seats clockwise, e.g. Ann,Bob,Cy (2 to 10)")
    parser.add_argument("--launcher", metavar="SPEC", help=launcher_help)
    parser.add_argument("--profile", help="eject profile for the launcher (default measured)")
    parser.add_argument("--seed", metavar="N", type=int_in(0, MAX_SEED),
                        help=f"repeatable eject counts and simulator, 0 to {MAX_SEED} (default: random)")
    parser.add_argument(
        "--rules", metavar="EDITION", help=f"the edition: {', '.join(edition_names())} (default extreme)"
    )
    parser.add_argument("--variant", help="one the edition has (extreme: two-player, elimination; classic "
                        "and the others also partners, rotation)")
    parser.add_argument("--scoring", choices=SCORINGS, help="g1 (default), g2 or g3")
    parser.add_argument("--target", metavar="POINTS", type=int_in(1, MAX_TARGET),
                        help=f"score that ends the game, 1 to {MAX_TARGET} (default 500)")
    parser.add_argument("--journal", type=Path, metavar="FILE", help=journal_help)
    parser.add_argument("--resume", type=Path, metavar="FILE", help="continue the table a journal holds")
    parser.add_argument(
        "--config", metavar="FILE", help="calibrated launcher settings (default: ~/.config/unox/config.toml)"
    )


def settings_from_args(args: argparse.Namespace, *, default_launcher: str) -> TableSettings:
    """A new table's settings, checked against their bounds; a bad value is a CommandError."""
    from unox.table.settings import SettingsError, TableSettings, parse_players

    if not args.players:
        raise CommandError("give the seats with --players Ann,Bob,Cy, or continue a table with --resume FILE")
    target = whole_number("--target", args.target, 1, MAX_TARGET)
    seed = whole_number("--seed", args.seed, 0, MAX_SEED)
    try:
        settings = TableSettings(
            players=parse_players(args.players),
            scoring=args.scoring or "g1",
            target=500 if target is None else target,
            profile=checked_profile(args.profile or "measured"),
            seed=seed,
            launcher=args.launcher or default_launcher,
            rules=args.rules or "extreme",
            variant=args.variant,
        )
    except SettingsError as exc:
        raise CommandError(str(exc)) from exc
    check_seat_names(settings)
    return settings


def check_seat_names(settings: TableSettings) -> None:
    """A name that is a card or a command of the edition is refused at the start: typed at the table, `R5`
    or `quit` could not say whether it means the player (issue 13)."""
    check_names(settings.players, settings.rules)


def check_names(players: tuple[str, ...], rules_name: str = "extreme") -> None:
    """`check_seat_names` for seats given without a table yet (`unox install service --players`)."""
    from unox.rules.editions import get_rules
    from unox.ui.commands import name_clash

    rules = get_rules(rules_name)
    for name in players:
        clash = name_clash(name, rules)
        if clash is not None:
            raise CommandError(f"player name {name!r} reads as {clash} when typed at the table; "
                               "give that player another name, e.g. Ann, Bob, Cy")


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


def open_table_launcher(spec: str, args: argparse.Namespace) -> Launcher | None:
    """None for `script` (presses say what was fired); otherwise the driver that fires for real."""
    from unox.launcher import LauncherError, parse_spec
    from unox.launcher.options import open_checked

    try:
        kind = parse_spec(spec)[0]
        return None if kind == "script" else open_checked(spec, config=launcher_config(args))
    except (ValueError, LauncherError) as exc:
        raise CommandError(str(exc)) from exc
