"""Who holds a `flock` on a file: the kernel's own list (`/proc/locks` on Linux), read, never written.

A lock file that names its holder can be deleted or left stale; the kernel's list cannot. The launcher's
serial port and a table's journal both name their holder this way. Elsewhere (no /proc) the answer is None.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

PROC_LOCKS = Path("/proc/locks")
COMMAND_CHARS = 120
URL_PASSWORD = re.compile(r"(://[^/:@\s]*:)[^@\s]*@")  # mqtt://user:PASSWORD@host: another's secret


def flock_holder(path: str | os.PathLike) -> tuple[int, str] | None:
    """(PID, command line) of a process holding a flock on `path`'s file, when the kernel says."""
    try:
        info = os.stat(path)
        lines = PROC_LOCKS.read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return None
    exact = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    by_inode = []  # overlay file systems list the lower file's device: the inode alone, if unique
    for line in lines:
        words = line.split()
        if "->" in words or len(words) < 6 or words[1] != "FLOCK" or not words[4].isdigit():
            continue  # "->" marks a process waiting for the lock, not its holder
        pid = int(words[4])
        if words[5] == exact:
            return pid, command_line(pid)
        if words[5].rpartition(":")[2] == str(info.st_ino):
            by_inode.append(pid)
    if len(set(by_inode)) == 1:
        return by_inode[0], command_line(by_inode[0])
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
    text = URL_PASSWORD.sub(r"\1***@", shlex.join(argv)) if argv else "?"
    return text if len(text) <= COMMAND_CHARS else text[: COMMAND_CHARS - 3] + "..."


def describe_holder(path: str | os.PathLike, fallback: str) -> str:
    """`PID 123 (unox play ...)`, or `fallback` when the holder cannot be found."""
    found = flock_holder(path)
    return f"PID {found[0]} ({found[1]})" if found is not None else fallback
