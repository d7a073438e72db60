"""`unox simulate-device --pty`: the virtual launcher (real firmware, simulated physics) on a pseudo-terminal.

The first line on stdout is the pty's path, so scripts can read it; open it with any serial tool or with
`--launcher serial:PATH`. Runs until Ctrl-C. The options are the `sim://` URL parameters.
Its button: SIGUSR1 presses it; `--control PATH` also serves a control socket (press, count, lid, take,
unplug, plug: `unoxsim.control`), which `--control PATH --send COMMAND` talks to from another shell.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any

from unox.cli.errors import CommandError
from unox.cli.numbers import float_in


def _options() -> list[tuple[str, Any, str]]:
    """One option per `sim://` URL parameter, so the two never drift apart; help gives range and default.

    Each is checked while parsing, as every unox option is (a usage error, exit 2); the seed takes the
    range every other unox command takes."""
    import inspect

    from unoxsim.device import VirtualDevice
    from unoxsim.url import PARAMETERS

    from unox.cli.numbers import SEED_MAX, float_in, int_in

    defaults = {name: p.default for name, p in inspect.signature(VirtualDevice).parameters.items()}
    options: list[tuple[str, Any, str]] = []
    for name, (kwarg, kind, low, high, what) in PARAMETERS.items():
        if name == "seed":
            high = SEED_MAX
        check: Any = str
        if kind is not str:
            check = int_in(int(low), int(high)) if kind is int else float_in(low, high)
        bounds = f"{low}..{high}, " if kind is not str else ""
        options.append((name, check, f"{what} ({bounds}default {defaults[kwarg]})"))
    return options


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate-device",
        help="serve the simulated launcher on a pseudo-terminal",
        description="Run the launcher firmware on the simulated board and serve its USB serial link\n"
        "on a pseudo-terminal. Prints the pty path on the first line of stdout;\n"
        "Ctrl-C stops it.",
        epilog="examples:\n"
        "  unox simulate-device --pty --seed 1 --jam 0.02 --control /tmp/unox-sim.sock\n"
        "  unox simulate-device --control /tmp/unox-sim.sock --send press  # its button\n"
        "  unox simulate-device --control /tmp/unox-sim.sock --send count  # cards\n"
        "  kill -USR1 PID                                                  # its button\n"
        "  unox simulate-device --pty --chip rp2040     # MicroPython on an emulated Pico\n"
        "control commands: press [hold_ms], count, lid open|shut, take, load N,\n"
        "  unplug, plug",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--pty", action="store_true", help="serve on a new pseudo-terminal (required)")
    parser.add_argument("--control", metavar="PATH",
                        help="with --pty: also serve a control socket at PATH (the device's button, lid and "
                        "hopper count); with --send: the socket of a running simulator")
    parser.add_argument("--send", metavar="COMMAND",
                        help="send COMMAND to the simulator at --control PATH, print its answer and exit")
    parser.add_argument("--speed", type=float_in(0.01, 100), default=None, metavar="SPEED",
                        help="virtual ms per real ms, 0.01 to 100 (default 1; not "
                        "with --chip, which runs as fast as the emulator goes)")
    parser.add_argument("--chip", choices=["rp2040"],
                        help="run real MicroPython on an emulated Pico (rp2040js) instead of the firmware "
                        "on CPython: the firmware is flashed onto it first, as `unox firmware flash` does "
                        "(needs UNOX_PICO_DIR: docs/pico.md)")
    for name, kind, text in _options():
        parser.add_argument(f"--{name.replace('_', '-')}", dest=name, type=kind, help=text)
        if "_" in name:  # the spelling of earlier releases (--idle_step) still works, unlisted
            parser.add_argument(f"--{name}", dest=name, type=kind, help=argparse.SUPPRESS)
    parser.set_defaults(func=handler)


def device_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The options as checked `VirtualDevice` arguments (the same checks as a sim:// URL)."""
    from unoxsim.url import parse_sim_url

    given = [(name, getattr(args, name)) for name, _, _ in _options() if getattr(args, name) is not None]
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


