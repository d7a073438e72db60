"""A count with its noun in the right number (`1 card`, `2 cards`) for the rules' own messages.

The rules import only the rules, so they keep this copy of `unox.words.counted` rather than import it.
"""

from __future__ import annotations


def counted(n: int, noun: str) -> str:
    """`1 card`, `2 cards`: the noun in the number `n` says."""
    return f"{n} {noun if n == 1 else noun + 's'}"
