"""A transcript says exactly what the table's log says: the session logs the runtime's own narration."""

from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.ui.session import Session


def test_the_session_log_equals_the_lines_the_table_runtime_gives_its_listeners():
    table = Table.create(TableSettings(players=("Ann", "Bob", "Cy")))
    heard: list[str] = []
    table.listeners.append(heard.append)
    session = Session(table)
    for line in ("deal Ann", "flip G7", "G3"):
        session.submit(line)
    session.request({"cmd": "press", "player": "Cy", "fired": 2})
    session.submit("G5")
    session.submit("undo")
    assert len(table.entries) == 4
    assert heard and session.log == heard
    assert any("G3" in line for line in heard) and heard[-1].startswith("Undone") and "G5" in heard[-1]
