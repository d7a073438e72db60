"""The `--launcher` option every command shares, and opening it with one kind of error."""

from __future__ import annotations

import argparse

from unox.launcher.base import Launcher, LauncherError
from unox.launcher.spec import SPEC_FORMS, open_launcher

LAUNCHER_HELP = "sim (default; sim:?jam=0.05&seed=1 sets simulator faults), script, serial:PORT, gpio"


def add_launcher_argument(parser: argparse.ArgumentParser, default: str = "sim") -> None:
    parser.add_argument("--launcher", default=default, metavar="SPEC", help=LAUNCHER_HELP)


def open_checked(spec: str, **options) -> Launcher:
    """Opens a launcher; a bad spec or an unreachable device becomes a LauncherError with advice."""
    from unox.launcher.configured import check_device

    check_device(spec)  # a missing /dev/unox-launcher says how udev makes it
    try:
        return open_launcher(spec, **options)
    except LauncherError:
        raise
    except ValueError as exc:
        raise LauncherError(str(exc)) from exc


__all__ = ["LAUNCHER_HELP", "SPEC_FORMS", "add_launcher_argument", "open_checked"]
