"""The table protocol never dies (issue 7, items 7 to 9): the real `unox table` process, fed lines of any
bytes, answers each with exactly one JSON line; a refusal leaves the state as it was; and the journal it
leaves resumes to the state the last reply reported. An Extreme table and a classic one (`--rules classic`,
whose draw, pass, challenge and launcher deal are requests of their own) are fuzzed alike, and so are Barbie's
Mario Kart's and Casting Call's (their first card and turned cards fired by the launcher, DL3; their gift,
item, choose, turn and share).

`UNOX_FUZZ_EXAMPLES` raises the number of hypothesis examples for a longer soak (docs/reliability.md).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PLAYERS = ["Ann", "Bob", "Cy"]
EXAMPLES = int(os.environ.get("UNOX_FUZZ_EXAMPLES", "150"))
REPLY_TIMEOUT = 60.0  # an I/O wait on the reply, not a sleep: it ends as soon as the line arrives

LITERALS = [
    b'{"cmd":"\\ud800"}',
    b'{"cmd":"play","player":"\\udfff","card":"G7"}',
    b'{"cmd":"press","player":"Bob","fired":' + b"9" * 4301 + b"}",
    b'{"cmd":"press","player":"Bob","fired":1000000}',
    b'{"cmd":"press","player":"Bob","fired":6e4299}',
    b'{"cmd":"press","fired":2}',
    b'{"cmd":"score","points":{"Ann":' + b"9" * 5000 + b"}}",
    b'{"cmd":"play","player":"Bob","card":"GD","count":99999999999999999999}',
    b'{"cmd":"settle","fired":1}',
    b"[" * 100000,
    b"\xff\xfe\x00garbage",
    b'{"cmd":"state","x":NaN}',
    b'{"cmd":"deal","dealer":["Ann"]}',
    b'{"cmd":"deal","dealer":"Ann"}',
    b'{"cmd":"flip","card":"G7"}',
    b'{"cmd":"press"}',
    b'{"cmd":"press","player":"Cy","fired":2}',
    b'{"cmd":"undo"}',
    b"null",
    # the draw editions' requests (refused with unknown_cmd at an Extreme table)
    b'{"cmd":"deal","dealer":"Ann","launcher":true}',
    b'{"cmd":"deal","dealer":"Ann","launcher":"yes"}',
    b'{"cmd":"draw","player":"Bob"}',
    b'{"cmd":"draw","player":"Bob","fired":' + b"9" * 4301 + b"}",
    b'{"cmd":"draw","player":"Bob","fired":109}',
    b'{"cmd":"draw","player":"Bob","fired":-1}',
    b'{"cmd":"draw","player":"Bob","fired":7}',
    b'{"cmd":"pass","player":"Bob"}',
    b'{"cmd":"challenge","player":"Cy","guilty":1}',
    b'{"cmd":"challenge","player":"Cy","guilty":true}',
    b'{"cmd":"flip","card":"G7"}',
    b'{"cmd":"play","player":"Bob","card":"W+4","color":"red"}',
    b'{"cmd":"draw","player":"Cy"}',
    b'{"cmd":"settle","fired":3}',
]


class TableProcess:
    """A running `unox table`; `send(line)` returns its one reply and checks the contract on it."""

    def __init__(self, tmp_path, launcher: str, rules: str):
        self.journal = tmp_path / f"fuzz-{launcher}-{rules}.db"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "unox",
                "table",
                "--players",
                ",".join(PLAYERS),
                "--launcher",
                launcher,
                "--seed",
                "5",
                "--rules",
                rules,
                "--journal",
                str(self.journal),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.buffer = b""
        self.state = self.send(b'{"cmd":"state"}')["state"]
        self.lines = 0

    def send(self, line: bytes) -> dict:
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()
        reply = json.loads(self._read_line())
        assert set(reply) >= {"ok", "state"}, reply
        if reply["ok"] is False:
            assert set(reply["error"]) == {"code", "message"} and reply["error"]["message"]
            if hasattr(self, "state"):
                assert reply["state"] == self.state, f"a refusal changed the state: {line[:200]!r}"
        self.lines = getattr(self, "lines", 0) + 1
        self.state = reply["state"]
        return reply

    def _read_line(self) -> bytes:
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.proc.stdout], [], [], REPLY_TIMEOUT)
            assert ready, "no reply from unox table"
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            assert chunk, f"unox table died (exit {self.proc.wait()})"
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        assert b"\n" not in self.buffer, "more than one reply line for one request"
        line.decode("ascii")  # replies are pure ASCII: no stream encoding can refuse them
        return line

    def finish(self) -> int:
        self.proc.stdin.close()
        code = self.proc.wait(timeout=60)
        self.proc.stdout.close()
        return code


TABLES = [("script", "extreme"), ("sim", "extreme"), ("script", "classic"), ("sim", "classic"),
          ("sim", "barbie"), ("sim", "mario-kart"), ("sim", "casting-call")]  # own requests


@pytest.fixture(scope="module", params=TABLES, ids=["-".join(pair) for pair in TABLES])
def table(request, tmp_path_factory):
    process = TableProcess(tmp_path_factory.mktemp("fuzz"), *request.param)
    yield process
    if process.proc.poll() is None:
        process.proc.kill()
        process.proc.wait()


def test_the_literal_cases_each_get_one_reply_and_the_process_lives(table):
    for line in LITERALS:
        table.send(line)
    assert table.proc.poll() is None


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**60), max_value=10**60)
    | st.floats(allow_nan=False)
    | st.text(st.characters(blacklist_categories=()), max_size=8)
    | st.sampled_from(PLAYERS + ["G7", "G3", "WA", "RH", "GD", "W+4", "G+2", "advice", "red"])
    | st.sampled_from(["WB", "WI", "WC", "T4", "P1", "pink", "mushroom", "bomb", "green_shell"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(PLAYERS + ["x"]), inner, max_size=3)
    ),
    max_leaves=6,
)
FIELDS = [
    *("dealer", "card", "color", "player", "target", "count", "fired", "by", "kind", "points", "extra"),
    *("launcher", "guilty", "to", "cards", "item", "deal"),
]
CMDS = [
    "deal",
    "flip",
    "play",
    "press",
    "uno",
    "catch",
    "penalty",
    "reload",
    "score",
    "settle",
    "state",
    "undo",
    "draw",
    "pass",
    "challenge",
    "gift",
    "item",
    "choose",
    "turn",
    "share",
]
SMALL = st.integers(min_value=0, max_value=4)

requests = st.builds(
    lambda cmd, fields: json.dumps({"cmd": cmd, **fields}, ensure_ascii=True).encode(),
    st.sampled_from(CMDS) | st.text(st.characters(blacklist_categories=()), max_size=5),
    st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES | SMALL | st.sampled_from(PLAYERS), max_size=4),
)
plausible = st.sampled_from(
    [
        b'{"cmd":"deal","dealer":"Ann"}',
        b'{"cmd":"flip","card":"G7"}',
        b'{"cmd":"press"}',
        b'{"cmd":"play","player":"Bob","card":"G3"}',
        b'{"cmd":"reload"}',
        b'{"cmd":"undo"}',
        b'{"cmd":"deal","dealer":"Ann","launcher":true}',
        b'{"cmd":"draw","player":"Bob"}',
        b'{"cmd":"draw","player":"Cy"}',
        b'{"cmd":"pass","player":"Bob"}',
        b'{"cmd":"play","player":"Bob","card":"G+2"}',
        b'{"cmd":"play","player":"Cy","card":"W+4","color":"blue"}',
        b'{"cmd":"challenge","player":"Ann","guilty":false}',
        b'{"cmd":"flip"}',
        b'{"cmd":"flip","card":"T7"}',
        b'{"cmd":"play","player":"Bob","card":"WB","color":"pink"}',
        b'{"cmd":"gift","player":"Bob","to":"Cy","cards":["T4","P1"]}',
        b'{"cmd":"gift","player":"Bob","cards":[]}',
        b'{"cmd":"play","player":"Bob","card":"WI"}',
        b'{"cmd":"item","player":"Bob"}',
        b'{"cmd":"item","player":"Bob","card":"B3","item":"bomb"}',
        b'{"cmd":"choose","player":"Bob","color":"green"}',
        b'{"cmd":"choose","player":"Bob","target":"Cy"}',
        b'{"cmd":"play","player":"Bob","card":"WC","color":"red"}',
        b'{"cmd":"turn","player":"Bob","card":"R5"}',
        b'{"cmd":"share","player":"Bob","deal":true}',
    ]
)
raw = st.binary(min_size=1, max_size=120).map(lambda b: b.replace(b"\n", b" "))
lines = (requests | plausible | raw).filter(lambda line: line.strip())


@settings(
    max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(batch=st.lists(lines, min_size=1, max_size=12))
def test_any_lines_get_one_reply_each_and_refusals_change_nothing(table, batch):
    for line in batch:
        table.send(line)


def test_the_journal_left_behind_resumes_to_the_last_reported_state(table):
    state = table.state
    assert table.finish() == 0
    resumed = subprocess.run(
        [sys.executable, "-m", "unox", "table", "--resume", str(table.journal)],
        input='{"cmd":"state"}\n',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["state"] == state
    print(f"{table.lines} lines answered")
