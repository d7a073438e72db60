"""`unox journal repair` on a journal SQLite cannot open (cut short by a full disk, a copy that stopped, a
bad sector): every row SQLite can still read goes into a new journal file beside it; the old file is kept.

SQLite refuses a file shorter than its header says, unless `writable_schema` is on (then it reads the pages
that are there); the file is opened read-only and `immutable`, so nothing is written to it. A table is read
in rowid order; where a page is missing or broken the read fails, and the next readable rowid is found by
probing ever further ahead (then bisecting back), so the rows after a hole are saved too.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from unox.table.journal_file import APPLICATION_ID, SCHEMA, SCHEMA_VERSION, TABLES, is_damage
from unox.table.journal_lock import JournalError, JournalLock

ROWID_MIN, ROWID_MAX = -(2**63), 2**63 - 1
SALVAGE_ORDER = ("meta", "requests", "fires", "dropped")
# The columns of each table that may not be NULL (see SCHEMA): a row read from a page cut off half way can
# come back with them empty, or its text padded with NUL bytes (unox writes JSON, where a NUL is always
# escaped); neither is a row the journal held, so both count as unreadable.
NOT_NULL: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "requests": ("request",),
    "fires": ("requested",),
    "dropped": ("request", "reason"),
}


@dataclass
class Salvage:
    """What was saved from a damaged journal, table by table."""

    source: Path
    target: Path
    saved: dict[str, int] = field(default_factory=dict)
    holes: dict[str, int] = field(default_factory=dict)  # unreadable stretches met, per table

    @property
    def rows(self) -> int:
        return sum(self.saved.values())


def repaired_path(path: Path) -> Path:
    """`j.db` -> `j.repaired.db` (then `j.repaired-2.db`, ...): a name that is free."""
    candidate = path.with_name(f"{path.stem}.repaired{path.suffix}")
    number = 2
    while candidate.exists() or Path(f"{candidate}-wal").exists():
        candidate = path.with_name(f"{path.stem}.repaired-{number}{path.suffix}")
        number += 1
    return candidate


def salvage(path: Path) -> Salvage:
    """Copies every readable row of the damaged journal `path` into a new journal; `path` is not written."""
    lock = JournalLock(path)
    lock.acquire(create=False)  # no table may be running on it (it could be writing the missing part)
    try:
        source = _open_damaged(path)
        try:
            found = {name: _readable_rows(source, name, TABLES[name]) for name in SALVAGE_ORDER}
        finally:
            source.close()
    finally:
        lock.release()
    result = Salvage(path, repaired_path(path))
    for name, (rows, holes) in found.items():
        result.saved[name], result.holes[name] = len(rows), holes
    if not result.rows:
        raise JournalError(
            f"{path} is damaged beyond reading: SQLite can read none of its rows; restore it from a backup"
        )
    try:
        _write(result.target, {name: rows for name, (rows, _) in found.items()})
    except sqlite3.Error as exc:
        raise JournalError(
            f"cannot write the repaired journal {result.target} ({str(exc)[:80]}); {path} is kept as it was: "
            "free some space beside it, or copy it to another disk and repair the copy"
        ) from exc
    return result


def _open_damaged(path: Path) -> sqlite3.Connection:
    wal = Path(f"{path}-wal").exists()  # a log left by a table that died: read through it, still read-only
    uri = f"file:{quote(str(path))}?mode=ro" + ("" if wal else "&immutable=1")
    db = sqlite3.connect(uri, uri=True)
    db.execute("PRAGMA writable_schema=ON")  # read the pages that are there (query_only keeps it read-only)
    db.execute("PRAGMA query_only=ON")
    return db


def _readable_rows(db: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> tuple[list[tuple], int]:
    """The rows of `table` SQLite can read, in rowid order, and how many unreadable stretches it met."""
    select = f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid > ? ORDER BY rowid"
    required = [columns.index(name) for name in NOT_NULL[table]]
    rows: list[tuple] = []
    after, holes, blank = ROWID_MIN, 0, False
    while True:
        try:
            for row in db.execute(select, (after,)):
                after = row[0]
                if any(row[1 + index] is None for index in required) or any(
                    isinstance(value, str) and "\x00" in value for value in row[1:]
                ):
                    holes += 0 if blank else 1  # a stretch of blank rows is one hole
                    blank = True
                    continue
                blank = False
                rows.append(row[1:])
            return rows, holes
        except sqlite3.DatabaseError as exc:
            if not is_damage(exc) and not rows and after == ROWID_MIN:
                return rows, holes  # no such table or columns in this file: nothing of it to save
            holes += 1
            following = _next_readable(db, table, after)
            if following is None:
                return rows, holes
            after = following - 1 if following - 1 > after else following  # that row itself is unreadable


def _next_readable(db: sqlite3.Connection, table: str, after: int) -> int | None:
    """The smallest rowid above `after` that a seek can reach, skipping the broken stretch; None if none."""

    def probe(start: int) -> tuple[bool, int | None]:
        try:
            row = db.execute(f"SELECT rowid FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT 1",
                             (start,)).fetchone()
        except sqlite3.DatabaseError:
            return False, None
        return True, None if row is None else int(row[0])

    failing, step = after, 1
    base = after if after > ROWID_MIN else -1  # nothing read yet: rowids of a journal start above 0
    while True:  # ever further ahead until a seek succeeds
        start = min(base + step, ROWID_MAX)
        ok, found = probe(start)
        if ok:
            break
        if start >= ROWID_MAX:
            return None
        failing, step = start, step * 2
    reached = found
    while start - failing > 1:  # bisect back: the lowest start that still reads
        middle = failing + (start - failing) // 2
        ok, found = probe(middle)
        if ok:
            start, reached = middle, found
        else:
            failing = middle
    return reached


def _write(target: Path, tables: dict[str, list[tuple]]) -> None:
    """A new journal holding the saved rows as they were (same keys, same sequence numbers)."""
    db = sqlite3.connect(str(target), isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        for name, rows in tables.items():
            columns = TABLES[name]
            marks = ", ".join("?" for _ in columns)
            db.executemany(f"INSERT OR REPLACE INTO {name} ({', '.join(columns)}) VALUES ({marks})", rows)
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode=WAL")
    except BaseException:
        db.close()
        target.unlink(missing_ok=True)
        raise
    db.close()
