"""A dependency-free progress bar on stderr, hidden by `--silent` or when stderr is not a terminal."""

from __future__ import annotations

import sys
from typing import TextIO


class Progress:
    """Counts work done out of `total` and redraws one line; a no-op when silent."""

    def __init__(self, total: int, label: str, *, silent: bool = False, stream: TextIO | None = None):
        self.total = max(total, 1)
        self.label = label
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = not silent and (stream is not None or self.stream.isatty())

    def advance(self, step: int = 1) -> None:
        self.done = min(self.total, self.done + step)
        if self.enabled:
            filled = 30 * self.done // self.total
            bar = "#" * filled + "." * (30 - filled)
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
