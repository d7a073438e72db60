"""One program at a time on a launcher's serial port, and a refusal that names the one holding it.

Linux lets any number of processes open a serial port, and every one of them can fire the launcher. So every
unox opener asks pyserial for `exclusive=True` (an advisory `flock` on the port, held while it is open), and
`unox firmware` checks the port is free before mpremote (which asks for the same lock) takes it. The holder
is found in the kernel's list of flocks (`unox.lock_holder`), so no lock file can be left behind or go
stale.
"""

from __future__ import annotations

import errno
import fcntl
import os

from unox.launcher.base import LauncherError
from unox.lock_holder import describe_holder, flock_holder

BUSY_ERRNOS = (errno.EAGAIN, errno.EWOULDBLOCK)


class PortBusy(LauncherError):
    """Another process holds the launcher's port: a refusal to report as it is, not a failed check."""


def is_busy(exc: BaseException) -> bool:
    """The port's lock is held by someone else (pyserial's SerialException keeps flock's errno)."""
    return getattr(exc, "errno", None) in BUSY_ERRNOS


def holder(device: str) -> tuple[int, str] | None:
    """(PID, command line) of the process holding the port's lock, when the kernel says."""
    return flock_holder(device)


def busy_message(device: str) -> str:
    """One line: who holds the port, and what to do."""
    who = describe_holder(device, "another program")
    return (
        f"the launcher port {device} is in use by {who}: one program at a time drives the launcher; "
        "use that one, or stop it first"
    )


def check_free(device: str) -> None:
    """Raises PortBusy when another process holds `device`'s lock; takes the lock only for the check."""
    try:
        fd = os.open(device, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return  # a port that cannot be opened is the opener's own error to report
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if is_busy(exc):
            raise PortBusy(busy_message(device)) from exc
    finally:
        os.close(fd)
