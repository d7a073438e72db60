"""`unox simulate-device --pty`: the virtual launcher (real firmware, simulated physics) on a pseudo-terminal.

The first line on stdout is the pty's path, so scripts can read it; open it with any serial tool or with
`--launcher serial:PATH`. Runs until Ctrl-C. The options are the `sim://` URL parameters.
"""

from __future__ import annotations

import argparse
import signal
import sys
from typing import Any

from unox.cli.errors import CommandError

_OPTIONS: tuple[tuple[str, type, str], ...] = (
    ("seed", int, "seed of every random choice (default 0)"),
    ("cards", int, "cards in the hopper, 0..112 (default 83)"),
    ("jam", float, "probability per card of a jam (0..1)"),
    ("double", float, "probability per card of a double feed (0..1)"),
    ("stuck", float, "probability per card of a card stuck in the beam (0..1)"),
    ("unjam", float, "probability that a reverse pulse frees a jam (default 0.5)"),
    ("battery", int, "pack voltage in mV (default 4500)"),
    ("drain", float, "pack mV lost per ampere-second"),
    ("lid", str, "open or shut (default shut)"),
    ("bounce", int, "button chatter edges on press and release, 0..10 (default 2)"),
    ("drop", float, "probability per frame of a lost frame, each direction"),
    ("corrupt", float, "probability per frame of a flipped bit, each direction"),
    ("dup", float, "probability per frame of a duplicated frame, each direction"),
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate-device",
        help="serve the simulated launcher on a pseudo-terminal",
        description="Run the launcher firmware on the simulated board and serve its USB serial link on a "
        "pseudo-terminal. Prints the pty path on the first line of stdout; Ctrl-C stops it.",
        epilog="example: unox simulate-device --pty --seed 1 --cards 83 --jam 0.02",
    )
    parser.add_argument("--pty", action="store_true", help="serve on a new pseudo-terminal (required)")
    parser.add_argument("--speed", type=float, default=1.0, help="virtual ms per real ms (default 1)")
    for name, kind, text in _OPTIONS:
        parser.add_argument(f"--{name}", type=kind, help=text)
    parser.set_defaults(func=handler)


def device_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The options as checked `VirtualDevice` arguments (the same checks as a sim:// URL)."""
    from unoxsim.url import parse_sim_url

    given = [(name, getattr(args, name)) for name, _, _ in _OPTIONS if getattr(args, name) is not None]
    query = "&".join(f"{name}={value}" for name, value in given)
    try:
        return parse_sim_url(f"sim://?{query}")
    except ValueError as exc:
        raise CommandError(str(exc).replace("sim:// ", "--").replace("parameter", "option")) from None


def stop_on_signals() -> None:
    """Ctrl-C and SIGTERM both stop the server, even when started with SIGINT ignored (in the background)."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)


def handler(args: argparse.Namespace) -> int:
    if not args.pty:
        raise CommandError("say where to serve the simulated launcher: add --pty (a pseudo-terminal)")
    from unoxsim.device import VirtualDevice
    from unoxsim.pty_server import PtyServer

    try:
        server = PtyServer(VirtualDevice(**device_kwargs(args)), speed=args.speed)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    stop_on_signals()
    print(server.path, flush=True)
    print(f"unox: simulated launcher on {server.path}; Ctrl-C stops it", file=sys.stderr, flush=True)
    try:
        server.serve()
    except KeyboardInterrupt:
        print("unox: simulated launcher stopped", file=sys.stderr)
    finally:
        server.close()
    return 0
