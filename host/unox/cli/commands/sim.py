"""`unox sim`: whole dealt-mode games between bots, with the launcher modelled by an eject profile."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from unox.cli.errors import CommandError
from unox.cli.numbers import SEED_MAX, int_in
from unox.cli.progress import Progress
from unox.profiles import PROFILE_NAMES
from unox.table.settings import MAX_PLAYERS, MAX_TARGET, MIN_PLAYERS

MAX_GAMES = 1_000_000
BOTS_HELP = "random, heuristic or mix (a seat each, in turn)"  # tests/cli checks it names every bot


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sim",
        help="simulate whole games between bots",
        description="Play N whole games between bots (dealt mode: the engine holds the cards) with the"
        " launcher modelled by an eject profile, and sum them up."
        " Example: unox sim --games 100 --players 4 --bot heuristic --seed 1",
    )
    parser.add_argument("--games", type=int_in(1, MAX_GAMES), default=10, help="games to play (default 10)")
    parser.add_argument("--rules", default="extreme", metavar="EDITION",
                        help="the edition: extreme (default), classic, ...")
    parser.add_argument("--players", type=int_in(MIN_PLAYERS, MAX_PLAYERS), default=4,
                        help=f"{MIN_PLAYERS} to {MAX_PLAYERS} (default 4)")
    parser.add_argument("--bot", default="random", help=f"{BOTS_HELP} (default random)")
    parser.add_argument("--variant", default=None,
                        help="one the edition has: two-player, elimination, partners, rotation")
    parser.add_argument("--profile", default="measured", help=f"eject profile: {', '.join(PROFILE_NAMES)}")
    parser.add_argument("--scoring", default="g1", choices=("g1", "g2", "g3"), help="scoring (default g1)")
    parser.add_argument("--target", type=int_in(1, MAX_TARGET), default=500,
                        help="points that end a game (default 500)")
    parser.add_argument(
        "--config", type=Path, default=None, help="config file with [profiles.NAME] (default: unox's own)"
    )
    parser.add_argument("--seed", type=int_in(0, SEED_MAX), default=None,
                        help="repeatable run (default: OS entropy)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object, no bar")
    parser.add_argument("--silent", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def _check(args: argparse.Namespace) -> None:
    from unox.profiles import ProfileError, get_spec
    from unox.simulation import BOT_CHOICES

    if args.bot not in BOT_CHOICES:
        raise CommandError(f"unknown bot {args.bot!r}; use one of {', '.join(BOT_CHOICES)}")
    from unox.rules.editions import rule_names
    from unox.rules.errors import RuleError

    if args.rules not in rule_names():
        raise CommandError(f"unknown --rules {args.rules!r}; use one of {', '.join(rule_names())}")
    if args.variant is not None:
        from unox.rules.editions import get_rules
        from unox.rules.variants import check_variant

        edition = get_rules(args.rules)
        try:
            check_variant(args.variant, edition.variants, args.players, edition.title)
        except RuleError as exc:
            raise CommandError(f"--variant {args.variant}: {exc.message}") from exc
    try:
        get_spec(args.profile, args.profile_config)
    except ProfileError as exc:
        raise CommandError(str(exc)) from exc


def run(args: argparse.Namespace) -> int:
    from unox import simulation
    from unox.cli.commands.profile import load_profiles
    from unox.rules.errors import RuleError

    args.profile_config = load_profiles(args.config)
    _check(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    with Progress(args.games, "games", silent=args.silent or args.json) as bar:
        try:
            summary = simulation.simulate(
                args.games,
                args.players,
                bot=args.bot,
                seed=seed,
                profile=args.profile,
                profile_config=args.profile_config,
                scoring=args.scoring,
                target=args.target,
                ruleset=args.rules,
                variant=args.variant,
                on_game=lambda record: bar.advance(),
            )
        except (RuleError, simulation.SimulationError) as exc:
            message = f"simulation stopped: {exc}; this is a bug, please report it with --seed {seed}"
            raise CommandError(message) from exc
    print(json.dumps(summary) if args.json else format_summary(summary))
    return 0


def format_summary(s: dict[str, Any]) -> str:
    """The summary as a few lines of text."""
    from unox.words import counted

    seats = "  ".join(f"{seat}:{wins}" for seat, wins in s["wins_by_seat"].items())
    bots = "  ".join(f"{b}: {s['wins_by_bot'][b]} ({counted(n, 'seat')})"
                     for b, n in s["seats_by_bot"].items())
    return "\n".join(
        [
            f"{counted(s['games'], 'game')}, {s['players']} players, {s['rules']} rules"
            + (f" ({s['variant']})" if s.get("variant") else "") + f", bot {s['bot']},"
            f" profile {s['profile']},"
            f" scoring {s['scoring']} to {s['target']}, seed {s['seed']}",
            f"hands: {s['hands']} ({s['hands_per_game_mean']:.1f} a game)",
            f"per hand: {s['turns_per_hand_mean']:.1f} turns, {s['presses_per_hand_mean']:.1f} "
            f"{'presses' if s['rules'] == 'extreme' else 'draws'},"
            f" {s['cards_fired_per_hand_mean']:.1f} cards fired",
            f"cards fired: {s['cards_fired']}  reloads: {s['reloads']}  UNO catches: {s['catches']}"
            + (f"  challenges: {s['challenges']}" if s["rules"] != "extreme" else "")
            + (f"  special choices: {s['choices']}" if s.get("choices") else "")
            + (f"  special cards: {s['specials']}" if s.get("specials") else ""),
            f"wins by seat: {seats}",
            f"wins by bot: {bots}",
        ]
    )
