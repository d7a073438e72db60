"""The JSON-lines front door: one request per input line, exactly one reply line each, flushed at once.

Blank lines are skipped (they carry no request). Everything else gets a reply, whatever its bytes: a line
that is not JSON or not UTF-8, a lone surrogate, an integer too long for Python to read. Replies are pure
ASCII JSON (`ensure_ascii`), so no stream encoding can refuse to write one. A reader that went away
(stdout closed, `| head`) ends the loop quietly.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import IO, Any

from unox.table.requests import ProtocolError, parse_line
from unox.table.runtime import INTERNAL_ERROR, Reply

log = logging.getLogger(__name__)


def answer(table: Any, line: str | bytes) -> Reply:
    """The reply to one input line; never raises. `table` is a `Table`, or the `Night` over one (its
    `handle` adds the night's bookkeeping)."""
    try:
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
    except Exception:
        log.exception("the table failed on a line")
        try:
            return table.refuse("internal_error", INTERNAL_ERROR)
        except Exception:  # even the state cannot be read: still one reply
            error = {"code": "internal_error", "message": INTERNAL_ERROR}
            return {"ok": False, "error": error, "state": None}


def encode(reply: Reply) -> str:
    """One reply line, ASCII only (any non-ASCII character, a lone surrogate too, is a JSON escape)."""
    try:
        return json.dumps(reply, separators=(",", ":"), ensure_ascii=True) + "\n"
    except (TypeError, ValueError):  # something unprintable slipped into a reply: say so, still one line
        log.exception("a reply could not be encoded")
        error = {"code": "internal_error", "message": INTERNAL_ERROR}
        return json.dumps({"ok": False, "error": error}, separators=(",", ":")) + "\n"


def serve(table: Any, lines: Iterable[str | bytes], out: IO[Any]) -> int:
    """Answer every line until the input ends (or the reader goes away); returns the replies written."""
    replies = 0
    for line in lines:
        if not line.strip():
            continue
        text = encode(answer(table, line))
        try:
            out.write(text.encode("ascii") if _is_binary(out) else text)
            out.flush()
        except BrokenPipeError:
            break
        replies += 1
    return replies


def _is_binary(stream: IO[Any]) -> bool:
    return not hasattr(stream, "encoding")
