"""docs/table-protocol.md is tested: its example session replays, and it names every request and code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from unox.rules.errors import ERROR_CODES
from unox.table.jsonl import answer
from unox.table.requests import PROTOCOL_CODES, REQUESTS

from .tablekit import new_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "table-protocol.md"


def session() -> list[tuple[str, dict]]:
    block = re.search(r"<!-- session -->\s*```\n(.*?)```\s*<!-- /session -->", DOC.read_text(), re.S)
    assert block, "the example session markers are missing"
    lines = block.group(1).splitlines()
    pairs = list(zip(lines[::2], lines[1::2], strict=True))
    assert all(req.startswith("> ") and rep.startswith("< ") for req, rep in pairs)
    return [(req[2:], json.loads(rep[2:])) for req, rep in pairs]


def contains(actual, shown) -> bool:
    """`shown` is `actual` with some object keys left out (the docs abbreviate replies)."""
    if isinstance(shown, dict):
        if not isinstance(actual, dict):
            return False
        return all(key in actual and contains(actual[key], value) for key, value in shown.items())
    return actual == shown


def test_the_example_session_replays_as_documented():
    table = new_table()
    pairs = session()
    assert len(pairs) >= 10
    for request, shown in pairs:
        reply = answer(table, request)
        assert contains(reply, shown), (request, reply)


@pytest.mark.parametrize("code", sorted(set(PROTOCOL_CODES) | set(ERROR_CODES)))
def test_every_error_code_is_documented(code):
    assert f"`{code}`" in DOC.read_text()


@pytest.mark.parametrize("cmd", sorted(REQUESTS))
def test_every_request_is_documented(cmd):
    assert f'{{"cmd":"{cmd}"' in DOC.read_text()
