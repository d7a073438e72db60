"""docs/tournament.md's commands, run as a club would, against a private mosquitto: the doc's addresses get
the test broker's port and passwords, and every command must do what the page says."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from .kit import C_V3_PLAYERS, UNOX, WAIT, journal_rows, kill_left, read_until, scored_by_hand

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))
from doc_commands import commands  # noqa: E402

ADDRESS = re.compile(r"mqtt://(\w+):PASSWORD@unox-pi\.local/club")


def _doc_commands() -> list[list[str]]:
    return [c.argv() for c in commands() if c.page == "docs/tournament.md"]


def _localised(argv: list[str], broker) -> list[str]:
    """The doc's command with the test broker's port and each user's password."""
    return [ADDRESS.sub(lambda m: broker.url(m.group(1), "club"), word) for word in argv]


def _find(found: list[list[str]], *words: str) -> list[str]:
    return next(argv for argv in found if argv[: len(words)] == list(words) and "mqtt" in " ".join(argv))


def test_the_club_commands_in_docs_tournament_md_run_a_whole_tournament(broker, tmp_path):
    found = _doc_commands()
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    serve_argv = _localised(_find(found, "tournament", "serve"), broker)
    assert ",".join(C_V3_PLAYERS) in serve_argv
    serve = subprocess.Popen(
        [*UNOX, *serve_argv, "--host", "127.0.0.1", "--port", "0", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    processes: list[subprocess.Popen] = []
    try:
        read_until(serve, "the standings are at")
        table1 = _localised(_find(found, "table", "--tournament"), broker)
        table2 = _localised(next(a for a in found if a[0] == "table" and "--bots" in a), broker)
        assert "--table" in table1 and table1[table1.index("--table") + 1] == "1"
        processes += [
            subprocess.Popen(
                [*UNOX, *argv],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                cwd=tmp_path,
                env=env,
                stdin=subprocess.DEVNULL,
            )
            for argv in (table1 + ["--bots", "heuristic"], table2)
        ]
        for process in processes:
            out, _ = process.communicate(timeout=WAIT)
            assert process.returncode == 0, out
        status = _localised(
            next(a for a in found if a[:2] == ["tournament", "status"] and "--broker" in a), broker
        )
        done = subprocess.run(
            [*UNOX, *status, "--json"], capture_output=True, text=True, cwd=tmp_path, timeout=WAIT
        )
        assert done.returncode == 0, done.stderr
        by_broker = json.loads(done.stdout)
        local = next(a for a in found if a[:2] == ["tournament", "status"] and "--journal" in a)
        done = subprocess.run(
            [*UNOX, *local, "--json"], capture_output=True, text=True, cwd=tmp_path, timeout=WAIT
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == by_broker  # read while the coordinator still runs
    finally:
        kill_left(*processes)
        serve.send_signal(signal.SIGINT)
        serve.communicate(timeout=WAIT)
    assert serve.returncode == 0
    # its default journal: one per tournament id, so next week's table under the same name starts afresh
    (table2_journal,) = (tmp_path / "state" / "unox" / "tournaments").glob("club-*-table2.db")
    played = journal_rows(tmp_path / "table1.db") + journal_rows(table2_journal)
    assert len(played) == 56 and by_broker["over"]
    assert {r["player"]: r["points"] for r in by_broker["players"]} == scored_by_hand(C_V3_PLAYERS, played)
    resume = _localised(_find(found, "tournament", "start"), broker)
    assert "--resume" in resume
    done = subprocess.run(
        [*UNOX, *resume, "--json"], capture_output=True, text=True, cwd=tmp_path, timeout=WAIT
    )
    assert done.returncode == 0 and json.loads(done.stdout.splitlines()[-1]) == by_broker
