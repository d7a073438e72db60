"""Launcher drivers behind one interface; `open_launcher(spec)` picks one from a `--launcher` value."""

from unox.launcher.base import (
    BEEP_PATTERNS,
    FAULTS,
    FireResult,
    Launcher,
    LauncherError,
    LauncherStatus,
)
from unox.launcher.spec import SPEC_FORMS, open_launcher, parse_spec

__all__ = [
    "BEEP_PATTERNS",
    "FAULTS",
    "SPEC_FORMS",
    "FireResult",
    "Launcher",
    "LauncherError",
    "LauncherStatus",
    "open_launcher",
    "parse_spec",
]
