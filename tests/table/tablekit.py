"""Helpers for the table tests: build a table, send requests, and check refusals change nothing."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from unox.table.journal import Journal
from unox.table.jsonl import answer
from unox.table.runtime import Table
from unox.table.settings import TableSettings

PLAYERS = ("Ann", "Bob", "Cy")
DECK = 112
HAND = 7


def new_table(players=PLAYERS, *, launcher=None, journal: Journal | None = None, **settings: Any) -> Table:
    return Table.create(TableSettings(players=tuple(players), **settings), launcher=launcher, journal=journal)


def send(table: Table, **request: Any) -> dict:
    """One request through the same path as a JSON line, so the reply must survive JSON encoding."""
    reply = answer(table, json.dumps(request))
    assert json.loads(json.dumps(reply)) == reply
    return reply


def accept(table: Table, **request: Any) -> dict:
    reply = send(table, **request)
    assert reply["ok"], reply
    return reply["state"]


def refuse(table: Table, code: str, request: Any = None, *, line: str | None = None, **fields: Any) -> dict:
    """Send a request that must be refused with `code`; the state and the journal must not change."""
    before = copy.deepcopy(table.state())
    journal_before = table.journal.entries() if table.journal is not None else None
    accepted_before = list(table.entries)
    if line is None:
        line = json.dumps(request if request is not None else fields)
    reply = answer(table, line)
    assert reply["ok"] is False, reply
    assert reply["error"]["code"] == code, reply
    message = reply["error"]["message"]
    assert len(message.strip()) > 15 and "\n" not in message, "a refusal says what to do instead, in a line"
    assert reply["state"] == before
    assert table.state() == before
    assert table.entries == accepted_before
    if journal_before is not None:
        assert table.journal.entries() == journal_before
    return reply


def started(table: Table, *, dealer: str = "Ann", card: str = "G7") -> dict:
    """Deal and turn up a plain number card: the player left of the dealer is to play."""
    accept(table, cmd="deal", dealer=dealer)
    return accept(table, cmd="flip", card=card)


def left_of(player: str, players=PLAYERS) -> str:
    return players[(players.index(player) + 1) % len(players)]


class FixedProfile:
    """An eject profile that fires the counts it is given (capped like a real one); records each call."""

    def __init__(self, *counts: int):
        self.counts = list(counts)
        self.calls: list[tuple[int, bool]] = []
        self.resets = 0

    def next_count(self, available: int, *, must_fire: bool = False) -> int:
        self.calls.append((available, must_fire))
        count = self.counts.pop(0) if self.counts else 0
        return min(count, available)

    def reset(self) -> None:
        self.resets += 1


def table_process(*args: str) -> subprocess.Popen:
    """A real `unox table` process, talked to over stdin/stdout with `ask`."""
    return subprocess.Popen(
        [sys.executable, "-m", "unox", "table", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
        env={**os.environ, "PYTHONUNBUFFERED": "0"},
    )


def ask(proc: subprocess.Popen, request: dict | str) -> dict:
    """Write one line and block until its reply line arrives: the only synchronisation the tests need."""
    line = request if isinstance(request, str) else json.dumps(request)
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    reply = proc.stdout.readline()
    if not reply.endswith("\n"):
        pytest.fail(f"no reply line; stderr: {proc.stderr.read() if proc.poll() is not None else ''}")
    return json.loads(reply)


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file in the folder and its bytes' hash: proves nothing was written or left behind."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}
