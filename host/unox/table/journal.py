"""The table's journal: every accepted request and every launcher fire, in one SQLite file.

A crash or a power cut then loses nothing that a player saw accepted: replaying the rows rebuilds the game.
A fire is written as an intent (its id and the count asked) before the motor turns and resolved with the
beam's count after, so a crash in between is settled exactly, never fired again. The table's settings live
in the same file, so one path resumes a table.

Opening reads only. The first write (or `lock()`) takes the file's lock, creates the schema in a new file or
upgrades a v1 journal; a file that is not a unox journal is refused before anything is written to it.
"""

from __future__ import annotations

import functools
import json
import os
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from unox.table.journal_file import (
    APPLICATION_ID,
    CURRENT,
    LEGACY,
    NEW,
    SCHEMA,
    SCHEMA_VERSION,
    TABLES,
    V2_ADDITIONS,
    classify,
    damaged,
    is_damage,
)
from unox.table.journal_lock import JournalBusy, JournalError, JournalLock, permission_message, real_path

__all__ = ["SCHEMA_VERSION", "Journal", "JournalBusy", "JournalError"]

T = TypeVar("T")
FIRE_ID_LIMIT = 2**31  # the firmware's fire ids are positive and below this


def _reading(method: Callable[..., T]) -> Callable[..., T]:
    """A read that finds the file damaged (a page cut off or broken) says so, with what to do."""

    @functools.wraps(method)
    def read(self: Journal, *args: Any, **kwargs: Any) -> T:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            if is_damage(exc):
                raise damaged(self.path, exc) from exc
            raise

    return read


def _writing(method: Callable[..., T]) -> Callable[..., T]:
    """A write the file system refuses (a full disk, a file size limit) is one JournalError saying what to
    do, not SQLite's bare OperationalError."""

    @functools.wraps(method)
    def write(self: Journal, *args: Any, **kwargs: Any) -> T:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.OperationalError as exc:
            raise JournalError(_write_error(self.path, exc)) from exc

    return write


