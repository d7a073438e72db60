"""`unox calibrate`: fire test cards, measure the launcher and write the results into the config file."""

from __future__ import annotations

import argparse
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.launcher_option import add_configured_launcher
from unox.cli.numbers import int_in

EXAMPLE = """examples:
  $ unox calibrate --cards 10                     the configured launcher
  $ unox calibrate --launcher serial:/dev/ttyACM0 --cards 10
  $ unox calibrate --launcher sim --config sim.toml     try it without hardware
The results go into ~/.config/unox/config.toml ($XDG_CONFIG_HOME/unox/...),
or --config FILE. Running it again refines the values: the means are weighted
by the cards measured so far. Timings of the simulator (sim) or the script
launcher are only written to a file named with --config."""
MAX_CARDS = 100


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="measure motor time, duty and beam timings with test cards; write them to the config file",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_configured_launcher(parser)
    parser.add_argument("--config", help="config file (default: ~/.config/unox/config.toml); created if new")
    parser.add_argument("--cards", type=int_in(1, MAX_CARDS), default=10, metavar="N",
                        help=f"cards measured one at a time, 1 to {MAX_CARDS} (default 10); the run fires "
                        "N + 4: 1 to find the lowest duty that feeds, the N, then 3 in one fire (the period)")
    parser.add_argument("--silent", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the new values as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from unox import config as config_file
    from unox.launcher import LauncherError
    from unox.launcher.configured import is_simulated, resolve

    path = Path(args.config) if args.config else config_file.default_path()
    try:
        current = config_file.load(path, missing_ok=True)
        spec = resolve(args.launcher, current)
    except (config_file.ConfigError, LauncherError) as exc:
        raise CommandError(str(exc)) from exc
    write = not is_simulated(spec) or args.config is not None
    if write:
        check_writable(path)  # before a card is fired: a read-only place would only fail at the end
    updated, fired = _measure(spec, current, args)
    if write:
        try:
            config_file.save(updated, path)
        except OSError as exc:
            raise CommandError(f"{unwritable(path, exc)}; the measurements were not kept") from exc
    _report(updated, path if write else None, spec, args.json, fired)
    return 0


def check_writable(path: Path) -> None:
    """The config file's folder (or the nearest one that exists: save makes the rest) takes writes."""
    import errno
    import os

    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not os.access(folder, os.W_OK):
        refused = PermissionError(errno.EACCES, "read-only")
        raise CommandError(f"{unwritable(path, refused)}; no card was fired")


def unwritable(path: Path, exc: OSError) -> str:
    """One line: which config file cannot be written, and why in words."""
    import errno

    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        why = f"permission denied (the file or its folder {path.parent} is read-only for this user)"
    else:
        why = exc.strerror or str(exc)
    return f"cannot write the config file {path}: {why}; give --config FILE in a folder you can write"


def _measure(spec: str, current: dict, args: argparse.Namespace) -> tuple[dict, int]:
    """The refined config, and how many cards the run fired."""
    from unox.cli.progress import Progress
    from unox.launcher import LauncherError
    from unox.launcher.calibration import CalibrationError, fires_needed, measure, refine
    from unox.launcher.options import open_checked

    try:
        launcher = open_checked(spec, config=current)
    except LauncherError as exc:
        raise CommandError(str(exc)) from exc
    try:
        with Progress(fires_needed(args.cards), "calibrating", silent=args.silent) as bar:
            found = measure(launcher, current["firmware"], args.cards, step=bar.advance)
            bar.advance(bar.total - bar.done)  # the duty sweep usually ends early
        updated = refine(current, found)
        launcher.configure(updated["firmware"])
    except CalibrationError as exc:
        raise CommandError(f"{exc} (the config file was not changed)") from exc
    except LauncherError as exc:
        raise CommandError(f"{exc} (the config file was not changed)") from exc
    finally:
        launcher.close()
    return updated, found.fired


def _report(updated: dict, path: Path | None, spec: str, as_json: bool, fired: int) -> None:
    import json

    cal, fw = updated["calibration"], updated["firmware"]
    if as_json:
        print(json.dumps({"config": str(path) if path else None, "launcher": spec, "calibration": cal,
                          "firmware": fw, "cards_fired": fired}))
        return
    cards = f"{cal['samples']} card{'s' if cal['samples'] != 1 else ''} measured"
    if path is None:
        print(f"measured {spec} ({cards}); simulator timings are not written to your config: "
              "give --config FILE to keep them")
    else:
        print(f"wrote {path} ({cards} in all)")
    print(f"  a card needs {cal['feed_ms']:.0f} ms of motor time, at least {cal['duty']:.0f} % duty")
    print(f"  cards follow each other every {cal['period_ms']:.0f} ms" +
          (f"; one blocks the beam {cal['block_ms']:.0f} ms" if cal["block_ms"] else ""))
    print(f"  set: duty {fw['duty']} %, jam timeout {fw['card_ms']} ms, exit timeout {fw['exit_ms']} ms")
    print(f"  this run fired {fired} card{'s' if fired != 1 else ''}: put them back in the launcher")
