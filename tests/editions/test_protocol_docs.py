"""docs/table-protocol.md's example session of each draw edition replays as documented, and the section names
every draw request."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from unox.table.jsonl import answer
from unox.table.requests import DRAW_REQUESTS

from .kit import physical_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "table-protocol.md"
MARKED = r"<!-- session ([\w-]+) -->\s*```\n(.*?)```\s*<!-- /session \1 -->"
SESSIONS = re.findall(MARKED, DOC.read_text(), re.S)


def contains(actual, shown) -> bool:
    """`shown` is `actual` with some object keys left out (the docs abbreviate replies)."""
    if isinstance(shown, dict):
        return isinstance(actual, dict) and all(
            k in actual and contains(actual[k], v) for k, v in shown.items()
        )
    return actual == shown


def test_every_draw_edition_session_is_there():
    assert "classic" in {name for name, _ in SESSIONS}


@pytest.mark.parametrize(("rules", "block"), SESSIONS, ids=[name for name, _ in SESSIONS])
def test_the_editions_example_session_replays_as_documented(rules, block):
    lines = block.splitlines()
    table = physical_table(rules, players=("Ann", "Bob", "Cy"))
    pairs = list(zip(lines[::2], lines[1::2], strict=True))
    assert len(pairs) >= 10
    for request, reply in pairs:
        assert request.startswith("> ") and reply.startswith("< ")
        got = answer(table, request[2:])
        assert contains(got, json.loads(reply[2:])), (request, got)


@pytest.mark.parametrize("cmd", sorted(DRAW_REQUESTS))
def test_every_draw_request_is_documented(cmd):
    assert f'{{"cmd":"{cmd}"' in DOC.read_text()
