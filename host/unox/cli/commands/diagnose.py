"""`unox diagnose`: link, firmware, lid, battery, beam, buzzer, button and a motor run; a pass/fail table."""

from __future__ import annotations

import argparse
import sys

from unox.cli.errors import CommandError
from unox.cli.launcher_option import add_configured_launcher
from unox.cli.numbers import float_in, int_in

EXAMPLE = """examples:
  $ unox diagnose                                   the configured launcher
  $ unox diagnose --launcher serial:/dev/ttyACM0
  $ unox diagnose --launcher "sim:?jam=1&seed=2" --json
exit status: 0 when every check passes, 1 otherwise."""
MAX_CARDS = 13
MAX_BUTTON_S = 600


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "diagnose",
        help="check link, firmware, lid, battery, beam, buzzer, button and motor: a pass/fail table",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_configured_launcher(parser)
    parser.add_argument("--cards", type=int_in(1, MAX_CARDS), default=2,
                        help=f"cards the motor run fires, 1 to {MAX_CARDS} (default 2)")
    parser.add_argument("--button-timeout", type=float_in(0.1, MAX_BUTTON_S, "seconds"), default=10.0,
                        metavar="SECONDS", help=f"wait for a press, 0.1 to {MAX_BUTTON_S} s (default 10)")
    parser.add_argument("--config", help="settings for the launcher (default: ~/.config/unox/config.toml)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json

    from unox import config as config_file
    from unox.launcher import LauncherError
    from unox.launcher.configured import is_simulated, resolve
    from unox.launcher.diagnostics import Check, run_checks
    from unox.launcher.options import open_checked
    from unox.launcher.port_lock import PortBusy

    try:
        settings = config_file.load(args.config)
        spec = resolve(args.launcher, settings)
    except (config_file.ConfigError, LauncherError) as exc:
        raise CommandError(str(exc)) from exc
    try:
        launcher = open_checked(spec, config=settings)
    except PortBusy as exc:  # not a fault to diagnose: another program drives the launcher
        raise CommandError(str(exc)) from exc
    except LauncherError as exc:
        checks = [Check("link", "fail", str(exc))]
    else:
        try:
            checks = run_checks(launcher, cards=args.cards, button_timeout=args.button_timeout,
                                prompt=lambda text: print(text, file=sys.stderr),
                                thresholds=settings.get("firmware"))
        except LauncherError as exc:
            checks = [Check("link", "fail", str(exc))]
        finally:
            launcher.close()
    ok = all(check.result != "fail" for check in checks)
    if args.json:
        print(json.dumps({"ok": ok, "launcher": spec, "simulated": is_simulated(spec),
                          "checks": [c.to_dict() for c in checks]}))
    else:
        print(f"launcher: {spec}" + (" (simulated: no hardware was touched)" if is_simulated(spec) else ""))
        print(table(checks))
        verdict = "all checks passed" if ok else "some checks FAILED: fix them from the top down"
        print(verdict + (" on the simulator, not on a launcher" if is_simulated(spec) else ""))
    return 0 if ok else 1


def table(checks: list) -> str:
    width = max(len(check.name) for check in checks)
    return "\n".join(f"{check.name:<{width}}  {check.result.upper():<4}  {check.detail}" for check in checks)