class Journal:
    """Append-only requests plus the launcher's fires, in one SQLite file (WAL, each write committed)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = JournalLock(self.path)
        self._kind = classify(self.path)
        self._db: sqlite3.Connection | None = None
        self._writable = False

    def _reader(self) -> sqlite3.Connection | None:
        """The connection reads go through (None for a new journal), opened at the first read: a start
        refused because another table holds the file has not touched it. Ours (`classify` said so): a
        normal connection, which tidies its log away on close; read-only where this user cannot write
        (a read needs no write, e.g. `journal check`)."""
        if self._db is None and self._kind != NEW:
            self._db = self._connect(read_only=not self._writable_place())
        return self._db

    # -- opening ----------------------------------------------------------------------------------

    def _writable_place(self) -> bool:
        """The file and its folder take writes (SQLite keeps its write-ahead log beside the file)."""
        real = real_path(self.path)
        return os.access(real, os.W_OK) and os.access(real.parent, os.W_OK)

    def _connect(self, *, read_only: bool) -> sqlite3.Connection:
        real = real_path(self.path)
        mode = "rw"
        if read_only:
            # With no write-ahead log beside it the file alone is the whole database: read it as it lies
            # (`immutable` needs no -shm, which a read-only folder could not hold).
            mode = "ro" if Path(f"{real}-wal").exists() else "ro&immutable=1"
        try:
            db = sqlite3.connect(f"file:{quote(str(real))}?mode={mode}", uri=True, isolation_level=None,
                                 check_same_thread=False)
            db.execute("PRAGMA schema_version").fetchone()  # SQLite opens lazily: fail here, not later
        except sqlite3.OperationalError as exc:
            if read_only:
                raise JournalError(
                    f"cannot read the journal {self.path}: {exc}; its folder is read-only and its "
                    f"write-ahead log {self.path.name}-wal needs writing back: copy both files to a folder "
                    "you can write and use the copy"
                ) from exc
            raise JournalError(_write_error(self.path, exc)) from exc
        return db

    def hold(self) -> None:
        """Take the journal's lock without writing anything (a JournalBusy if another table has it), so what
        is read next is what this process will write to; `lock()` then makes it writable."""
        if self._lock.held:
            return
        self._lock.acquire(create=False)
        if self._db is not None:  # what the file holds now, not what it held when this journal opened
            self._db.close()
            self._db = None
        self._kind = classify(self.path)

    def lock(self) -> None:
        """Take the journal for this process (a JournalBusy if another table has it) and make it writable.

        A new journal's file is created here, empty: its tables come with the first write. A lock that
        fails leaves the folder as it was."""
        if self._writable:
            return
        self._lock.acquire(create=True)
        try:
            self._kind = classify(self.path)  # another process may have made it before we held the lock
            self._open_for_writing()
        except BaseException:
            self.abandon()
            raise
        self._writable = True

    def _open_for_writing(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        if not self._writable_place():
            raise JournalError(permission_message(self.path, PermissionError(13, "read-only")))
        if self._kind == NEW:
            return  # made on the first write (`_write`): a start that writes nothing leaves the file empty
        try:
            self._db = self._connect(read_only=False)
            self._db.execute("PRAGMA synchronous=FULL")
            if self._kind == LEGACY:
                self._upgrade_v1()
        except sqlite3.Error as exc:
            raise JournalError(_write_error(self.path, exc)) from exc
        self._kind = CURRENT

    def _create(self) -> sqlite3.Connection:
        """A new journal: marked as unox's in its header before anything else, then switched to WAL."""
        db = sqlite3.connect(str(real_path(self.path)), isolation_level=None, check_same_thread=False)
        try:
            with _Transaction(db):  # all or nothing: a crash leaves an empty file (a new journal)
                self._mark_current(db, SCHEMA)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
        except BaseException:
            db.close()
            raise
        return db

    def _upgrade_v1(self) -> None:
        """A v1 journal (no fires, no marks): add them; its newest row may be v1's crash window."""
        assert self._db is not None
        last = self._db.execute("SELECT MAX(seq) FROM requests").fetchone()[0]
        with _Transaction(self._db) as db:
            self._mark_current(db, "CREATE TABLE fires" + V2_ADDITIONS)
            self._put_meta(db, "legacy_tail_seq", last)

    def _mark_current(self, db: sqlite3.Connection, tables: str) -> None:
        """In a transaction: unox's header marks, the `tables` still missing, the version and fire base."""
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        for statement in tables.split(";"):
            if statement.strip():
                db.execute(statement)
        self._put_meta(db, "version", SCHEMA_VERSION)
        self._put_meta(db, "fire_base", random.SystemRandom().randrange(1, 2**30))

    def _write(self) -> sqlite3.Connection:
        self.lock()
        if self._db is None:  # a new journal's first write: its tables first
            try:
                self._db = self._create()
            except sqlite3.Error as exc:
                raise JournalError(_write_error(self.path, exc)) from exc
            self._kind = CURRENT
        return self._db

    def _transaction(self) -> _Transaction:
        return _Transaction(self._write())

    # -- requests ---------------------------------------------------------------------------------

    @_writing
    def append(self, request: dict[str, Any]) -> int:
        """Write one request and commit it; returns its sequence number."""
        cursor = self._write().execute("INSERT INTO requests (request) VALUES (?)", (_dump(request),))
        return int(cursor.lastrowid or 0)

    @_reading
    def raw_rows(self) -> list[tuple[int, str]]:
        """(sequence number, stored text) pairs, oldest first, as the file holds them."""
        db = self._reader()
        if db is None:
            return []
        return [
            (int(seq), text)
            for seq, text in db.execute("SELECT seq, request FROM requests ORDER BY seq")
        ]

    def rows(self) -> list[tuple[int, dict[str, Any]]]:
        """(sequence number, request) pairs, oldest first."""
        return [(seq, json.loads(text)) for seq, text in self.raw_rows()]

    def entries(self) -> list[dict[str, Any]]:
        """Every journalled request, oldest first."""
        return [request for _, request in self.rows()]

    @_reading
    def __len__(self) -> int:
        db = self._reader()
        if db is None:
            return 0
        return int(db.execute("SELECT COUNT(*) FROM requests").fetchone()[0])

    @_reading
    def truncate_last(self) -> dict[str, Any] | None:
        """Drop the newest request (undo); returns it, or None when the journal is empty."""
        db = self._reader()
        if db is None:
            return None
        row = db.execute("SELECT seq, request FROM requests ORDER BY seq DESC LIMIT 1").fetchone()
        if row is None:
            return None
        self.discard(row[0])
        return json.loads(row[1])

    @_writing
    def discard(self, seq: int) -> None:
        """Remove one row (undo of the newest request)."""
        self._write().execute("DELETE FROM requests WHERE seq = ?", (seq,))

    @_writing
    def drop(self, seqs: list[int], reason: str) -> None:
        """Move rows out of the game into the `dropped` table, in one transaction: nothing is deleted."""
        with self._transaction() as db:
            for seq in seqs:
                row = db.execute("SELECT request FROM requests WHERE seq = ?", (seq,)).fetchone()
                if row is None:
                    continue
                db.execute(
                    "INSERT OR REPLACE INTO dropped (seq, request, reason) VALUES (?, ?, ?)",
                    (seq, row[0], reason),
                )
                db.execute("DELETE FROM requests WHERE seq = ?", (seq,))

    @_reading
    def dropped(self) -> list[dict[str, Any]]:
        db = self._reader()
        if db is None or not self._has_table("dropped"):
            return []
        rows = db.execute("SELECT seq, request, reason FROM dropped ORDER BY seq").fetchall()
        return [{"seq": seq, "request": text, "reason": reason} for seq, text, reason in rows]

    # -- fires ------------------------------------------------------------------------------------

    @_writing
    def begin_fire(self, player: str | None, requested: int, request: dict[str, Any] | None = None) -> int:
        """Commit a fire's intent before the motor turns; returns its id (what the firmware is told).

        `request` is what the fire becomes once counted, without `fired` (a draw, an edition's turned card);
        left out, it is `player`'s press. It is kept beside the intent until the fire is resolved, so a
        resumed table settles the fire as the request it was for.
        """
        with self._transaction() as db:
            fire_id = self._next_fire_id(db)
            db.execute(
                "INSERT INTO fires (fire_id, player, requested) VALUES (?, ?, ?)",
                (fire_id, player, requested),
            )
            if request is not None and request != {"cmd": "press", "player": player}:
                self._put_meta(db, _fire_request_key(fire_id), request)
        return fire_id

    @_writing
    def resolve_fire(
        self, fire_id: int, fired: int, fault: str | None, settled_by: str, request: dict[str, Any] | None
    ) -> int | None:
        """The fire's outcome and, when the press counted, its request row: one transaction."""
        with self._transaction() as db:
            seq = None
            if request is not None:
                seq = db.execute("INSERT INTO requests (request) VALUES (?)", (_dump(request),)).lastrowid
            db.execute(
                "UPDATE fires SET fired = ?, fault = ?, seq = ?, settled_by = ? WHERE fire_id = ?",
                (fired, fault, seq, settled_by, fire_id),
            )
            db.execute("DELETE FROM meta WHERE key = ?", (_fire_request_key(fire_id),))
        return seq

    @_writing
    def record_standalone(
        self,
        player: str | None,
        fired: int,
        fault: str | None,
        request: dict[str, Any] | None,
        key: str | None = None,
    ) -> int:
        """A fire the launcher made alone while the host was away, with the press it became (if any).

        `key` is the device's name for it (`boot:number`), kept in the same transaction: the device offers
        the fire again until it hears it was recorded, and `has_standalone(key)` then knows it."""
        with self._transaction() as db:
            fire_id = self._next_fire_id(db)
            if key is not None:
                self._put_meta(db, _standalone_key(key), fire_id)
            seq = None
            if request is not None:
                seq = db.execute("INSERT INTO requests (request) VALUES (?)", (_dump(request),)).lastrowid
            db.execute(
                "INSERT INTO fires (fire_id, player, requested, fired, fault, seq, settled_by) "
                "VALUES (?, ?, ?, ?, ?, ?, 'standalone')",
                (fire_id, player, fired, fired, fault, seq),
            )
        return fire_id

    def has_standalone(self, key: str) -> bool:
        """Whether the standalone fire the device names `key` (`boot:number`) is recorded here."""
        return self.get_meta(_standalone_key(key)) is not None

    def _next_fire_id(self, db: sqlite3.Connection) -> int:
        base = self.get_meta("fire_base")
        last = db.execute("SELECT MAX(fire_id) FROM fires").fetchone()[0]
        fire_id = base if last is None else last + 1
        if not 0 < fire_id < FIRE_ID_LIMIT:
            raise JournalError(
                f"{self.path} has used up its fire ids; start a new table with a new journal file"
            )
        return int(fire_id)

    @_reading
    def fires(self) -> list[dict[str, Any]]:
        """Every fire, oldest first (`fired` is None while unresolved)."""
        db = self._reader()
        if db is None or not self._has_table("fires"):
            return []
        keys = TABLES["fires"]
        cursor = db.execute(f"SELECT {', '.join(keys)} FROM fires ORDER BY fire_id")
        return [dict(zip(keys, row, strict=True)) for row in cursor]

    def beam_rows(self) -> set[int]:
        """The request rows that record a launcher's own count (beam, device memory, standalone)."""
        return {
            fire["seq"]
            for fire in self.fires()
            if fire["seq"] is not None and fire["settled_by"] in ("beam", "device", "standalone")
        }

    def pending_fire(self) -> dict[str, Any] | None:
        """The fire whose intent was written but whose outcome was not: the table stopped in between.

        Its `request` is what it becomes once counted, without `fired` (by default the player's press).
        """
        pending = [fire for fire in self.fires() if fire["fired"] is None]
        if not pending:
            return None
        fire = pending[-1]
        stored = self.get_meta(_fire_request_key(fire["fire_id"]))
        fire["request"] = {"cmd": "press", "player": fire["player"]} if stored is None else stored
        return fire

    @_reading
    def _has_table(self, name: str) -> bool:
        db = self._reader()
        assert db is not None
        row = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
        return row.fetchone() is not None

    # -- settings and meta ------------------------------------------------------------------------

    @_reading
    def get_meta(self, key: str) -> Any:
        """A meta value; a damaged one (not JSON) is a JournalError naming the key."""
        db = self._reader()
        if db is None:
            return None
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return json.loads(row[0])
        except (TypeError, ValueError) as exc:
            raise JournalError(
                f"{self.path} is damaged: its meta value {key!r} is not JSON ({str(exc)[:80]}); unox changed "
                "nothing: restore it from a backup, or start a new table with a new journal file"
            ) from exc

    @_writing
    def set_meta(self, key: str, value: Any) -> None:
        self._put_meta(self._write(), key, value)

    @staticmethod
    def _put_meta(db: sqlite3.Connection, key: str, value: Any) -> None:
        db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, _dump(value)),
        )

    @property
    def settings(self) -> Any:
        """The table's settings as stored (players, scoring, target, ...), or None if never written."""
        return self.get_meta("settings")

    @settings.setter
    def settings(self, value: dict[str, Any]) -> None:
        self.set_meta("settings", value)

    # -- copies and closing -----------------------------------------------------------------------

    @_reading
    def backup(self, destination: Path) -> None:
        """A consistent copy of the whole journal (SQLite's online backup), e.g. before a repair."""
        db = self._reader()
        assert db is not None
        target = sqlite3.connect(str(destination))
        try:
            db.backup(target)
        finally:
            target.close()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()  # before the lock's descriptor: closing that drops SQLite's locks (journal_lock)
            self._db = None
        self._writable = False
        self._lock.release()

    def abandon(self) -> None:
        """Close after a start that failed: a file this journal created is removed again, so the folder is
        as it was (a journal that was there before is kept as it is)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        self._writable = False
        self._lock.release(remove_created=True)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    """`with` block: BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is None:
            self.db.execute("COMMIT")
            return
        try:
            self.db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass  # SQLite rolled back itself (e.g. an I/O error): the error in flight is the one to tell


def _write_error(path: Path, exc: Exception) -> str:
    """SQLite's refusal to write, as the file system problem it is (read-only place, full disk)."""
    text = str(exc)
    if "readonly" in text or "unable to open" in text:
        return permission_message(path, PermissionError(13, "read-only"))
    if "disk is full" in text:
        return permission_message(path, OSError(28, "disk full"))
    if "disk I/O error" in text:  # a write refused (e.g. past the file size limit) or a failing disk
        return (
            f"cannot write the journal {path}: the disk refused the write (disk I/O error: full, over a "
            "file size limit, or failing); free some space, or give a journal path on another disk"
        )
    return f"cannot write the journal {path}: {text}"


def _standalone_key(key: str) -> str:
    return f"standalone:{key}"


def _fire_request_key(fire_id: int) -> str:
    return f"fire_request/{fire_id}"


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=True)
