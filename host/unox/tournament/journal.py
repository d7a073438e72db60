"""The results of a tournament's hands, in one SQLite file: the coordinator's journal and each table's outbox.

The coordinator writes a result here (committed) before it acknowledges it, and counts each hand id once
however often it arrives; a table writes each hand's result here before it sends it, and marks it sent when
the coordinator's acknowledgement comes back, so a crash or a broker that is away loses nothing. The file is
marked as ours (`application_id` "UNXT") and another program's SQLite file is refused before anything is
written to it. One process holds it at a time (the table journal's lock).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from functools import wraps
from pathlib import Path
from typing import Any
from urllib.parse import quote

from unox.table.journal_lock import JournalError, JournalLock

APPLICATION_ID = 0x554E5854  # "UNXT"
VERSION = 1
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE results (
    hand_id TEXT PRIMARY KEY, round INTEGER NOT NULL, table_no INTEGER NOT NULL, hand INTEGER NOT NULL,
    result TEXT NOT NULL, acked INTEGER NOT NULL DEFAULT 0, copies INTEGER NOT NULL DEFAULT 1
);
"""

__all__ = ["JournalError", "ResultsJournal"]


def _serial(method: Any) -> Any:
    """One call at a time: the table's loop and the broker's thread share the connection."""

    @wraps(method)
    def wrapper(self: ResultsJournal, *args: Any, **kwargs: Any) -> Any:
        with self._mutex:
            return method(self, *args, **kwargs)

    return wrapper


# How far a commit is durable. "power": every commit waits for its disk flush (synchronous=FULL), so it
# outlives a power cut; a table's outbox, whose flush overlaps the result's round trip. "process": a commit is
# in the operating system's cache when it returns (WAL with synchronous=NORMAL: no flush, the WAL is synced at
# checkpoints, Linux writes its cache out within ~30 s), so it outlives a kill -9 of the process but the last
# commits may be lost with the power; the
# coordinator's journal, whose commit every receipt waits for, and whose results the tables send again to a
# coordinator that starts (docs/tournament.md, "What durable means").
SYNCHRONOUS = {"power": "FULL", "process": "NORMAL"}


