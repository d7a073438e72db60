"""`unox firmware flash|version`: put the MicroPython firmware on the Pico with mpremote; ask its version.

The firmware ships inside unox as package data: the `unoxfw` package (installed beside `unox`) with its
`main.py` in it, found with importlib.resources, so a plain `pip install` (a wheel, not a checkout) flashes.
`--firmware DIR` (or UNOX_FIRMWARE) flashes another copy instead, e.g. a checkout's `firmware/` after editing
pins.toml and running gen_pins.py: a folder with `main.py` and `unoxfw/`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.launcher_option import add_configured_launcher
from unox.words import counted

FIRMWARE_ENV = "UNOX_FIRMWARE"
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
    flash = sub.add_parser("flash", help="ask the running firmware to hand its REPL over, then copy "
                           "firmware/unoxfw and main.py to the Pico with mpremote")
    flash.add_argument("--port", help="serial port of the Pico (default: the one Pico found on USB)")
    flash.add_argument("--dry-run", action="store_true", help="print the mpremote commands, run nothing")
    flash.add_argument("--firmware", metavar="DIR",
                       help="flash this copy (a folder with main.py and unoxfw/, e.g. your edited checkout's "
                            f"firmware/) instead of the one installed with unox; also ${FIRMWARE_ENV}")
    flash.set_defaults(func=run_flash)
    version = sub.add_parser("version", help="the firmware version the launcher reports in its HELLO")
    which = version.add_mutually_exclusive_group()
    which.add_argument("--port", help="serial port of the Pico (the same as --launcher serial:PORT)")
    add_configured_launcher(which)
    version.add_argument("--config", help="config file naming the launcher (default: ~/.config/unox/...)")
    version.set_defaults(func=run_version)


def installed_firmware() -> tuple[list[Path], Path]:
    """The unoxfw modules and main.py installed with unox (package data, wherever pip put them)."""
    from importlib.resources import files

    package = files("unoxfw")  # a folder on disk for a pip install, a wheel's or an editable checkout's
    folder = Path(str(package))
    where = f"the installed unoxfw package ({folder}; reinstall unox)"
    return firmware_files(folder, folder / "main.py", where)


def firmware_files(package: Path, main_py: Path, where: str) -> tuple[list[Path], Path]:
    """(the package's modules, main.py); a clear error when either is missing."""
    sources = sorted(p for p in package.glob("*.py") if p.name != "main.py")
    if not sources or "pins.py" not in {p.name for p in sources} or not main_py.is_file():
        raise CommandError(f"no firmware in {where}: it needs main.py and unoxfw/*.py (pins.py included)")
    return sources, main_py.resolve()  # a checkout's unoxfw/main.py links to firmware/main.py


def firmware_source(firmware_dir: str | Path | None = None) -> tuple[list[Path], Path]:
    """`--firmware DIR`, else $UNOX_FIRMWARE, else the copy installed with unox."""
    import os

    chosen = firmware_dir or os.environ.get(FIRMWARE_ENV)
    if not chosen:
        return installed_firmware()
    folder = Path(chosen).expanduser()
    if (folder / "firmware" / "main.py").is_file():  # the checkout's root given: its firmware/ folder
        folder = folder / "firmware"
    return firmware_files(folder / "unoxfw", folder / "main.py", f"{folder} (give the folder that holds "
                          "main.py and unoxfw/, e.g. ~/unox-src/firmware)")


def handover_command(port: str) -> list[str]:
    """Asks a running main.py over the protocol to stop its motor and hand the REPL over: the firmware keeps
    Ctrl-C off while it runs, so mpremote cannot stop it alone (unox.launcher.handover)."""
    return [sys.executable, "-m", "unox.launcher.handover", port]


def flash_commands(port: str, firmware_dir: str | Path | None = None) -> list[list[str]]:
    """The runs that install the firmware: main.py hands the REPL over, then mpremote makes /lib/unoxfw,
    copies the package, then main.py."""
    sources, main_py = firmware_source(firmware_dir)
    base = [sys.executable, "-m", "mpremote", "connect", port]
    return [
        handover_command(port),
        [*base, "exec", MKDIRS],
        [*base, "fs", "cp", *map(str, sources), ":/lib/unoxfw/"],
        [*base, "fs", "cp", str(main_py), ":/main.py", "+", "reset"],
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
          firmware_dir: str | Path | None = None, answer_s: float = REPL_WAIT_S) -> list[list[str]]:
    """Runs (or only lists) the flash commands; a failing step stops the flash with advice.

    mpremote waits for ever for a REPL that does not answer (a port with no MicroPython on it): it is
    told what it waits for first, and its first step is given `answer_s` before it gives up saying why."""
    import shlex

    firmware_source(firmware_dir)  # a missing or broken copy is refused before any port is looked at
    port = check_port(port) if port else find_pico()
    commands = flash_commands(port, firmware_dir)
    # the files the copies put on the chip: each source once (a destination such as `:/main.py` is not one)
    files = sum(1 for command in commands[2:] for word in command
                if word.endswith(".py") and not word.startswith(":"))
    for step, command in enumerate(commands):
        if dry_run:
            print(shlex.join(command))
            continue
        check_not_held(port)  # mpremote's own lock would only say "failed to access" (tests/launcher)
        if step == 0:  # the hand-over (unox.launcher.handover): its own short waits, in protocol time
            try:
                code = (runner or _timed_runner(COPY_WAIT_S))(command)
            except StepTimeout:
                code = -1
            if code != 0:
                from unox.launcher.handover import RECOVER

                why = f"the firmware on {port} did not hand its REPL over (exit {code})"
                raise CommandError(f"{why}; {RECOVER}")
            continue
        if step == 1:  # once the port is known free: a refusal stays one line
            print(f"flashing {port}: waiting up to {answer_s:g} s for MicroPython's REPL (main.py handed it "
                  "over, or mpremote stops an older firmware with Ctrl-C), then copying "
                  f"{counted(files, 'file')}",
                  file=sys.stderr, flush=True)
        wait = answer_s if step == 1 else COPY_WAIT_S
        try:
            code = (runner or _timed_runner(wait))(command)
        except StepTimeout:
            if step == 1:
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
    flash(args.port, dry_run=args.dry_run, firmware_dir=args.firmware)
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
    board = status.board_id or "unknown (a firmware older than its board id: unox firmware flash)"
    print(f"unoxfw {status.firmware} on {spec}, board {board}"
          + (" (the simulator's copy)" if is_simulated(spec) else ""))
    return 0
