"""`unox firmware flash|version`: put the MicroPython firmware on the Pico with mpremote; ask its version."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.launcher_option import add_configured_launcher

FIRMWARE_DIR = Path(__file__).resolve().parents[4] / "firmware"
MKDIRS = "import os\nfor d in ('/lib', '/lib/unoxfw'):\n try: os.mkdir(d)\n except OSError: pass"
EXAMPLE = """examples:
  $ unox firmware flash --port /dev/ttyACM0
  $ unox firmware version --port /dev/ttyACM0
  $ unox firmware version                     the configured launcher"""

Runner = Callable[[Sequence[str]], int]
REPL_WAIT_S = 30.0  # mpremote's first step: a Pico's REPL answers in a second; with none it waits for ever
COPY_WAIT_S = 300.0  # the copies: a few seconds on a Pico, minutes on the emulated one at worst
NO_REPL = (
    "no MicroPython REPL answered on {port} within {wait:g} s, so nothing was copied: the port must be a "
    "Pico running MicroPython (a new Pico needs MicroPython's UF2 first: docs/install.md section 4; `unox "
    "simulate-device --pty` runs the firmware on CPython and has no REPL: add --chip rp2040 for one that "
    "has)"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "firmware",
        help="flash the launcher firmware onto a Pico (mpremote) or show the version it runs",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    flash = sub.add_parser("flash", help="copy firmware/unoxfw and main.py to the Pico with mpremote")
    flash.add_argument("--port", help="serial port of the Pico (default: the one Pico found on USB)")
    flash.add_argument("--dry-run", action="store_true", help="print the mpremote commands, run nothing")
    flash.set_defaults(func=run_flash)
    version = sub.add_parser("version", help="the firmware version the launcher reports in its HELLO")
    which = version.add_mutually_exclusive_group()
    which.add_argument("--port", help="serial port of the Pico (the same as --launcher serial:PORT)")
    add_configured_launcher(which)
    version.add_argument("--config", help="config file naming the launcher (default: ~/.config/unox/...)")
    version.set_defaults(func=run_version)


def flash_commands(port: str, firmware_dir: Path = FIRMWARE_DIR) -> list[list[str]]:
    """The mpremote runs that install the firmware: make /lib/unoxfw, copy the package, then main.py."""
    sources = sorted(str(p) for p in (firmware_dir / "unoxfw").glob("*.py"))
    if not sources or not (firmware_dir / "main.py").exists():
        raise CommandError(f"no firmware in {firmware_dir}: run this from a full unox checkout")
    base = [sys.executable, "-m", "mpremote", "connect", port]
    return [
        [*base, "exec", MKDIRS],
        [*base, "fs", "cp", *sources, ":/lib/unoxfw/"],
        [*base, "fs", "cp", str(firmware_dir / "main.py"), ":/main.py", "+", "reset"],
    ]


def find_pico() -> str:
    from unox.launcher.configured import attached_picos

    picos = attached_picos()
    if len(picos) == 1:
        return picos[0]
    if not picos:
        raise CommandError("no Raspberry Pi Pico found on USB: plug it in, or give its port with --port")
    raise CommandError(f"several Picos found ({', '.join(picos)}): choose one with --port")


def check_port(port: str) -> str:
    from serial.tools import list_ports

    known = [p.device for p in list_ports.comports()]
    if port not in known and not Path(port).exists():
        listing = ", ".join(known) or "none"
        raise CommandError(f"port {port} not found (ports now: {listing}); plug the Pico in or fix --port")
    return port


def check_not_held(port: str) -> None:
    """A port another program holds (a table driving the launcher) is refused, naming that program."""
    from unox.launcher.port_lock import PortBusy, check_free

    try:
        check_free(port)
    except PortBusy as exc:
        raise CommandError(f"{exc}; then flash again") from exc


class StepTimeout(Exception):
    """An mpremote step that did not end in its time (it waits for a REPL that never answers)."""


def _timed_runner(wait_s: float) -> Runner:
    """Runs one mpremote step; a step still running after `wait_s` is killed (StepTimeout)."""
    import subprocess

    def run(command: Sequence[str]) -> int:
        try:
            return subprocess.run(list(command), timeout=wait_s).returncode
        except subprocess.TimeoutExpired as exc:  # subprocess.run has killed it
            raise StepTimeout(str(wait_s)) from exc

    return run


def flash(port: str | None, *, runner: Runner | None = None, dry_run: bool = False,
          answer_s: float = REPL_WAIT_S) -> list[list[str]]:
    """Runs (or only lists) the flash commands; a failing step stops the flash with advice.

    mpremote waits for ever for a REPL that does not answer (a port with no MicroPython on it): it is
    told what it waits for first, and its first step is given `answer_s` before it gives up saying why."""
    import shlex

    port = check_port(port) if port else find_pico()
    commands = flash_commands(port)
    files = sum(1 for command in commands for word in command if word.endswith(".py"))
    if not dry_run:
        print(f"flashing {port}: waiting up to {answer_s:g} s for MicroPython's REPL (mpremote stops the "
              f"running program with Ctrl-C), then copying {files} files", file=sys.stderr, flush=True)
    for step, command in enumerate(commands):
        if dry_run:
            print(shlex.join(command))
            continue
        check_not_held(port)  # mpremote's own lock would only say "failed to access" (tests/launcher)
        wait = answer_s if step == 0 else COPY_WAIT_S
        try:
            code = (runner or _timed_runner(wait))(command)
        except StepTimeout:
            if step == 0:
                raise CommandError(NO_REPL.format(port=port, wait=wait)) from None
            raise CommandError(f"mpremote stopped answering on {port} while copying (over {wait:g} s): "
                               "unplug and replug the Pico, and flash again") from None
        if code != 0:
            raise CommandError(
                f"mpremote failed (exit {code}) on {port} at `{' '.join(command[3:6])} ...`: unplug and "
                "replug the Pico, close other programs using the port, and flash again"
            )
    return commands


def run_flash(args: argparse.Namespace) -> int:
    flash(args.port, dry_run=args.dry_run)
    if not args.dry_run:
        port = args.port or "PORT"
        print(f"firmware flashed; check it with: unox firmware version --launcher serial:{port}")
    return 0


def run_version(args: argparse.Namespace) -> int:
    from unox import config as config_file
    from unox.launcher import LauncherError
    from unox.launcher.configured import is_simulated, resolve
    from unox.launcher.options import open_checked

    try:
        settings = config_file.load(args.config)
        spec = resolve(f"serial:{args.port}" if args.port else args.launcher, settings)
        launcher = open_checked(spec, config=settings)
    except (config_file.ConfigError, LauncherError) as exc:
        raise CommandError(str(exc)) from exc
    try:
        status = launcher.status()
    finally:
        launcher.close()
    if status.firmware is None:
        raise CommandError(f"{spec} runs no firmware (direct GPIO or script); use serial:PORT")
    print(f"unoxfw {status.firmware} on {spec}" + (" (the simulator's copy)" if is_simulated(spec) else ""))
    return 0
