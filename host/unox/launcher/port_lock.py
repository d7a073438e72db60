"""One program at a time on a launcher's serial port, and a refusal that names the one holding it.

Linux lets any number of processes open a serial port, and every one of them can fire the launcher. So every
unox opener asks pyserial for `exclusive=True` (an advisory `flock` on the port, held while it is open), and
`unox firmware` checks the port is free before mpremote (which asks for the same lock) takes it. The holder
is found where the kernel lists flocks (`/proc/locks`: the PID holding one on the port's inode), so no lock
file can be left behind or go stale; its command line comes from `/proc/PID/cmdline`.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shlex
from pathlib import Path

from unox.launcher.base import LauncherError

BUSY_ERRNOS = (errno.EAGAIN, errno.EWOULDBLOCK)
PROC_LOCKS = Path("/proc/locks")
COMMAND_CHARS = 120


class PortBusy(LauncherError):
    """Another process holds the launcher's port: a refusal to report as it is, not a failed check."""


def is_busy(exc: BaseException) -> bool:
    """The port's lock is held by someone else (pyserial's SerialException keeps flock's errno)."""
    return getattr(exc, "errno", None) in BUSY_ERRNOS


def holder(device: str) -> tuple[int, str] | None:
    """(PID, command line) of the process holding a flock on `device`, when the kernel says."""
    try:
        info = os.stat(device)
        lines = PROC_LOCKS.read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return None
    inode = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    for line in lines:
        words = line.split()
        if "->" in words or len(words) < 6 or words[1] != "FLOCK" or words[5] != inode:
            continue  # "->" marks a waiter, not the holder
        if words[4].isdigit():
            pid = int(words[4])
            return pid, command_line(pid)
    return None


def command_line(pid: int) -> str:
    """The process's command line, shortened: `python -m unox play ...` reads `unox play ...`."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    argv = [part.decode(errors="replace") for part in raw.split(b"\0") if part]
    if len(argv) >= 3 and argv[1:3] == ["-m", "unox"]:
        argv = ["unox", *argv[3:]]
    elif argv and Path(argv[0]).name == "unox":
        argv = ["unox", *argv[1:]]
    text = shlex.join(argv) if argv else "?"
    return text if len(text) <= COMMAND_CHARS else text[: COMMAND_CHARS - 3] + "..."


def busy_message(device: str) -> str:
    """One line: who holds the port, and what to do."""
    found = holder(device)
    who = f"PID {found[0]} ({found[1]})" if found is not None else "another program"
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
