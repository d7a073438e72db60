"""A count with its noun in the right number, for every line unox prints: `1 game`, `2 games`, `0 presses`.

One helper for the whole host (it imports nothing, so the launcher, the table, the tournament and the CLI
all use it); the rules' own messages are the rules' and keep to their package.
"""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`1 reload`, `2 reloads`; `plural` where an s is wrong (`1 request replays`, `2 requests replay`)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
