"""One table per journal: an exclusive `flock` on the journal file itself, held for the table's whole life.

SQLite's WAL mode lets two processes write one file, so two tables on one journal would both accept requests
and the rows would mix. A lock file beside the journal (`FILE.lock`, as unox had) is bypassed by a symlink,
a hard link or another spelling of the path, and by anyone who deletes it. So the lock is on the database's
own inode, reached through its resolved path and checked to still be that file after locking: every name
of the file meets the same lock, and there is nothing beside it to delete or to leave behind.

flock and SQLite's POSIX locks are separate on Linux. Closing a descriptor of the database drops this
process's POSIX locks on it, so the lock's descriptor is closed only after the journal's connection. The
second process finds the holder's PID and command in the kernel's list of locks (`unox.lock_holder`).
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from unox.lock_holder import describe_holder

BUSY_ERRNOS = (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES)


class JournalError(Exception):
    """The journal file cannot be used; the message says what to do instead."""


class JournalDamaged(JournalError):
    """SQLite cannot read the whole file: `unox journal repair` saves what it can."""


class JournalBusy(JournalError):
    """Another unox table holds this journal."""


def real_path(journal: Path) -> Path:
    """The file every spelling of `journal` names (symlinks and `..` resolved)."""
    return Path(os.path.realpath(journal))


class JournalLock:
    """Taken with `acquire()` (never blocks: a held lock is a JournalBusy); `release()` gives it back.

    `created` says whether this lock made the file (a new journal), so a start that fails can remove it.
    """

    def __init__(self, journal: Path, *, held_as: str | None = None):
        self.journal = journal
        self.held_as = held_as  # what the busy message calls the journal ("the table in FILE" unless given)
        self._fd: int | None = None
        self.created = False

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self, *, create: bool) -> None:
        if self._fd is not None:
            return
        for _ in range(3):  # the file was replaced between our open and our lock: lock the new one
            real = real_path(self.journal)
            fd, created = self._open(real, create)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in BUSY_ERRNOS:
                    raise JournalBusy(self._busy_message()) from exc
                raise JournalError(f"cannot lock the journal {self.journal}: {exc.strerror or exc}") from exc
            if _same_file(real, fd):
                self._fd, self.created = fd, created
                return
            os.close(fd)
        raise JournalError(f"cannot lock the journal {self.journal}: the file keeps changing; try again")

    def _open(self, real: Path, create: bool) -> tuple[int, bool]:
        """A descriptor of the journal file to lock (read-only: a lock needs no write), creating it if
        asked and missing; and whether this call created it."""
        try:
            if create:
                try:
                    return os.open(real, os.O_RDONLY | os.O_CREAT | os.O_EXCL, 0o644), True
                except FileExistsError:
                    pass
            return os.open(real, os.O_RDONLY), False
        except FileNotFoundError as exc:
            if real.parent.is_dir():
                message = f"no journal at {self.journal}; give the file written by --journal"
                raise JournalError(message) from exc
            raise JournalError(permission_message(self.journal, exc)) from exc
        except OSError as exc:
            raise JournalError(permission_message(self.journal, exc)) from exc

    def _busy_message(self) -> str:
        who = describe_holder(real_path(self.journal), "")
        if self.held_as is not None:
            held = f" ({who})" if who else ""
            return f"{self.held_as} is already open in another unox{held}; use that one, or stop it first"
        return (
            f"the table in {self.journal} is already running in another unox{f' ({who})' if who else ''}; "
            "use that one, or stop it first and then resume the journal"
        )

    def release(self, *, remove_created: bool = False) -> None:
        """Give the lock back; with `remove_created`, first delete the file if this lock made it (a start
        that failed leaves the folder as it was), with any SQLite files beside it."""
        if self._fd is None:
            return
        if remove_created and self.created:
            real = real_path(self.journal)
            if _same_file(real, self._fd):  # still ours: removed while locked, so nobody takes it meanwhile
                for suffix in ("-wal", "-shm", "-journal", ""):
                    try:
                        os.unlink(f"{real}{suffix}")
                    except OSError:
                        pass
        os.close(self._fd)
        self._fd = None
        self.created = False


def _same_file(path: Path, fd: int) -> bool:
    try:
        on_disk = os.stat(path)
    except OSError:
        return False
    mine = os.fstat(fd)
    return (on_disk.st_dev, on_disk.st_ino) == (mine.st_dev, mine.st_ino)


def permission_message(journal: Path, exc: OSError) -> str:
    """A write refused by the file system: say it is a permissions problem and where."""
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return (
            f"cannot write the journal {journal}: permission denied (the file or its folder "
            f"{journal.parent} is read-only for this user); give a journal path in a folder you can write"
        )
    if exc.errno == errno.ENOENT:
        return f"cannot write the journal {journal}: there is no folder {journal.parent}; create it first"
    if exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
        return (
            f"cannot write the journal {journal}: the disk is full (or the file may grow no more); free "
            "some space, or give a journal path on another disk"
        )
    return f"cannot write the journal {journal}: {exc.strerror or exc}"
