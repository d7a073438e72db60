"""One table per journal: an exclusive `flock` on `FILE.lock`, held for the table's whole life.

SQLite's WAL mode lets two processes write one file, so two tables on one journal would both accept requests
and one would lose the other's later. The lock lives in a file of its own, not on the database: closing any
other descriptor of the database would drop SQLite's own POSIX locks. The lock file holds the holder's PID,
so the second process can say who has the table. A clean close removes the lock file again.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path


class JournalError(Exception):
    """The journal file cannot be used; the message says what to do instead."""


class JournalBusy(JournalError):
    """Another unox table holds this journal."""


def lock_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".lock")


class JournalLock:
    """Taken with `acquire()` (never blocks: a held lock is a JournalBusy); `release()` gives it back."""

    def __init__(self, journal: Path):
        self.journal = journal
        self.path = lock_path(journal)
        self._fd: int | None = None

    def acquire(self) -> None:
        if self._fd is not None:
            return
        for _ in range(3):  # a holder may remove the file between our open and our lock: take the new one
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise JournalBusy(self._busy_message()) from exc
                raise JournalError(f"cannot lock the journal {self.journal}: {exc.strerror or exc}") from exc
            if self._same_file(fd):
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                self._fd = fd
                return
            os.close(fd)
        raise JournalError(f"cannot lock the journal {self.journal}: its lock file keeps changing; try again")

    def _open(self) -> int:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise JournalError(permission_message(self.journal, exc)) from exc

    def _same_file(self, fd: int) -> bool:
        try:
            on_disk = os.stat(self.path)
        except FileNotFoundError:
            return False
        mine = os.fstat(fd)
        return (on_disk.st_dev, on_disk.st_ino) == (mine.st_dev, mine.st_ino)

    def _busy_message(self) -> str:
        pid = holder_pid(self.journal)
        who = f" (PID {pid})" if pid is not None else ""
        return (
            f"the table in {self.journal} is already running in another unox{who}; use that one, or stop it "
            "first and then resume the journal"
        )

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.unlink(self.path)  # while still locked, so nobody takes a file that is going away
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None


def holder_pid(journal: Path) -> int | None:
    """The PID written by the process that holds `journal`'s lock, when it can be read."""
    try:
        text = lock_path(journal).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() and len(text) < 12 else None


def permission_message(journal: Path, exc: OSError) -> str:
    """A write refused by the file system: say it is a permissions problem and where."""
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return (
            f"cannot write the journal {journal}: permission denied (the file or its folder "
            f"{journal.parent} is read-only for this user); give a journal path in a folder you can write"
        )
    if exc.errno == errno.ENOENT:
        return f"cannot write the journal {journal}: there is no folder {journal.parent}; create it first"
    return f"cannot write the journal {journal}: {exc.strerror or exc}"
