"""What a file given as a journal is, found out by reading only: a unox journal, an old (v1) one, or not ours.

Nothing is written before this says the file is ours: another program's SQLite file must come out of
`--journal` or `--resume` exactly as it went in. unox journals carry SQLite's `application_id` (the bytes
"UNOX") and `user_version` (the schema version) in the file header.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from urllib.parse import quote

from unox.table.journal_lock import JournalDamaged, JournalError

APPLICATION_ID = 0x554E4F58  # "UNOX"
SCHEMA_VERSION = 2
SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_BYTES = 100  # SQLite's file header

# table -> its columns, in order: anything else in the file is not ours.
TABLES: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "requests": ("seq", "request"),
    "fires": ("fire_id", "player", "requested", "fired", "fault", "seq", "settled_by"),
    "dropped": ("seq", "request", "reason"),
}
V1_TABLES = {name: TABLES[name] for name in ("meta", "requests")}

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE requests (seq INTEGER PRIMARY KEY AUTOINCREMENT, request TEXT NOT NULL);
CREATE TABLE fires (
    fire_id INTEGER PRIMARY KEY, player TEXT, requested INTEGER NOT NULL, fired INTEGER, fault TEXT,
    seq INTEGER, settled_by TEXT
);
CREATE TABLE dropped (seq INTEGER PRIMARY KEY, request TEXT NOT NULL, reason TEXT NOT NULL);
"""
V2_ADDITIONS = SCHEMA.split("CREATE TABLE fires", 1)[1]

NEW, CURRENT, LEGACY = "new", "current", "legacy"


def _not_ours(path: Path, why: str) -> JournalError:
    return JournalError(
        f"{path} is not a unox journal ({why}); unox changed nothing in it: give a new file name for the "
        "journal, or the file written by `unox table --journal`"
    )


def classify(path: Path) -> str:
    """NEW (no file, or an empty one), CURRENT or LEGACY (a v1 journal); otherwise a JournalError."""
    if path.is_dir():
        raise JournalError(f"{path} is a folder; give a file name for the journal, e.g. {path / 'table.db'}")
    try:
        with open(path, "rb") as file:
            head = file.read(HEADER_BYTES)
    except FileNotFoundError:
        return NEW
    except OSError as exc:
        raise JournalError(f"cannot read the journal {path}: {exc.strerror or exc}") from exc
    if not head:
        return NEW
    if not head.startswith(SQLITE_MAGIC):
        raise _not_ours(path, "not an SQLite file")
    try:
        return _classify_sqlite(path)
    except sqlite3.DatabaseError as exc:
        if marked_ours(head):  # unox's marks in the header, but SQLite cannot read the rest: cut short
            raise damaged(path, exc) from exc
        raise _not_ours(path, f"SQLite cannot read it: {exc}") from exc


def marked_ours(head: bytes) -> bool:
    """The file header (its first 100 bytes) carries unox's application_id (big-endian at offset 68)."""
    return len(head) >= HEADER_BYTES and int.from_bytes(head[68:72], "big") == APPLICATION_ID


def is_damage(exc: sqlite3.Error) -> bool:
    """SQLite found the file corrupt or cut short (not busy, not refused by the file system)."""
    name = getattr(exc, "sqlite_errorname", "")
    return name.startswith("SQLITE_CORRUPT") or name == "SQLITE_NOTADB" or "malformed" in str(exc)


def damaged(path: Path, exc: object) -> JournalDamaged:
    return JournalDamaged(
        f"{path} is a damaged unox journal (SQLite: {str(exc)[:80]}); unox changed nothing: "
        f"`unox journal repair {path}` saves every row SQLite can still read into a new file"
    )


def _classify_sqlite(path: Path) -> str:
    # No write-ahead log beside it: the file alone is the whole database, read it as it lies (`immutable`
    # creates no -wal/-shm files). With a log (a table running, or one that died), read it through SQLite.
    quiet = "&immutable=1" if not Path(f"{path}-wal").exists() else ""
    db = sqlite3.connect(f"file:{quote(str(path))}?mode=ro{quiet}", uri=True)
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        columns = table_columns(db)
        if app_id == APPLICATION_ID:
            _check_current(path, version, columns)
            _check_integrity(path, db)
            return CURRENT
        if app_id == 0 and version == 0 and columns == V1_TABLES and _meta_version(db) == 1:
            return LEGACY
    finally:
        db.close()
    if app_id:
        raise _not_ours(path, f"its SQLite application_id is {app_id:#x}, another program's")
    names = ", ".join(sorted(columns)) or "none"
    raise _not_ours(path, f"an SQLite database of another program; its tables: {names}")


def _check_current(path: Path, version: int, columns: dict[str, tuple[str, ...]]) -> None:
    if version != SCHEMA_VERSION:
        raise JournalError(
            f"{path} is a version {version} unox journal; this unox reads version {SCHEMA_VERSION}: "
            "resume it with the unox that wrote it"
        )
    if columns != TABLES:
        missing = sorted(set(TABLES) - set(columns))
        wrong = sorted(name for name in set(TABLES) & set(columns) if columns[name] != TABLES[name])
        extra = sorted(set(columns) - set(TABLES))
        what = "; ".join(
            part
            for part in (
                f"no table {', '.join(missing)}" if missing else "",
                f"foreign columns in {', '.join(wrong)}" if wrong else "",
                f"foreign tables {', '.join(extra)}" if extra else "",
            )
            if part
        )
        raise JournalError(
            f"{path} is a damaged unox journal ({what}); unox changed nothing: restore it from a backup, "
            "or start a new table with a new journal file"
        )


def _check_integrity(path: Path, db: sqlite3.Connection) -> None:
    """SQLite's own check of every page, row and index: a broken index reads as an empty table (the
    settings not found, "no table"), though every row is still there for `journal repair` to save."""
    problem = db.execute("PRAGMA integrity_check(1)").fetchone()[0]
    if problem != "ok":
        lines = [line.strip() for line in str(problem).splitlines() if not line.startswith("*** in database")]
        raise damaged(path, f"integrity_check: {'; '.join(line for line in lines if line)}")


def table_columns(db: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    """Every user table (indexes, views and triggers count as tables here: none belong in a journal)."""
    names = db.execute(
        "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
    ).fetchall()
    out: dict[str, tuple[str, ...]] = {}
    for (name,) in names:
        info = db.execute("SELECT name FROM pragma_table_info(?)", (name,)).fetchall()
        out[name] = tuple(row[0] for row in info)
    return out


def _meta_version(db: sqlite3.Connection) -> object:
    row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    try:
        return json.loads(row[0]) if row is not None else None
    except (TypeError, ValueError):
        return None
