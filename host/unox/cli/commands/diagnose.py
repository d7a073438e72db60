"""`unox diagnose`: link, firmware, lid, battery, beam, buzzer, button and a motor run; a pass/fail table."""

from __future__ import annotations

import argparse
import json
import sys

from unox import config as config_file
from unox.cli.errors import CommandError
from unox.launcher import LauncherError
from unox.launcher.diagnostics import Check, run_checks
from unox.launcher.options import add_launcher_argument, open_checked

EXAMPLE = """example:
  $ unox diagnose --launcher serial:/dev/ttyACM0
  $ unox diagnose --launcher "sim:?jam=1&seed=2" --json
exit status: 0 when every check passes, 1 otherwise."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "diagnose",
        help="check link, firmware, lid, battery, beam, buzzer, button and motor: a pass/fail table",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_launcher_argument(parser)
    parser.add_argument("--cards", type=int, default=2, help="cards the motor run fires (default 2)")
    parser.add_argument("--button-timeout", type=float, default=10.0, help="seconds to wait for a press")
    parser.add_argument("--config", help="settings for the launcher (default: ~/.config/unox/config.toml)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.cards <= 13:
        raise CommandError(f"--cards must be from 1 to 13, not {args.cards}")
    try:
        settings = config_file.load(args.config)
    except config_file.ConfigError as exc:
        raise CommandError(str(exc)) from exc
    try:
        launcher = open_checked(args.launcher, config=settings)
    except LauncherError as exc:
        checks = [Check("link", "fail", str(exc))]
    else:
        try:
            checks = run_checks(launcher, cards=args.cards, button_timeout=args.button_timeout,
                                prompt=lambda text: print(text, file=sys.stderr))
        except LauncherError as exc:
            checks = [Check("link", "fail", str(exc))]
        finally:
            launcher.close()
    ok = all(check.result != "fail" for check in checks)
    if args.json:
        print(json.dumps({"ok": ok, "launcher": args.launcher, "checks": [c.to_dict() for c in checks]}))
    else:
        print(table(checks))
        print("all checks passed" if ok else "some checks FAILED: fix them from the top down")
    return 0 if ok else 1


def table(checks: list[Check]) -> str:
    width = max(len(check.name) for check in checks)
    return "\n".join(f"{check.name:<{width}}  {check.result.upper():<4}  {check.detail}" for check in checks)
