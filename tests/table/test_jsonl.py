"""The JSON-lines loop in-process: one reply line per request line, in order, each a complete object."""

from __future__ import annotations

import io
import json

from unox.table.jsonl import serve

from .tablekit import new_table, send

LINES = [
    '{"cmd":"deal","dealer":"Ann"}',
    "",
    "   ",
    '{"cmd":"flip","card":"G7"}',
    "{oops",
    '{"cmd":"play","player":"Bob","card":"G3"}',
    '{"cmd":"state"}',
]


class CountingFlushes(io.StringIO):
    """Records what had been written at each flush, to prove every reply is flushed at once."""

    def __init__(self) -> None:
        super().__init__()
        self.flushed: list[str] = []

    def flush(self) -> None:
        self.flushed.append(self.getvalue())


def test_every_request_line_gets_exactly_one_flushed_reply_line():
    out = CountingFlushes()
    requests = [line for line in LINES if line.strip()]
    assert serve(new_table(), [line + "\n" for line in LINES], out) == len(requests)
    replies = out.getvalue().splitlines()
    assert len(replies) == len(requests)
    assert [snapshot.count("\n") for snapshot in out.flushed] == list(range(1, len(requests) + 1))
    parsed = [json.loads(reply) for reply in replies]
    assert [reply["ok"] for reply in parsed] == [True, True, False, True, True]
    assert parsed[2]["error"]["code"] == "bad_json"


def test_the_loop_and_direct_requests_agree():
    out = io.StringIO()
    serve(new_table(), [line + "\n" for line in LINES], out)
    direct = new_table()
    for line in LINES:
        if line.strip() and line != "{oops":
            send(direct, **json.loads(line))
    assert json.loads(out.getvalue().splitlines()[-1])["state"] == direct.state()


def test_the_loop_writes_bytes_to_a_binary_stream():
    out = io.BytesIO()
    serve(new_table(), [b'{"cmd":"state"}\n'], out)
    assert json.loads(out.getvalue().decode("utf-8"))["ok"] is True


def test_a_lone_surrogate_gets_one_ascii_reply_and_the_loop_goes_on():
    """`{"cmd":"\\ud800"}` used to kill the table: its echo could not be written (issue 7, item 7)."""
    out = io.BytesIO()
    lines = [b'{"cmd":"\\ud800"}\n', b'{"cmd":"deal","dealer":"\\udfff"}\n', b'{"cmd":"state"}\n']
    assert serve(new_table(), lines, out) == 3
    replies = out.getvalue().decode("ascii").splitlines()
    first, second, third = (json.loads(reply) for reply in replies)
    assert first["error"]["code"] == "unknown_cmd" and "\\ud800" in first["error"]["message"]
    assert second["error"]["code"] == "unknown_player"
    assert third["ok"] is True


def test_an_integer_past_4300_digits_is_bad_json_not_a_crash():
    out = io.StringIO()
    line = '{"cmd":"press","player":"Bob","fired":' + "7" * 4301 + "}\n"
    assert serve(new_table(), [line, '{"cmd":"state"}\n'], out) == 2
    first, second = (json.loads(reply) for reply in out.getvalue().splitlines())
    assert first["error"]["code"] == "bad_json" and "too long" in first["error"]["message"]
    assert second["ok"] is True


def test_a_reader_that_went_away_ends_the_loop_quietly():
    class Gone(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    assert serve(new_table(), ['{"cmd":"state"}\n', '{"cmd":"state"}\n'], Gone()) == 0