def send(args: argparse.Namespace) -> int:
    """Client mode: one command to a running simulator's control socket."""
    from unoxsim.control import send as send_command

    if not args.control:
        raise CommandError("say which simulator: add --control PATH (the path it was started with)")
    try:
        answer = send_command(args.control, args.send)
    except OSError as exc:
        raise CommandError(f"no simulator answers on {args.control} ({exc}); start one with "
                           f"`unox simulate-device --pty --control {args.control}`") from None
    if answer.startswith("error:"):
        raise CommandError(answer[len("error:"):].strip())
    print(answer)
    return 0


def handler(args: argparse.Namespace) -> int:
    if args.send is not None:
        return send(args)
    if not args.pty:
        raise CommandError("say where to serve the simulated launcher: add --pty (a pseudo-terminal)")
    from unoxsim.control import ControlSocket

    if args.chip:
        server = chip_server(args)
    else:
        from unoxsim.device import VirtualDevice
        from unoxsim.pty_server import PtyServer

        try:
            server = PtyServer(VirtualDevice(**device_kwargs(args)), speed=args.speed or 1.0)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
    try:
        if args.control:
            server.control = ControlSocket(server.device, args.control)
    except (ValueError, OSError) as exc:
        server.close()
        raise CommandError(str(exc)) from None
    stop_on_signals()
    signal.signal(signal.SIGUSR1, lambda signum, frame: server.requests.append("press"))
    try:  # a Ctrl-C right after the path is printed stops it as cleanly as one later
        print(server.path, flush=True)
        print(f"unox: simulated launcher on {server.path}; Ctrl-C stops it", file=sys.stderr, flush=True)
        control = f" or `--control {args.control} --send press`" if args.control else ""
        print(f"unox: press its button with `kill -USR1 {os.getpid()}`{control}", file=sys.stderr, flush=True)
        server.serve()
    except KeyboardInterrupt:
        print("unox: simulated launcher stopped", file=sys.stderr)
    finally:
        server.close()
        close = getattr(server.device, "close", None)
        if close is not None:
            close()
    return 0


def chip_server(args: argparse.Namespace) -> Any:
    """The emulated Pico on a pty with our firmware flashed onto it through its USB serial, the way
    `unox firmware flash` flashes a Pico (the same function, mpremote included), then reset and booted.
    The link faults start after the flash: mpremote's raw REPL has no retransmission."""
    from unoxsim.pico import PicoDevice, pico_dir
    from unoxsim.pico_pty import ChipPtyServer

    from unox.cli.commands.firmware import flash

    if args.speed is not None:
        raise CommandError("--speed does not apply to --chip: the emulated Pico runs as fast as it can "
                           "(about 0.25-0.45 emulated s per wall s); drop --speed")
    kwargs = device_kwargs(args)
    faults = {name: kwargs.pop(name) for name in ("drop", "corrupt", "dup") if name in kwargs}
    kwargs.pop("idle_step", None)
    try:
        device = PicoDevice(folder=pico_dir(), **kwargs)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    from unox.launcher.clock import emulated_clock_path

    server = ChipPtyServer(device)
    try:
        clock_path = emulated_clock_path(server.path)
        if clock_path is not None:  # unox commands on this pty time their link on the chip's clock
            server.publish_clock(str(clock_path))
        print(f"unox: flashing the firmware onto the emulated Pico through {server.path}", file=sys.stderr,
              flush=True)
        device.advance(ENUMERATE_MS)
        boots = device.boots  # before the flash: mpremote's reset lands while its last step is served
        flash(server.path, runner=server.runner(sys.stderr.fileno()))
        device.advance_until(BOOT_LIMIT_MS, lambda: device.boots > boots)  # at once when it already did
        device.advance_until(BOOT_LIMIT_MS, lambda: device.host_pending() > 0)  # main.py speaks
        device.host_read()  # nobody listened yet: a client starts from a clean line
        device.set_link_faults(**faults)
    except BaseException:
        server.close()
        device.close()
        raise
    return server


ENUMERATE_MS = 300  # USB enumeration takes 14 emulated ms; MicroPython's REPL is up well within this
BOOT_LIMIT_MS = 5000  # main.py is up about 1 s (emulated) after a reset
