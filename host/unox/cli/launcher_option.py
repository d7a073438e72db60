"""`--launcher` for the commands that act on hardware: left out, it means the configured launcher."""

from __future__ import annotations

import argparse

HELP = (
    "serial:PORT, gpio, sim (sim:?jam=0.05&seed=1 sets simulator faults) or script; default: the configured "
    "launcher ([launcher] spec in the config file, else /dev/unox-launcher, else the one Pico on USB)"
)


def add_configured_launcher(parser: argparse.ArgumentParser) -> None:
    """No default here: `unox.launcher.configured.resolve` finds it when the command runs."""
    parser.add_argument("--launcher", metavar="SPEC", help=HELP)
