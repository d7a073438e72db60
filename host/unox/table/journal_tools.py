"""`unox journal check` and `unox journal repair`: look at a journal; set aside the rows that do not replay.

Check only reads (it works beside a running table). Repair takes the journal's lock, copies the whole file
to a backup beside it first, and then moves the bad rows into the journal's `dropped` table: nothing the
user wrote is deleted, and the message says where everything went. A file SQLite cannot read whole (cut
short, a broken page) is left as it is: every row it can still read goes into a new file (`journal_salvage`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from unox.table.journal import Journal, JournalError
from unox.table.journal_lock import JournalDamaged
from unox.table.journal_salvage import Salvage, salvage
from unox.table.replay import BadRow, scan
from unox.table.settings import SettingsError, TableSettings
from unox.words import counted


@dataclass
class Report:
    path: Path
    settings: TableSettings
    replayed: int
    phase: str
    bad: list[BadRow] = field(default_factory=list)
    pending: dict | None = None
    backup: Path | None = None

    def lines(self) -> list[str]:
        players = ",".join(self.settings.players)
        head = (
            f"{self.path}: unox journal of the table {players}; "
            f"{counted(self.replayed, 'request replays', 'requests replay')}, "
            f"phase {self.phase}"
        )
        lines = [head]
        lines += [f"  bad: {row.describe()}" for row in self.bad]
        if self.pending is not None:
            lines.append(
                f"  unfinished fire {self.pending['fire_id']}: "
                f"{counted(self.pending['requested'], 'card')} for {self.pending['player']} "
                f"({_request_name(self.pending)}); resume the table to settle it"
            )
        if not self.bad:
            lines.append("  every row replays")
        return lines


def _request_name(pending: dict) -> str:
    request = pending.get("request")
    return str(request.get("cmd"))[:20] if isinstance(request, dict) else "press"


def _settings(journal: Journal) -> TableSettings:
    data = journal.settings
    if data is None:
        raise JournalError(f"{journal.path} holds no table: there is nothing to check")
    try:
        return TableSettings.from_dict(data)
    except SettingsError as exc:
        raise JournalError(
            f"{journal.path} has unusable table settings ({exc}); repair cannot fix those: restore the file "
            "from a backup"
        ) from exc


def _report(journal: Journal) -> Report:
    settings = _settings(journal)
    game = settings.build_game()
    found = scan(game, journal.raw_rows(), settings.players, journal.beam_rows())
    phase = game.state()["phase"]
    return Report(journal.path, settings, len(found.entries), phase, found.bad, journal.pending_fire())


def _existing(path: Path) -> Path:
    if not path.is_file():
        raise JournalError(f"no journal at {path}; give the file written by --journal")
    return path


def check(path: Path) -> Report:
    """Read the journal and replay it onto a fresh game, listing every row that does not replay."""
    with Journal(_existing(path)) as journal:
        return _report(journal)


def free_backup_path(path: Path) -> Path:
    candidate = path.with_name(path.name + ".bak")
    number = 1
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.{number}.bak")
        number += 1
    return candidate


def repair(path: Path) -> Report | Salvage:
    """Set the rows that do not replay aside (into `dropped`), after a full backup beside the file; a file
    SQLite cannot read whole instead has every row it can still read saved into a new file (`Salvage`)."""
    try:
        return _set_aside(path)
    except JournalDamaged:
        return salvage(path)


def _set_aside(path: Path) -> Report:
    with Journal(_existing(path)) as journal:
        journal.lock()  # no table may write while rows are set aside
        report = _report(journal)
        if not report.bad:
            return report
        backup = free_backup_path(path)
        journal.backup(backup)
        journal.drop([row.seq for row in report.bad], "set aside by unox journal repair")
        repaired = _report(journal)
    repaired.bad, repaired.backup = report.bad, backup
    return repaired
