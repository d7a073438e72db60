"""Crash reports: an unexpected error becomes one line for the person and a file with the whole story.

The report goes to `$XDG_STATE_HOME/unox/crash/` (normally `~/.local/state/unox/crash/`), or to the temp
directory when that cannot be written, so a traceback never reaches the table but is there to send.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

MAX_SUMMARY = 160


def crash_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "unox" / "crash"


def report_text(argv: list[str], exc: BaseException) -> str:
    from unox import __version__

    lines = [
        f"unox {__version__} crashed at {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
        f"command: unox {' '.join(argv)}",
        f"python {sys.version.split()[0]} on {sys.platform}",
        "",
        *traceback.format_exception(exc),
    ]
    return "\n".join(line.rstrip("\n") for line in lines) + "\n"


def write_report(argv: list[str], exc: BaseException | None = None) -> Path | None:
    """Writes the report of `exc` (default: the one being handled); its path, or None if nowhere worked."""
    exc = exc if exc is not None else sys.exc_info()[1]
    text = report_text(argv, exc)
    name = f"unox-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    for folder in (crash_dir(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    return None


def summary(exc: BaseException | None) -> str:
    """`KeyError: 'x'` on one short line: the type says what broke even when the message is empty."""
    if exc is None:
        return "error"
    message = " ".join(str(exc).split())
    if len(message) > MAX_SUMMARY:
        message = message[: MAX_SUMMARY - 3] + "..."
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
