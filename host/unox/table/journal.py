"""The table's write-ahead journal: every accepted request, in SQLite, committed before it is applied.

A crash or a power cut then loses nothing that a player saw accepted: replaying the rows rebuilds the game.
Rows hold *resolved* requests (a launcher press carries the count the beam really counted), so a replay
never fires the launcher again. The table's settings live in the same file, so one path resumes a table.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS requests (seq INTEGER PRIMARY KEY AUTOINCREMENT, request TEXT NOT NULL);
"""


class JournalError(Exception):
    """The journal file cannot be used; the message says what to do instead."""


class Journal:
    """An append-only list of requests in one SQLite file (WAL mode, every write its own commit)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            # Autocommit: each statement is its own transaction, durable once execute() returns.
            # Any thread may use it: the table's one lock serialises them (a UI, the button loop, the web).
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            self._check_version()
        except sqlite3.DatabaseError as exc:
            raise JournalError(
                f"{self.path} is not a unox journal ({exc}); give a new file name, or the journal "
                "file written by `unox table --journal`"
            ) from exc

    def _check_version(self) -> None:
        version = self.get_meta("version")
        if version is None:
            self.set_meta("version", SCHEMA_VERSION)
        elif version != SCHEMA_VERSION:
            raise JournalError(
                f"{self.path} is a version {version} journal; this unox reads version {SCHEMA_VERSION}: "
                "resume it with the unox that wrote it"
            )

    def append(self, request: dict[str, Any]) -> int:
        """Write one request and commit it; returns its sequence number (for `discard`)."""
        cursor = self._db.execute(
            "INSERT INTO requests (request) VALUES (?)", (json.dumps(request, sort_keys=True),)
        )
        return int(cursor.lastrowid or 0)

    def entries(self) -> list[dict[str, Any]]:
        """Every journalled request, oldest first."""
        return [request for _, request in self.rows()]

    def rows(self) -> list[tuple[int, dict[str, Any]]]:
        """(sequence number, request) pairs, oldest first; the number is what `discard` takes."""
        rows = self._db.execute("SELECT seq, request FROM requests ORDER BY seq").fetchall()
        return [(row[0], json.loads(row[1])) for row in rows]

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM requests").fetchone()[0])

    def truncate_last(self) -> dict[str, Any] | None:
        """Drop the newest request (undo); returns it, or None when the journal is empty."""
        row = self._db.execute("SELECT seq, request FROM requests ORDER BY seq DESC LIMIT 1").fetchone()
        if row is None:
            return None
        self.discard(row[0])
        return json.loads(row[1])

    def discard(self, seq: int) -> None:
        """Remove one row: a request that was journalled but then refused was never accepted."""
        self._db.execute("DELETE FROM requests WHERE seq = ?", (seq,))

    def get_meta(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def set_meta(self, key: str, value: Any) -> None:
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value, sort_keys=True)),
        )

    @property
    def settings(self) -> dict[str, Any] | None:
        """The table's settings (players, scoring, target, profile, seed, ...), or None if never written."""
        return self.get_meta("settings")

    @settings.setter
    def settings(self, value: dict[str, Any]) -> None:
        self.set_meta("settings", value)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
