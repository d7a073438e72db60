"""The tournament tables kept on this machine, and the one command that picks each up.

A tournament table's journals live under `tournaments/` (`unox.tournament.join.default_journal`), not in the
tables folder of `unox play`: a round is played only inside its tournament (its seats, its results sent to
the coordinator), so `unox play --continue` must not take it. `unox play --list` shows them here, marked as
a tournament's, with the command that rejoins: it is stored in the table's results journal when it joins.
"""

from __future__ import annotations

import os
import re
import shlex
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from unox.tournament.join import default_journal
from unox.tournament.journal import APPLICATION_ID
from unox.tournament.schedule import Plan, ScheduleError
from unox.tournament.seat import PICK_UP_KEY, ROUND_KEY, SCHEDULE_KEY, SEAT_KEY
from unox.words import counted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from unox.tournament.address import BrokerAddress

ROUND = re.compile(r"^(?P<results>.+)\.round(?P<round>\d+)$")  # unox.tournament.join.round_journal's stem


def pick_up(front: str, address: BrokerAddress, number: int, journal: Path | None,
            more: tuple[str, ...] = ()) -> dict:
    """The command that rejoins this table (`unox FRONT --tournament URL --table N [--journal FILE]`, then
    `more`: a bot table's `--bots NAME --seed N`), with no password in it: a URL that had one says so, and
    the password goes in UNOX_MQTT_PASSWORD."""
    user = f"{quote(address.username, safe='')}@" if address.username else ""
    words = ["unox", front, "--tournament", f"mqtt://{user}{address.host}:{address.port}/{address.name}",
             "--table", str(number)]
    if journal is not None:  # absolute: the command works from any folder
        words += ["--journal", os.path.abspath(journal)]
    words += more
    return {"command": shlex.join(words), "password": bool(address.password)}


def told(stored: dict | None) -> str | None:
    """`CMD` picks it up, in words (None when the journal never stored its command)."""
    if not isinstance(stored, dict) or not isinstance(stored.get("command"), str):
        return None
    needs = " (with the table's password in UNOX_MQTT_PASSWORD)" if stored.get("password") else ""
    return f"`{stored['command']}`{needs} picks it up"


@dataclass
class KeptTournamentTable:
    """One tournament table's results journal, as `unox play --list` shows it."""

    path: Path
    name: str
    tournament: str
    table: int
    rounds: int  # the highest round whose table journal is beside it (0: none opened yet)
    hands: int  # hands scored and journalled
    over: bool  # the coordinator said so
    changed: float
    pick_up: dict | None
    done: bool = False  # every hand of this table is scored and acknowledged (`over` may not have reached it)

    def status(self) -> str:
        scored = f"{counted(self.hands, 'hand')} scored"
        if self.over:
            return f"tournament over, {scored}"
        if self.done:
            return f"all its hands sent, {scored}"
        return f"round {self.rounds}, {scored}" if self.rounds else f"no round opened yet, {scored}"

    def lines(self, width: int = 80) -> list[str]:
        """The file, then what it is and the command that picks it up, each within `width` where it can be."""
        import time

        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.changed))
        head = f"{self.path.name}  {when}"
        about = f"    tournament {self.name} (id {self.tournament}), table {self.table}: {self.status()}"
        lines = [head if len(head) <= width else self.path.name, about]
        if self.over or self.done:
            return [*lines, "    nothing left to play"]
        command = (self.pick_up or {}).get("command")
        if not isinstance(command, str):
            return [*lines, f"    {self.rejoin()}"]
        lines.append(f"    rejoin: {command}")  # whole, however long: it is to be copied
        if self.pick_up.get("password"):
            lines.append("    (with the table's password in UNOX_MQTT_PASSWORD)")
        return lines

    def rejoin(self) -> str:
        """The command that picks this table up, in words: the stored one, else its form."""
        said = told(self.pick_up)
        if said is not None:
            return said
        return f"`unox play --tournament mqtt://USER@HOST/{self.name} --table {self.table}` picks it up"


def folder() -> Path:
    """Where a tournament table's journals go without --journal (`unox.tournament.join.default_journal`)."""
    return default_journal("n", 1, "i").parent


def kept_tables() -> list[KeptTournamentTable]:
    """The tournament tables kept in the default folder, newest change first; files that are not a table's
    results journal (a round's own journal, another program's file) are left out."""
    where = folder()
    if not where.is_dir():
        return []
    found = [kept for path in where.glob("*.db") if (kept := read(path)) is not None]
    return sorted(found, key=lambda kept: kept.changed, reverse=True)


def tournament_table(path: Path) -> KeptTournamentTable | None:
    """The tournament table `path` belongs to: itself (its results journal) or a round's journal beside one;
    None for anything else."""
    found = ROUND.match(path.stem)
    if found is not None:
        return read(path.with_name(found["results"] + path.suffix))
    return read(path)


def read(path: Path) -> KeptTournamentTable | None:
    """A table's results journal, read without its lock (its table may be running); None if not one."""
    import json

    if not path.is_file() or ROUND.match(path.stem) or not _ours(path):
        return None
    try:
        db = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
        try:
            if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                return None
            meta = {key: json.loads(value) for key, value in db.execute("SELECT key, value FROM meta")}
            hands = db.execute("SELECT count(*) FROM results").fetchone()[0]
            sent = {hand_id for (hand_id,) in db.execute("SELECT hand_id FROM results WHERE acked = 1")}
        finally:
            db.close()
    except (sqlite3.Error, ValueError):
        return None
    seat = meta.get(SEAT_KEY)
    if not isinstance(seat, dict) or "table" not in seat:
        return None  # a coordinator's journal, or a table that never joined
    rounds = [int(m["round"]) for p in path.parent.glob(f"{glob_escape(path.stem)}.round*{path.suffix}")
              if (m := ROUND.match(p.stem)) and m["results"] == path.stem]
    changed = max(p.stat().st_mtime for p in (path, Path(f"{path}-wal")) if p.exists())
    return KeptTournamentTable(path, str(seat.get("tournament")), str(seat.get("id")), int(seat["table"]),
                               max(rounds, default=0), hands, bool((meta.get(ROUND_KEY) or {}).get("over")),
                               changed, meta.get(PICK_UP_KEY), _all_sent(meta.get(SCHEDULE_KEY), seat, sent))


def _all_sent(schedule: object, seat: dict, sent: set[str]) -> bool:
    """Every hand the schedule gives this table is scored and acknowledged: the table has nothing left to
    play, even if it stopped before the coordinator's `over` reached it."""
    try:
        plan = Plan.from_json(schedule)
    except (ScheduleError, TypeError, ValueError, AttributeError, KeyError):
        return False
    own = {hand_id for hand_id, _round, table, *_ in plan.hands() if table == seat.get("table")}
    return bool(own) and own <= sent


def _ours(path: Path) -> bool:
    """The file's header says it is a tournament journal (SQLite, application_id at offset 68): read with
    plain file I/O, so any other file (a table's journal, maybe running) is never opened by SQLite here,
    which would leave `-shm`/`-wal` files beside it."""
    try:
        with path.open("rb") as file:
            head = file.read(72)
    except OSError:
        return False
    return head[:16] == b"SQLite format 3\x00" and int.from_bytes(head[68:72], "big") == APPLICATION_ID


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)
