"""The `unox` command: a thin shell over the library.

Each sub-command lives in its own module under `unox.cli.commands` and exposes
`register(subparsers)`; the module list is discovered, so adding a command never
touches this file. Errors exit 1 with one clear line; usage errors exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from unox import __version__
from unox.cli import commands
from unox.cli.errors import CommandError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unox",
        description="Run UNO Extreme tables, drive the card launcher, simulate it.",
    )
    parser.add_argument("--version", action="version", version=f"unox {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except CommandError as exc:
        print(f"unox: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
