"""Opening a table night: new, resumed from its journal, or continued (the game goes on, else a new one).

The CLI and the tests both start tables through here, so a test runs exactly what a person runs. Each
function builds the night with `night=` (a `Night`, or a front end's subclass such as the TUI's `Session`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from unox.launcher.options import open_checked
from unox.table.journal import Journal, JournalError
from unox.table.night import Night
from unox.table.replay import scan
from unox.table.runtime import Table
from unox.table.settings import SettingsError, TableSettings
from unox.words import counted


def sim_spec(spec: str, *, seed: int | None, cards: int | None) -> str:
    """A `sim` spec with the table's seed and the cards the launcher starts with, unless already given."""
    if spec.partition(":")[0] != "sim":
        return spec
    query = dict(parse_qsl(spec.partition("?")[2]))
    if seed is not None:
        query.setdefault("seed", str(seed))
    if cards is not None:
        query.setdefault("cards", str(cards))
    return "sim:?" + urlencode(query) if query else "sim"


def open_play_session(
    settings: TableSettings, *, journal: Path | None = None, config: dict | None = None, night: Any = Night
) -> Night:
    """A new physical table on the settings' launcher, calibrated by `config`, journalled to `journal`."""
    spec = sim_spec(settings.launcher, seed=settings.seed, cards=0)  # the dealer loads it at the deal
    given = "cards" in dict(parse_qsl(settings.launcher.partition("?")[2]))  # sim:?cards=N: N, not the deal
    launcher = open_checked(spec, config=config)
    book = Journal(journal) if journal is not None else None
    table = Table.create(settings, launcher=launcher, journal=book)
    sim = hasattr(launcher, "press_button")
    return night(table, launcher=launcher, sim=sim, hopper_given=sim and given)


def resume_play_session(
    path: Path, *, launcher: str | None = None, config: dict | None = None, night: Any = Night,
    accept: bool | None = None,
) -> Night:
    """The table a journal holds, on the launcher it used (or `launcher`, e.g. a new serial port).

    The launcher must be the board the journal is bound to, unless the user chose it: `accept`, by default
    whether `launcher` was named (a tournament seat names it every time, so it says `accept` apart)."""
    said = "--launcher named it" if accept is None else "--accept-launcher said"
    if accept is None:
        accept = launcher is not None
    journal = Journal(path)
    try:
        journal.hold()  # a table running on it is refused first; nothing is written yet
        if journal.settings is None:  # an empty file: refused as it is, nothing written to it
            raise JournalError(
                f"{path} holds no table; start one with `unox play --players Ann,Bob,Cy --journal {path}`"
            )
        settings = TableSettings.from_dict(journal.settings)
        spec = launcher or settings.launcher
        if spec.partition(":")[0] == "sim":  # the simulated launcher holds what the table says it holds
            cards = Table.resume(journal).state()["launcher"]["cards"]
            spec = sim_spec(spec, seed=settings.seed, cards=cards)
        device = open_checked(spec, config=config)
    except BaseException:
        journal.close()
        raise
    told: list[str] = []
    try:
        table = Table.resume(journal, launcher=device, listeners=[told.append], accept_launcher=accept,
                             launcher_spec=launcher)
    except BaseException:
        device.close()  # a refused launcher (another board) is let go, as the journal is
        journal.close()
        raise
    table.listeners.remove(told.append)
    session = night(table, launcher=device, sim=hasattr(device, "press_button"))
    replayed = counted(len(table.entries), "accepted event")
    session.emit(f"Resumed from {path}: {replayed} replayed, nothing fired again.")
    if table.rebound is not None:
        session.emit(f"This table now fires launcher board {table.rebound[1]} (it was bound to board "
                     f"{table.rebound[0]}), as {said}.")
    if "unsettled" not in session.state:  # else the prompt asks for the count in the play screen's words
        session.emit(*told)  # the fire the table stopped in, as the launcher settled it: who got the cards
    return session


def continue_play_session(
    path: Path, settings: TableSettings | None, *, launcher: str | None = None, config: dict | None = None,
    night: Any = Night, accept: bool = False,
) -> Night:
    """The table `path` holds if its game goes on, else a new one on `settings` journalled to `path`.

    One command line then serves every start of a boot service: a finished game is kept as
    `path.<N>.done` (nothing is deleted) and a new table begins in its place. That line names its
    `launcher` every time, so a game going on takes another board only when `accept` says so.
    """
    status = journal_status(path)
    if status == "running" or (status == "new" and settings is None and _holds_table(path)):
        # a game going on, or seats taken and not dealt yet
        return resume_play_session(path, launcher=launcher, config=config, night=night, accept=accept)
    if settings is None:
        raise JournalError(
            f"{path} holds no game in progress; give the seats with --players Ann,Bob,Cy to start a new table"
        )
    kept = move_aside(path) if status == "over" else None
    try:
        session = open_play_session(settings, journal=path, config=config, night=night)
    except BaseException:
        if kept is not None:
            put_back(kept, path)  # a refused start leaves the folder as it was
        raise
    if kept is not None:
        session.kept_aside = (kept, path)  # a start refused after opening (`put_back`) restores it too
        session.emit(f"The finished game in {path} is kept as {kept}; a new table starts.")
    return session


def journal_status(path: Path) -> str:
    """'new' (no file, an empty journal, or a table never dealt), 'running' (dealt, not over) or 'over'.

    Read only, replaying the rows onto a fresh game (no lock is taken: a table running elsewhere reads as
    running); a file that is not a readable unox journal is a JournalError saying why."""
    if not path.exists():
        return "new"
    with Journal(path) as journal:
        data = journal.settings
        if data is None:
            if len(journal):
                raise JournalError(f"{path} holds requests but no table settings; give a new journal file")
            return "new"
        try:
            settings = TableSettings.from_dict(data)
        except SettingsError as exc:
            raise JournalError(f"{path} is damaged: its table settings are unusable ({exc})") from exc
        game = settings.build_game()
        found = scan(game, journal.raw_rows(), settings.players, journal.beam_rows())
    if not any(entry.get("cmd") == "deal" for entry in found.entries):
        return "new"  # seats taken, then quit before the deal: nothing to go on with
    return "over" if game.state()["phase"] == "game_over" else "running"


def _holds_table(path: Path) -> bool:
    with Journal(path) as journal:
        return journal.settings is not None


def put_back(kept: Path, path: Path) -> None:
    """A finished game moved aside by a start that was then refused goes back where it was."""
    if not path.exists():
        os.rename(kept, path)


def move_aside(path: Path) -> Path:
    """Rename a finished journal to the first free `path.<N>.done`; nothing is deleted.

    Closing the last connection checkpoints SQLite's write-ahead log into the file and removes it, so
    the main file alone holds the whole game. A log still there means another unox has it open.
    """
    if Path(f"{path}-wal").exists():
        raise JournalError(
            f"{path} is open in another unox (its {path.name}-wal is there); stop that one first"
        )
    number = 1
    while Path(f"{path}.{number}.done").exists():
        number += 1
    done = Path(f"{path}.{number}.done")
    try:
        os.rename(path, done)
    except OSError as exc:
        raise JournalError(f"cannot move the finished game {path} to {done}: {exc.strerror or exc}") from exc
    return done
