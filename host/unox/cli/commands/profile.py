"""`unox profile NAME --presses N`: statistics of virtual presses of an eject profile."""

from __future__ import annotations

import argparse
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.numbers import SEED_MAX, int_in
from unox.profiles import PROFILE_NAMES
from unox.words import counted

MAX_PRESSES = 10_000_000


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "profile",
        help="statistics of N virtual presses of an eject profile",
        description="Press a virtual launcher N times with an eject profile and print how often it fired"
        " and how many cards. Example: unox profile measured --presses 100000 --seed 1 --json",
    )
    parser.add_argument("name", help=f"profile: {', '.join(PROFILE_NAMES)}, or one from --config")
    parser.add_argument("--presses", type=int_in(1, MAX_PRESSES), default=10_000,
                        help=f"virtual presses, 1 to {MAX_PRESSES} (default 10000)")
    parser.add_argument("--seed", type=int_in(0, SEED_MAX), default=None,
                        help="repeatable run (default: OS entropy)")
    parser.add_argument(
        "--config", type=Path, default=None, help="config file with [profiles.NAME] (default: unox's own)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def load_profiles(path: Path | None) -> dict | None:
    """The custom `[profiles.NAME]` tables of the config file (`--config`, else the default file), checked."""
    from unox import config as config_file

    try:
        settings = config_file.load(path)
    except config_file.ConfigError as exc:
        raise CommandError(str(exc)) from exc
    return {"profiles": settings["profiles"]} if "profiles" in settings else None


def run(args: argparse.Namespace) -> int:
    import json
    import random

    from unox.profiles import ProfileError, get_profile
    from unox.profiles.stats import press_statistics

    rng = random.Random(args.seed) if args.seed is not None else None
    try:
        profile = get_profile(args.name, rng=rng, config=load_profiles(args.config))
    except ProfileError as exc:
        raise CommandError(str(exc)) from exc
    stats = press_statistics(profile, args.presses)
    if args.json:
        print(json.dumps(stats))
    else:
        print(format_table(stats))
    return 0


def format_table(stats: dict) -> str:
    """A table of gap shares beside the real launcher's, then the totals."""
    from unox.profiles.builtin import MEASURED_GAP_SHARES

    lines = [
        f"profile {stats['profile']}: {counted(stats['presses'], 'press', 'presses')}, "
        f"{counted(stats['firings'], 'firing')}",
        "presses since last firing | share of firings | measured unit | mean cards",
    ]
    for gap, share in stats["fire_gaps"].items():
        k = int(gap)
        real = f"{MEASURED_GAP_SHARES[k - 1]:13.2%}" if k <= len(MEASURED_GAP_SHARES) else f"{'-':>13}"
        mean = stats["cards_by_gap_mean"][gap]
        lines.append(f"{gap:>25} | {share:16.2%} | {real} | {mean:10.2f}")
    lines += [
        f"fire rate: {stats['fire_rate']:.2%} of presses",
        f"cards per firing: mean {stats['cards_per_fire_mean']:.2f}"
        f" (min {stats['cards_per_fire_min']}, max {stats['cards_per_fire_max']})",
        f"cards per press: mean {stats['cards_per_press_mean']:.2f}",
    ]
    return "\n".join(lines)
