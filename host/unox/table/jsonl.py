"""The JSON-lines front door: one request per input line, exactly one reply line each, flushed at once.

Blank lines are skipped (they carry no request). Everything else gets a reply, even a line that is not
JSON or not UTF-8, so a front end can always pair its requests with the replies in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from unox.table.requests import ProtocolError, parse_line
from unox.table.runtime import Reply, Table


def answer(table: Table, line: str | bytes) -> Reply:
    """The reply to one input line."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return table.refuse("bad_json", f"that line is not UTF-8 text ({exc}); send JSON in UTF-8")
    try:
        request = parse_line(line)
    except ProtocolError as exc:
        return table.refuse(exc.code, exc.message)
    return table.handle(request)


def encode(reply: Reply) -> str:
    return json.dumps(reply, separators=(",", ":"), ensure_ascii=False) + "\n"


def serve(table: Table, lines: Iterable[str | bytes], out: IO[Any]) -> int:
    """Answer every line until the input ends; returns how many replies were written."""
    replies = 0
    for line in lines:
        if not line.strip():
            continue
        text = encode(answer(table, line))
        out.write(text.encode("utf-8") if _is_binary(out) else text)
        out.flush()
        replies += 1
    return replies


def _is_binary(stream: IO[Any]) -> bool:
    return not hasattr(stream, "encoding")
