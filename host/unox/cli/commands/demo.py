"""`unox demo`: bots play a whole game on the simulated launcher, in the table UI or as a plain transcript."""

from __future__ import annotations

import argparse
import sys

from unox.cli.errors import CommandError
from unox.cli.numbers import float_in, int_in
from unox.cli.table_options import MAX_SEED, MAX_TARGET

EXAMPLE = """examples:
  unox demo                      four bots, the table UI, a game to 200 points
  unox demo --plain --seed 7     the same game every time, one event per line
  unox demo --players 6 --bot random --pace 0"""

BOTS = ("heuristic", "random")
MAX_PACE_S = 10.0
PACE_S = 0.12  # --pace's default: None until then, so `--plain --pace` can be refused (it has no pace)
DEMO_BUDGET_S = 30.0  # the UI plays at `--pace` for this long, then fast-forwards: well under a minute


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="watch bots play a whole game with the simulated launcher (no hardware needed)",
        description="Seat bots at a table with the simulated launcher and play a whole game.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", metavar="N", type=int_in(2, 10), default=4,
                        help="how many bots, 2 to 10 (default 4)")
    parser.add_argument("--seed", metavar="N", type=int_in(0, MAX_SEED),
                        help=f"the same seed plays the same game, 0 to {MAX_SEED} (default: random)")
    parser.add_argument("--plain", action="store_true", help="print a transcript instead of the table UI")
    parser.add_argument("--bot", choices=BOTS, default="heuristic", help="bot strategy (default heuristic)")
    parser.add_argument("--rules", default="extreme", metavar="EDITION",
                        help="the edition: extreme (default), classic, ...")
    parser.add_argument("--variant", default=None,
                        help="one the edition has (extreme: two-player, elimination; classic and the others "
                        "also partners, rotation)")
    parser.add_argument("--target", metavar="POINTS", type=int_in(1, MAX_TARGET), default=200,
                        help=f"score that ends the game, 1 to {MAX_TARGET} (default 200)")
    parser.add_argument("--scoring", choices=("g1", "g2", "g3"), default="g1", help="g1 (default), g2, g3")
    parser.add_argument("--profile", default="measured", help="eject profile (default measured)")
    parser.add_argument("--pace", metavar="SECONDS", type=float_in(0, MAX_PACE_S, "seconds"),
                        help=f"seconds between moves in the UI, 0 (at once) to {MAX_PACE_S:g} (default "
                        f"{PACE_S:g}); after 30 s it fast-forwards")
    parser.add_argument("--web", action="store_true", help="serve the game to phones, read-only (unox serve)")
    from unox.cli.web_option import add_web_options

    add_web_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A preset of the one assembly (`unox.cli.assemble`): the bots' night, watched at the terminal or on
    the phones."""
    from unox.cli.assemble import check, open_night
    from unox.ui.session import Session

    setup = check("demo", args)  # --plain with --web or --pace is refused there
    if args.pace is None:
        args.pace = PACE_S
    session = open_night(setup, Session)
    step = setup.autoplay
    from unox.ui.commands import InputError

    try:
        if setup.front == "web":
            from unox.cli.web_option import serve_demo

            gate, setup.gate = setup.gate, None  # the server takes the bound socket
            return serve_demo(session, step, args, gate=gate)
        if args.plain or not sys.stdout.isatty():
            from unox.ui.plain import run_demo_plain

            return run_demo_plain(session, step, sys.stdout)
        from unox.ui.app import run_app

        return run_app(session, autoplay=step, pace=args.pace, budget=DEMO_BUDGET_S)
    except InputError as exc:
        raise CommandError(f"the demo stopped, a bot's move was refused ({exc}); this is a bug: please "
                           f"report it with the seed printed on the first line") from exc
    finally:
        setup.close()
        session.close()  # after any launcher call still running on a worker thread
