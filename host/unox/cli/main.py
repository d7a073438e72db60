"""The `unox` command: a thin shell over the library.

Each sub-command lives in its own module under `unox.cli.commands` and exposes `register(subparsers)`.
`COMMANDS` names them with their one-line help, so a start imports only the module of the command chosen
(`unox --version` imports none): a new command is one line here plus its module.
Errors exit 1 with one clear line; usage errors (an option's value out of range or malformed, in every
command) exit 2 with the sub-command's usage; an unexpected error
prints one line, writes its traceback to a report file (`unox.cli.crash`) and exits 70; a closed pipe
(`unox demo --plain | head -1`) is a quiet exit.
"""

from __future__ import annotations

import sys

from unox import __version__

# name -> (module in unox.cli.commands, one-line help). tests/cli/test_registry.py checks that this
# matches the modules and the help each one registers.
COMMANDS: dict[str, tuple[str, str]] = {
    "calibrate": ("calibrate", "measure motor time, duty and beam timings with test cards; write them to the "
                  "config file"),
    "demo": ("demo", "watch bots play a whole game with the simulated launcher (no hardware needed)"),
    "diagnose": ("diagnose", "check link, firmware, lid, battery, beam, buzzer, button and motor: "
                 "a pass/fail table"),
    "firmware": ("firmware", "flash the launcher firmware onto a Pico (mpremote) or show the version it "
                 "runs"),
    "install": ("install", "print or write the Raspberry Pi's systemd unit, udev rule and tournament broker "
                "config"),
    "journal": ("journal", "check a table's journal, or repair one whose rows do not replay"),
    "play": ("play", "run a physical table: turns, presses owed, UNO calls and scores, with the launcher"),
    "press": ("press", "press-button mode: every press fires what the eject profile picks, with a live "
              "tally"),
    "profile": ("profile", "statistics of N virtual presses of an eject profile"),
    "rules": ("rules", "the rules engine: state diagram and error codes"),
    "serve": ("serve", "serve the table to phones: each player sees it and enters their own plays"),
    "sim": ("sim", "simulate whole games between bots"),
    "simulate-device": ("simulate_device", "serve the simulated launcher on a pseudo-terminal"),
    "table": ("table", "run a table over the JSON-lines table protocol v1 (stdin/stdout)"),
    "tournament": ("tournament", "coordinate tables that play together over an MQTT broker: the classic "
                   "multi-table tournament"),
}
DESCRIPTION = "Run UNO Extreme tables, drive the card launcher, simulate it."
EXIT_SOFTWARE = 70  # sysexits.h EX_SOFTWARE: an internal error, reported in a file
EXIT_PIPE = 141  # 128 + SIGPIPE: what `yes | head -1` gives its writer


def chosen_command(argv: list[str]) -> str | None:
    """The sub-command argv names: the first word that is not an option (the top level has no values)."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(argv: list[str] | None = None):
    """The parser; only the command `argv` names is imported and registered in full, the rest are stubs.

    Without argv every command is registered in full (for tests and docs that walk the whole CLI).
    """
    import argparse
    import importlib

    class Parser(argparse.ArgumentParser):
        """Remembers, in the namespace, the innermost parser that parsed it: its usage suits an error."""

        def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
            namespace, extras = super().parse_known_args(args, namespace)
            if getattr(namespace, "_parser", None) is None:
                namespace._parser = self
            return namespace, extras

        def _get_formatter(self):  # argparse would import shutil for the width alone
            formatter = self.formatter_class
            if formatter is argparse.RawDescriptionHelpFormatter:  # hand-laid lines, wrapped to fit
                from unox.cli.help_format import FittedRawDescription

                formatter = FittedRawDescription
            return formatter(prog=self.prog, width=_help_width())

    parser = Parser(prog="unox", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"unox {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = chosen_command(argv) if argv is not None else None
    for name, (module_name, help_text) in COMMANDS.items():
        if argv is None or name == wanted:
            importlib.import_module(f"unox.cli.commands.{module_name}").register(sub)
        else:
            sub.add_parser(name, help=help_text, add_help=False)
    for module_name in unlisted_modules():  # a new module works before its line in COMMANDS (tests want it)
        importlib.import_module(f"unox.cli.commands.{module_name}").register(sub)
    return parser


def unlisted_modules() -> list[str]:
    """Command modules missing from COMMANDS: found with one directory listing, imported in full."""
    import os

    folder = os.path.join(os.path.dirname(__file__), "commands")
    listed = {module for module, _ in COMMANDS.values()} | {"__init__"}
    names = (entry[:-3] for entry in os.listdir(folder) if entry.endswith(".py"))
    return sorted(name for name in names if name not in listed)


def _help_width() -> int:
    """argparse's own rule (COLUMNS, else the terminal, else 80; minus 2) without importing shutil."""
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, OSError, ValueError):
            columns = 80
    return max(columns, 1) - 2


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--version"]:  # the fast path: no argparse at all
        return _write(f"unox {__version__}\n")
    try:
        code = _run(argv)
        sys.stdout.flush()  # a closed pipe shows here, not as a traceback at interpreter exit
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        if _stdout_is_broken():
            return _quiet_exit()
        return _crash(argv)
    except Exception:
        return _crash(argv)


def _run(argv: list[str]) -> int:
    from unox.cli.errors import CommandError, UsageError

    parser = build_parser(argv)
    args, extras = parser.parse_known_args(argv)
    if extras:
        args._parser.error(f"unrecognized arguments: {' '.join(extras)}")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UsageError as exc:  # what argparse's error() prints, returned rather than raised as SystemExit
        sys.stdout.flush()
        args._parser.print_usage(sys.stderr)
        print(f"{args._parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    except CommandError as exc:
        sys.stdout.flush()
        print(f"unox: error: {exc}", file=sys.stderr)
        return 1


def _write(text: str) -> int:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        return _quiet_exit()
    return 0


def _stdout_is_broken() -> bool:
    """True when stdout is a pipe whose reader has gone (poll reports an error on its write end)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


def _quiet_exit() -> int:
    """The reader left: point stdout at devnull so the interpreter's last flush cannot fail, and stop."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        pass
    return EXIT_PIPE


def _crash(argv: list[str]) -> int:
    from unox.cli.crash import summary, write_report

    path = write_report(argv)
    what = summary(sys.exc_info()[1])
    where = f"a full report is in {path}" if path else "no report could be written"
    print(f"unox: error: unexpected {what} ({where}); please report it", file=sys.stderr)
    return EXIT_SOFTWARE


if __name__ == "__main__":
    sys.exit(main())
