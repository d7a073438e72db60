"""Numbers checked where they are typed: argparse types that refuse a value out of range, naming the range.

`type=int_in(0, 200)` turns `--cards 200x` or `--cards 300` into a usage error of the sub-command,
`argument --cards: 300 is out of range; give a whole number from 0 to 200`, before any work starts.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

SEED_MAX = 2**32 - 1  # the seeds unox picks itself are 32-bit; a negative one would alias a positive one


def _fmt(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else f"{number:g}"


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number; give one from {low} to {high}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{value} is out of range; give a whole number from {low} to {high}")
        return value

    parse.__name__ = f"whole number from {low} to {high}"
    return parse


def float_in(low: float, high: float, unit: str = "") -> Callable[[str], float]:
    """An argparse type: a finite number from `low` to `high` (`unit` only words the message)."""
    span = f"{_fmt(low)} to {_fmt(high)}{' ' + unit if unit else ''}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number; give one from {span}") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is out of range; give a number from {span}")
        return value

    parse.__name__ = f"number from {span}"
    return parse
