"""Where `unox play` keeps its tables: one journal per table under the user's state directory.

`unox play` journals by default, so a game is never lost to a closed terminal or a power cut; `--list`
shows the tables kept here and `--continue` without a file picks the newest.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from unox.table.journal import Journal, JournalError
from unox.table.opening import journal_status

SUFFIX = ".db"
STATUS_WORDS = {"running": "in progress", "over": "finished", "new": "not started"}


def tables_dir() -> Path:
    """`$XDG_STATE_HOME/unox/tables`, else `~/.local/state/unox/tables` (the XDG default)."""
    state = os.environ.get("XDG_STATE_HOME") or ""
    base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "unox" / "tables"


def new_table_path(players: tuple[str, ...] | list[str], now: float | None = None) -> Path:
    """A fresh journal file named after the time and the seats: `2026-11-26-0214-Ann-Bob-Cy.db`."""
    stamp = time.strftime("%Y-%m-%d-%H%M", time.localtime(now))
    seats = "-".join(re.sub(r"[^A-Za-z0-9_]+", "_", p) for p in players)[:60]
    folder = tables_dir()
    path = folder / f"{stamp}-{seats}{SUFFIX}"
    number = 2
    while path.exists():
        path = folder / f"{stamp}-{seats}-{number}{SUFFIX}"
        number += 1
    return path


def make_tables_dir() -> Path:
    folder = tables_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JournalError(
            f"cannot make {folder} for the game's journal ({exc.strerror or exc}); give --journal FILE "
            "somewhere writable, or --no-journal"
        ) from exc
    return folder


@dataclass
class SavedTable:
    """One journal in the tables folder, as `--list` shows it."""

    path: Path
    players: str
    changed: float
    status: str  # "running", "over", "new", or why it cannot be read

    def line(self, width: int = 80) -> str:
        """One row within `width` columns; a long file name (kept whole: `--continue FILE` takes it) gets
        the rest on an indented line of its own, the players cut short with … where they would not fit."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.changed))
        shown = STATUS_WORDS.get(self.status, self.status)
        row = f"{self.path.name}  {self.players}  {when}  {shown}"
        if len(row) <= width:
            return row
        room = width - len(f"    {when}  {shown}") - 2
        players = self.players if len(self.players) <= room else self.players[: room - 1] + "…"
        return f"{self.path.name}\n    {players}  {when}  {shown}"


def saved_tables() -> list[SavedTable]:
    """The journals in the tables folder, newest change first."""
    folder = tables_dir()
    if not folder.is_dir():
        return []
    found = []
    for path in folder.glob(f"*{SUFFIX}"):
        found.append(_describe(path))
    return sorted(found, key=lambda saved: saved.changed, reverse=True)


def newest_game() -> tuple[Path | None, list[SavedTable]]:
    """For `--continue` without a file: the newest table whose game has been dealt and is not over (None if
    there is none), and the files skipped because they cannot be read (to be named, not to stop it)."""
    tables = saved_tables()
    unreadable = [saved for saved in tables if saved.status not in STATUS_WORDS]
    going = [saved for saved in tables if saved.status == "running"]
    return (going[0].path if going else None), unreadable


def skipped_line(unreadable: list[SavedTable]) -> str:
    """One line naming the journals `--continue` passed over, and why."""
    return "Skipped (cannot be read): " + "; ".join(
        f"{saved.path.name} ({_why(saved)})" for saved in unreadable
    )


def _why(saved: SavedTable) -> str:
    """The reason alone: the error without the path it starts with or the advice after its semicolon."""
    text = saved.status.removeprefix("cannot be read: ").replace(str(saved.path), "it")
    return text.split("; ")[0][:100]


def no_game_message(unreadable: list[SavedTable]) -> str:
    skipped = f" ({skipped_line(unreadable)})" if unreadable else ""
    return (
        f"no game in progress is kept in {tables_dir()}{skipped}; start one with "
        "`unox play --players Ann,Bob,Cy`, or continue a file with `unox play --continue FILE`"
    )


def _describe(path: Path) -> SavedTable:
    changed = max(p.stat().st_mtime for p in (path, Path(f"{path}-wal")) if p.exists())
    try:
        with Journal(path) as journal:
            players = ",".join((journal.settings or {}).get("players") or []) or "-"
        status = journal_status(path)
    except (JournalError, OSError, ValueError, sqlite3.Error) as exc:
        return SavedTable(path, "?", changed, f"cannot be read: {exc}")
    return SavedTable(path, players, changed, status)
