"""`unox play --journal F` killed with SIGKILL, then resumed in the table UI: the same state as a run that
never stopped (issue 4 §1, the journal contract of issue 2 §7)."""

import asyncio
import os
import select
import signal
import subprocess
import sys
import time

from unox.table.opening import open_play_session, resume_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")
LAUNCHER = os.environ.get("UNOX_TEST_LAUNCHER", "sim")
SEED = 11
# A hand in progress: S1 draws, the deal, a Hit 2 first card (Ann presses twice), plays, presses, a call.
LINES = [
    "draw Ann G3", "draw Bob R2", "draw Cy B9", "deal", "flip RH", "press", "press",
    "R5", "press", "R7", "R2", "press", "R9", "uno Bob", "R4",
]


def settings():
    return TableSettings(players=PLAYERS, seed=SEED, launcher=LAUNCHER)


# An I/O wait bounded only against a hang: `unox play` runs the simulated launcher's firmware on its own CPU,
# a few seconds of it on a shared machine, and a minute was once too short under a load of 28.
LIMIT_S = 600.0


def read_until(proc, count, prefix="next: ", limit=LIMIT_S):
    """Read the subprocess's lines until `count` start with `prefix` (an I/O wait, not a sleep)."""
    seen, lines = 0, []
    deadline = time.monotonic() + limit
    buffer = ""
    while seen < count:
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no answer from unox play after {limit}s; got: {lines[-5:]}"
        chunk = os.read(proc.stdout.fileno(), 65536).decode()
        assert chunk, f"unox play ended early: {lines[-5:]}"
        buffer += chunk
        *complete, buffer = buffer.split("\n")
        lines += complete
        seen += sum(1 for line in complete if line.startswith(prefix))
    return lines


def test_resume_after_sigkill_lands_in_the_same_state(tmp_path):
    journal = tmp_path / "game.db"
    fed = 12  # killed after this many lines were answered, mid-hand
    cmd = [sys.executable, "-m", "unox", "play", "--plain", "--players", ",".join(PLAYERS),
           "--launcher", LAUNCHER, "--seed", str(SEED), "--journal", str(journal)]
    # stderr to a file: a pipe nobody reads would stop the process once 64 KB of warnings filled it
    with open(tmp_path / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        try:
            read_until(proc, 1)  # the first prompt: the table is up
            proc.stdin.write("".join(line + "\n" for line in LINES[:fed]).encode())
            proc.stdin.flush()
            transcript = read_until(proc, fed)
            proc.send_signal(signal.SIGKILL)
        finally:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL, (tmp_path / "stderr.txt").read_text()[-2000:]
    assert not any(line.startswith("not taken") for line in transcript), transcript

    reference = open_play_session(settings(), journal=tmp_path / "reference.db", night=Session)
    for line in LINES[:fed]:
        reference.submit(line)

    resumed = resume_play_session(journal, night=Session)

    async def scenario():
        app = TableApp(resumed)
        async with app.run_test(size=(120, 45)) as pilot:
            await pilot.pause()
            return app.prompt_text(), str(app.query_one("#table").render())

    prompt, table_panel = asyncio.run(scenario())
    assert resumed.state == reference.state
    assert resumed.entries() == reference.entries()
    assert resumed.state["phase"] == "turn" and resumed.state["hand"] == 1
    assert prompt == "NEXT: " + reference.prompt().line()
    assert f"Top card:  {reference.state['top']}" in table_panel
