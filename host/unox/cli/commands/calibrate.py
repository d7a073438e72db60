"""`unox calibrate`: fire test cards, measure the launcher and write the results into the config file."""

from __future__ import annotations

import argparse
import json

from unox import config as config_file
from unox.cli.errors import CommandError
from unox.cli.progress import Progress
from unox.launcher import LauncherError
from unox.launcher.calibration import fires_needed, measure, refine
from unox.launcher.options import add_launcher_argument, open_checked

EXAMPLE = """example:
  $ unox calibrate --launcher serial:/dev/ttyACM0 --cards 10
The results go into ~/.config/unox/config.toml ($XDG_CONFIG_HOME/unox/config.toml), or --config FILE.
Running it again refines the values: the means are weighted by the cards measured so far."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="measure motor time, duty and beam timings with test cards; write them to the config file",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_launcher_argument(parser)
    parser.add_argument("--config", help="config file (default: ~/.config/unox/config.toml)")
    parser.add_argument("--cards", type=int, default=10, help="single-card test fires (default 10)")
    parser.add_argument("--silent", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the new values as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.cards <= 100:
        raise CommandError(f"--cards must be from 1 to 100, not {args.cards}")
    path = args.config or config_file.default_path()
    try:
        current = config_file.load(path)
    except config_file.ConfigError as exc:
        raise CommandError(str(exc)) from exc
    try:
        launcher = open_checked(args.launcher, config=current)
    except LauncherError as exc:
        raise CommandError(str(exc)) from exc
    try:
        with Progress(fires_needed(args.cards), "calibrating", silent=args.silent) as bar:
            found = measure(launcher, current["firmware"], args.cards, step=bar.advance)
            bar.advance(bar.total - bar.done)  # the duty sweep usually ends early
        updated = refine(current, found)
        launcher.configure(updated["firmware"])
    except LauncherError as exc:
        raise CommandError(f"{exc} (the config file was not changed)") from exc
    finally:
        launcher.close()
    config_file.save(updated, path)
    _report(updated, path, args.json)
    return 0


def _report(updated: dict, path, as_json: bool) -> None:
    cal, fw = updated["calibration"], updated["firmware"]
    if as_json:
        print(json.dumps({"config": str(path), "calibration": cal, "firmware": fw}))
        return
    print(f"wrote {path} ({cal['samples']} cards measured in all)")
    print(f"  a card needs {cal['feed_ms']:.0f} ms of motor time, at least {cal['duty']:.0f} % duty")
    print(f"  cards follow each other every {cal['period_ms']:.0f} ms" +
          (f"; one blocks the beam {cal['block_ms']:.0f} ms" if cal["block_ms"] else ""))
    print(f"  set: duty {fw['duty']} %, jam timeout {fw['card_ms']} ms, exit timeout {fw['exit_ms']} ms")
