"""docs/play.md stays true: every typed command it shows parses, and every key it lists is bound."""

import re
from pathlib import Path

from unox.ui.app import TableApp
from unox.ui.commands import parse_line

DOC = Path(__file__).resolve().parents[2] / "docs" / "play.md"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def key_table() -> list[tuple[str, str]]:
    section = DOC.read_text().split("## Typing, keys and the screen")[1].split("\n## ")[0]
    lines = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    rows = [line.split("|")[1:3] for line in lines]
    return [(key.strip(), typed) for key, typed in rows[1:]]  # the header row is not a key


def test_every_typed_command_in_the_docs_parses():
    snippets = [snippet for _, cell in key_table() for snippet in re.findall(r"`([^`]+)`", cell)]
    typed = [snippet for snippet in snippets if snippet != "?"]  # `?` is a key on an empty line
    assert len(typed) >= 12
    for line in typed:
        parse_line(line, PLAYERS, turn="Ann")  # raises InputError on a line the table would refuse


def test_every_key_in_the_docs_is_bound_in_the_app():
    bound = {binding.key for binding in TableApp.BINDINGS}
    assert len(key_table()) >= 10
    assert sum(1 for key, _ in key_table() if key) >= 6
    for key, _ in key_table():
        name = key.strip("`")
        if name:
            assert name in bound, f"docs/play.md lists key {name!r}, the app has none"
