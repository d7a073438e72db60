"""`unox press`: press-button mode. Each press taken by the launcher fires what the eject profile picks."""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass

from unox import config as config_file
from unox.cli.errors import CommandError
from unox.launcher import FireResult, Launcher, LauncherError
from unox.launcher.faults import fault_action
from unox.launcher.options import add_launcher_argument, open_checked
from unox.launcher.spec import parse_spec
from unox.profiles import PROFILE_NAMES, EjectProfile, ProfileError, get_profile

DEFAULT_CARDS = 83  # a 112-card deck after a 4-player deal and the first discard
EXAMPLE = """example:
  $ unox press --launcher sim --presses 20 --seed 1 --json
  {"press": 1, "requested": 0, "fired": 0, "fault": null, "cards_left": 83, ...}"""

def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "press",
        help="press-button mode: every press fires what the eject profile picks, with a live tally",
        description="Wait for presses on the launcher; each one beeps, the eject profile picks a count and "
        "the launcher fires it. With a simulated launcher, --presses N makes N virtual presses.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_launcher_argument(parser)
    parser.add_argument("--profile", default="measured", help=f"eject profile: {', '.join(PROFILE_NAMES)}")
    parser.add_argument("--seed", type=int, help="repeatable eject counts (default: OS entropy)")
    parser.add_argument("--presses", type=int, help="stop after N presses (virtual presses on sim/script)")
    parser.add_argument("--cards", type=int, help=f"cards loaded, for the tally (default {DEFAULT_CARDS})")
    parser.add_argument("--config", help="config file (default: ~/.config/unox/config.toml)")
    parser.add_argument("--json", action="store_true", help="one JSON record per press")
    parser.set_defaults(func=run)


@dataclass
class Tally:
    cards_left: int
    presses: int = 0
    fired: int = 0

    def add(self, result: FireResult) -> None:
        self.presses += 1
        self.fired += result.fired
        self.cards_left = 0 if result.fault == "empty" else max(0, self.cards_left - result.fired)


def run(args: argparse.Namespace) -> int:
    if args.presses is not None and args.presses < 1:
        raise CommandError(f"--presses must be 1 or more, not {args.presses}")
    try:
        settings = config_file.load(args.config)
        custom = {"profiles": settings["profiles"]} if "profiles" in settings else None
        profile = get_profile(args.profile, rng=_rng(args.seed), config=custom)
    except (config_file.ConfigError, ProfileError) as exc:
        raise CommandError(str(exc)) from exc
    tally = Tally(cards_left=_initial_cards(args))
    try:
        launcher = open_checked(args.launcher, config=settings)
    except LauncherError as exc:
        raise CommandError(str(exc)) from exc
    try:
        _loop(launcher, profile, tally, args)
    except LauncherError as exc:
        raise CommandError(str(exc)) from exc
    finally:
        launcher.close()
    if not args.json:
        print(f"done: {tally.presses} presses, {tally.fired} cards fired, {tally.cards_left} left")
    return 0


def _rng(seed: int | None) -> random.Random | None:
    return random.Random(seed) if seed is not None else None


def _initial_cards(args: argparse.Namespace) -> int:
    if args.cards is not None:
        if not 0 <= args.cards <= 200:
            raise CommandError(f"--cards must be from 0 to 200, not {args.cards}")
        return args.cards
    try:
        _, _, params = parse_spec(args.launcher)
    except ValueError:
        return DEFAULT_CARDS  # open_checked reports the bad spec
    cards = params.get("cards", "")
    return int(cards) if cards.isdigit() else DEFAULT_CARDS


def _loop(launcher: Launcher, profile: EjectProfile, tally: Tally, args: argparse.Namespace) -> None:
    virtual = args.presses is not None and hasattr(launcher, "press_button")
    if not args.json and not virtual:
        print("press the launcher button (Ctrl-C to stop)", file=sys.stderr)
    while args.presses is None or tally.presses < args.presses:
        if virtual:
            launcher.press_button()
        if not launcher.wait_press(timeout=5.0 if virtual else None):
            if virtual:
                raise CommandError("the launcher did not take the virtual press; run `unox diagnose`")
            continue
        requested = profile.next_count(tally.cards_left)
        result = launcher.fire(requested) if requested else FireResult(0, 0, None)
        tally.add(result)
        _report(result, tally, args.json)


def _report(result: FireResult, tally: Tally, as_json: bool) -> None:
    if as_json:
        record = {"press": tally.presses, **result.to_dict()}
        record.update(cards_fired=tally.fired, cards_left=tally.cards_left)
        print(json.dumps(record), flush=True)
        return
    line = f"press {tally.presses:3d}: asked {result.requested:2d}, fired {result.fired:2d}"
    line += f" | total fired {tally.fired}, left {tally.cards_left}"
    if result.fault:
        line += f" | {result.fault}: {fault_action(result.fault)}"
    print(line, flush=True)
