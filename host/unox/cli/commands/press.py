"""`unox press`: press-button mode. Each press taken by the launcher fires what the eject profile picks.

The logic is `unox.press_mode`; this is its front end: options, one line (or JSON record) per event, and
the session's summary at the end, on Ctrl-C (exit 130) or on SIGTERM from systemd (exit 0: a stop).
"""

from __future__ import annotations

import argparse
import sys

from unox.cli.errors import CommandError
from unox.cli.launcher_option import add_configured_launcher
from unox.cli.mqtt_option import add_mqtt_option
from unox.cli.numbers import SEED_MAX, float_in, int_in

DEFAULT_CARDS = 83  # a 112-card deck after a 4-player deal and the first discard
MAX_CARDS = 112
MAX_GAP_S = MAX_SUSPENSE_S = 10.0
EXAMPLE = """examples:
  $ unox press                        the configured launcher; Ctrl-C sums up
  $ unox press --min-gap 1.5 --suspense 2     anti-mash and suspense: a game
  $ unox press --launcher sim --presses 20 --seed 1 --json
  {"press": 1, "event": "nothing", "requested": 0, "fired": 0, ...}
The launcher is the truth: a press fires while cards come out. When it reports
EMPTY, reload it and close the lid (or press twice quickly to say it is
reloaded). --cards is only the estimate shown. --min-gap and --suspense default
to [press] min_gap_ms and suspense_ms in the config file (0 = off).
On the simulator, virtual presses come 0.3 to 3 s apart in virtual time
(--min-gap can be tried there), and a reload refills the simulated hopper."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "press",
        help="press-button mode: every press fires what the eject profile picks, with a live tally",
        description="Wait for presses on the launcher; each one beeps, the eject profile picks a\n"
        "count and the launcher fires it. With a simulated launcher, --presses N makes N\nvirtual presses.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_configured_launcher(parser)
    parser.add_argument("--profile", default="measured", help="eject profile: measured (default), arduino, "
                        "gentle, brutal, or one from the config file")
    parser.add_argument("--seed", type=int_in(0, SEED_MAX),
                        help="repeatable eject counts (default: OS entropy)")
    parser.add_argument("--presses", type=int_in(1, 10_000_000),
                        help="stop after N presses (virtual presses on sim/script)")
    parser.add_argument("--cards", type=int_in(0, MAX_CARDS),
                        help=f"cards loaded, 0 to {MAX_CARDS}: the estimate shown (default {DEFAULT_CARDS})")
    parser.add_argument("--min-gap", type=float_in(0, MAX_GAP_S, "seconds"), metavar="SECONDS",
                        help="anti-mash: a press closer than this to the one before gets the not-now beep "
                        f"and fires nothing (0 to {MAX_GAP_S:g}; default from the config, else 0 = off)")
    parser.add_argument("--suspense", type=float_in(0, MAX_SUSPENSE_S, "seconds"), metavar="SECONDS",
                        help="a random wait of up to this before the motor turns, like the original "
                        f"(0 to {MAX_SUSPENSE_S:g}; default from the config, else 0 = off)")
    parser.add_argument("--config", help="config file (default: ~/.config/unox/config.toml)")
    parser.add_argument("--json", action="store_true", help="one JSON record per event, then a summary")
    add_mqtt_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A preset of the one assembly (`unox.cli.assemble`): the press-button mode, `--mqtt` checked before
    the launcher opens and attached once every refusal has passed."""
    from unox.cli.assemble import check, open_night

    setup = check("press", args)
    setup.default_cards = DEFAULT_CARDS
    mode = open_night(setup)
    try:
        return _session(mode, setup, args)
    finally:
        setup.close()
        mode.launcher.close()