class ResultsJournal:
    """Hand results keyed by hand id, plus settings (`meta`), committed on every write."""

    def __init__(self, path: str | Path, *, durable: str = "power"):
        if durable not in SYNCHRONOUS:
            raise ValueError(f"durable is one of {', '.join(SYNCHRONOUS)}, not {durable!r}")
        self.durable = durable
        self._mutex = threading.RLock()
        self.path = Path(path)
        if self.path.is_dir():
            raise JournalError(f"{self.path} is a folder; give a file name, e.g. {self.path / 'club.db'}")
        self._check_ours()
        self._lock = JournalLock(self.path, held_as=f"the tournament journal {self.path}")
        self._lock.acquire(create=True)
        self._db: sqlite3.Connection | None = None
        try:
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            if self._db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                self._db.execute("BEGIN IMMEDIATE")  # all or nothing: a crash leaves an empty file
                self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self._db.execute(f"PRAGMA user_version={VERSION}")
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute("COMMIT")
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={SYNCHRONOUS[durable]}")
        except (sqlite3.Error, OSError) as exc:
            if self._db is not None:
                self._db.close()  # before the lock: closing the lock's descriptor drops SQLite's own locks
            self._lock.release(remove_created=True)
            raise JournalError(f"cannot open the tournament journal {self.path}: {exc}") from exc

    def _check_ours(self) -> None:
        """A file that exists must be an empty one or ours: nothing else is touched."""
        try:
            head = self.path.read_bytes()[:16] if self.path.exists() else b""
        except OSError as exc:
            raise JournalError(f"cannot read {self.path}: {exc.strerror or exc}") from exc
        if not head:
            return
        why = "not an SQLite file"
        if head == b"SQLite format 3\x00":
            db = sqlite3.connect(f"file:{quote(str(self.path))}?mode=ro", uri=True)
            try:
                if db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
                    return
                why = "another program's SQLite file"
            except sqlite3.DatabaseError as exc:
                why = f"SQLite cannot read it: {exc}"
            finally:
                db.close()
        raise JournalError(f"{self.path} is not a unox tournament journal ({why}); unox changed nothing "
                           "in it: give a new file name")

    # -- results ----------------------------------------------------------------------------------

    @_serial
    def record(self, hand_id: str, round_no: int, table: int, hand: int, result: dict[str, Any], *,
               acked: bool = False) -> bool:
        """Write a result once: True when it is new, False when that hand id was already here."""
        return self.record_many([(hand_id, round_no, table, hand, result)], acked=acked)[0]

    @_serial
    def record_many(self, rows: list[tuple[str, int, int, int, dict[str, Any]]], *,
                    acked: bool = False) -> list[bool]:
        """Several results in one transaction (one disk flush for a burst); for each, whether it was new."""
        news = []
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for hand_id, round_no, table, hand, result in rows:
                cursor = self._db.execute(
                    "INSERT OR IGNORE INTO results (hand_id, round, table_no, hand, result, acked) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (hand_id, round_no, table, hand, _dump(result), int(acked)),
                )
                news.append(cursor.rowcount == 1)
                if not news[-1]:
                    self._db.execute("UPDATE results SET copies = copies + 1 WHERE hand_id = ?", (hand_id,))
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        return news

    @_serial
    def acknowledge(self, hand_id: str) -> None:
        self._db.execute("UPDATE results SET acked = 1 WHERE hand_id = ? AND acked = 0", (hand_id,))

    @_serial
    def refuse(self, hand_id: str) -> bool:
        """The coordinator refused it: never sent again, never counted as sent (acked -1). True if it was
        waiting."""
        cursor = self._db.execute("UPDATE results SET acked = -1 WHERE hand_id = ? AND acked = 0", (hand_id,))
        return cursor.rowcount == 1

    @_serial
    def refused(self) -> list[str]:
        rows = self._db.execute("SELECT hand_id FROM results WHERE acked = -1 ORDER BY round, table_no, hand")
        return [hand_id for (hand_id,) in rows]

    @_serial
    def delivered(self) -> list[dict[str, Any]]:
        """The results the coordinator acknowledged (sent again to a coordinator that starts)."""
        rows = self._db.execute("SELECT result FROM results WHERE acked = 1 ORDER BY round, table_no, hand")
        return [json.loads(text) for (text,) in rows]

    @_serial
    def acknowledge_all(self) -> None:
        self._db.execute("UPDATE results SET acked = 1 WHERE acked = 0")

    @_serial
    def has(self, hand_id: str) -> bool:
        return self._db.execute("SELECT 1 FROM results WHERE hand_id = ?", (hand_id,)).fetchone() is not None

    @_serial
    def results(self) -> list[dict[str, Any]]:
        """Every result, in the order the schedule plays them (round, table, hand)."""
        rows = self._db.execute("SELECT result FROM results ORDER BY round, table_no, hand")
        return [json.loads(text) for (text,) in rows]

    @_serial
    def unacked(self) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT result FROM results WHERE acked = 0 ORDER BY round, table_no, hand")
        return [json.loads(text) for (text,) in rows]

    @_serial
    def copies(self) -> dict[str, int]:
        """How often each hand id arrived (the coordinator's record of duplicates it ignored)."""
        return dict(self._db.execute("SELECT hand_id, copies FROM results"))

    # -- meta -------------------------------------------------------------------------------------

    @_serial
    def get(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    @_serial
    def set(self, key: str, value: Any) -> None:
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, _dump(value)),
        )

    @_serial
    def close(self) -> None:
        self._db.close()
        self._lock.release()

    def __enter__(self) -> ResultsJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=True)


def read_only(path: Path) -> tuple[Any, list[dict[str, Any]]]:
    """(the stored plan, the results) of a journal, read without its lock: a running coordinator keeps it."""
    if not path.is_file():
        raise JournalError(f"no tournament journal at {path}; give the file written by unox tournament start")
    try:
        db = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
        try:
            if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                raise JournalError(f"{path} is not a unox tournament journal; give the file written by "
                                   "unox tournament start")
            plan = db.execute("SELECT value FROM meta WHERE key = 'plan'").fetchone()
            rows = db.execute("SELECT result FROM results ORDER BY round, table_no, hand").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"{path} is not a unox tournament journal ({exc})") from exc
    return (None if plan is None else json.loads(plan[0])), [json.loads(text) for (text,) in rows]
