"""Building the sessions `unox play` and `unox demo` run: the table, its journal, its launcher, its bots.

The CLI and the tests both start tables through here, so a test runs exactly what a person runs.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from unox.launcher.options import open_checked
from unox.table.journal import Journal
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.session import Session


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


def open_play_session(settings: TableSettings, *, journal: Path | None = None) -> Session:
    """A new physical table on the settings' launcher, journalled when `journal` is given."""
    spec = sim_spec(settings.launcher, seed=settings.seed, cards=0)  # the dealer loads it at the deal
    launcher = open_checked(spec)
    book = Journal(journal) if journal is not None else None
    table = Table.create(settings, launcher=launcher, journal=book)
    return Session(table, launcher=launcher, sim=hasattr(launcher, "press_button"))


def resume_play_session(path: Path, *, launcher: str | None = None) -> Session:
    """The table a journal holds, on the launcher it used (or `launcher`, e.g. a new serial port)."""
    journal = Journal(path)
    settings = TableSettings.from_dict(journal.settings or {})
    spec = launcher or settings.launcher
    if spec.partition(":")[0] == "sim":  # the simulated launcher holds what the table says it holds
        cards = Table.resume(journal).state()["launcher"]["cards"]
        spec = sim_spec(spec, seed=settings.seed, cards=cards)
    device = open_checked(spec)
    table = Table.resume(journal, launcher=device)
    session = Session(table, launcher=device, sim=hasattr(device, "press_button"))
    session.emit(f"Resumed from {path}: {len(table.entries)} accepted events replayed, nothing fired again.")
    return session