def _session(mode, setup, args: argparse.Namespace) -> int:
    import random

    from unox.cli.assemble import attach
    from unox.launcher import LauncherError
    from unox.press_mode import VIRTUAL_GAP_S

    launcher = mode.launcher
    gaps = random.Random(args.seed + 2) if args.seed is not None else random.SystemRandom()
    virtual = args.presses is not None and hasattr(launcher, "press_button")
    stop = _stop_on_sigterm()
    try:
        attach(setup, mode)  # --mqtt: Home Assistant (docs/install.md)
        if not virtual:  # stderr, so a --json reader's stream stays clean
            board = launcher.board_id or "unknown"  # which launcher this is (issue 22)
            print(f"press the launcher button (board {board}; Ctrl-C stops and sums up)", file=sys.stderr,
                  flush=True)
        mode.run(lambda event: _report(event, mode, args.json), presses=args.presses, virtual=virtual,
                 press_gap=lambda: gaps.uniform(*VIRTUAL_GAP_S))
    except KeyboardInterrupt as exc:
        _summary(mode, args.json, stopped=True)
        return 0 if isinstance(exc, Stopped) else 130  # systemd's stop is the service's normal end
    except LauncherError as exc:
        raise CommandError(str(exc)) from exc
    finally:
        stop()
        setup.close()  # Home Assistant
    _summary(mode, args.json, stopped=False)
    return 0


class Stopped(KeyboardInterrupt):
    """SIGTERM: `systemctl stop` ending the boot service. Summed up as Ctrl-C is, but exit 0: a stop asked
    for is not a failure (exit 130 made the unit "failed")."""


def _stop_on_sigterm():
    """systemd stops the boot service with SIGTERM: sum up as for Ctrl-C. Returns the undo."""
    import signal

    def interrupt(signum: int, frame: object) -> None:
        raise Stopped

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread (an embedding program): leave signals alone
        return lambda: None
    return lambda: signal.signal(signal.SIGTERM, previous)


def _report(event, mode, as_json: bool) -> None:
    import json

    tally = mode.tally
    result = event.result
    press = event.press if event.press is not None else tally.presses
    if as_json:
        record = {"press": press, "event": event.kind,
                  **(result.to_dict() if result else {"requested": 0, "fired": 0, "fault": None}),
                  "cards_fired": tally.fired, "cards_left": tally.estimate,
                  "at": round(mode.elapsed() if event.at is None else event.at, 3)}
        if event.kind == "unsettled":
            record["fired"] = None  # unknown until the launcher answers: a "settled" record follows
        if event.message:
            record["message"] = event.message
        print(json.dumps(record), flush=True)
        return
    said = ""  # what to tell besides the counts: on lines of its own, wrapped at 80 columns between words
    if event.kind == "unsettled" and result is not None:
        line, said = f"press {press:3d}: asked {result.requested:2d}, fired  ?", event.message
    elif result is not None:
        line = f"press {press:3d}: asked {result.requested:2d}, fired {result.fired:2d}"
        line += f" | total fired {tally.fired}, about {tally.estimate} left"
        if event.kind in ("settled", "unknown", "alone"):
            said = event.message
        elif result.fault:
            said = f"{result.fault}: {event.message}"
    elif event.press is not None:
        line, said = f"press {event.press:3d}:", event.message
    elif event.kind in ("link", "link_back", "stranger"):
        line = event.message
    else:
        line, said = "", event.message
    print("\n".join(_fitted(line, said)), flush=True)


def _fitted(line: str, said: str, width: int = 80) -> list[str]:
    """`line`, then `said` indented under it, every line within `width` columns, broken between words (a
    terminal breaks a long line mid-word: `| lid: the launche` / `r's lid is open`)."""
    from textwrap import wrap

    indent = " " * 11  # under the counts, past `press NNN: `
    if not said:
        return wrap(line, width, subsequent_indent=indent) or [""]
    if line and len(line) + 1 + len(said) <= width:
        return [f"{line} {said}"]
    lines = wrap(line, width, subsequent_indent=indent) if line else []
    return lines + wrap(said, width, initial_indent=indent, subsequent_indent=indent)


def _summary(mode, as_json: bool, *, stopped: bool) -> None:
    import json

    mode.finish()  # a fire still unsettled is one of unknown count
    if as_json:
        print(json.dumps({"summary": mode.tally.to_dict(), "stopped": stopped}), flush=True)
    else:
        summary = f"{'stopped' if stopped else 'done'}: {mode.tally.summary()}"
        print("\n".join(_fitted(summary, "")), flush=True)
