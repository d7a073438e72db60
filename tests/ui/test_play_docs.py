"""docs/play.md stays true: every typed command it shows parses, and every key it lists is bound."""

import re
from pathlib import Path

from unox.ui.app import TableApp
from unox.ui.commands import parse_line

DOC = Path(__file__).resolve().parents[2] / "docs" / "play.md"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def key_table() -> list[tuple[str, str]]:
    rows = [line.split("|")[1:3] for line in DOC.read_text().splitlines() if line.startswith("| `")]
    return [(key.strip(), typed) for key, typed in rows]


def test_every_typed_command_in_the_docs_parses():
    typed = [snippet for _, cell in key_table() for snippet in re.findall(r"`([^`]+)`", cell)]
    assert len(typed) >= 12
    for line in typed:
        parse_line(line, PLAYERS, turn="Ann")  # raises InputError on a line the table would refuse


def test_every_key_in_the_docs_is_bound_in_the_app():
    bound = {binding.key for binding in TableApp.BINDINGS}
    assert len(key_table()) >= 10
    for key, _ in key_table():
        name = key.strip("`")
        assert {":": "colon"}.get(name, name) in bound, f"docs/play.md lists key {name!r}, the app has none"
