"""Issue 22 item 1 with real processes and the pty simulator (`unox simulate-device --pty`): the launcher's
port is a stable name (a symlink, as udev makes /dev/unox-launcher) that another launcher takes over, as two
Picos swap ttyACM0 and ttyACM1 after a replug. `unox press`, `unox play --resume`, `unox table --resume` and
`unox serve --resume` refuse it: nothing fired on it, nothing booked; the same board at a new path is the
same launcher; a launcher named with --launcher on --resume is taken deliberately.

Real time here, so every wait is bounded; the bounds only matter on failure."""

from __future__ import annotations

import json
import os
import queue
import select
import signal
import subprocess
import sys
import threading

import pytest
from unox.table.journal import Journal
from unoxsim.control import send
from unoxsim.device import VirtualDevice

BOUND_S = 60.0  # only reached when something is broken
UNOX = [sys.executable, "-m", "unox"]


def board_of(seed: int) -> str:
    return VirtualDevice(seed=seed).board.machine.unique_id().hex()


class Simulators:
    """Simulated launchers on ptys, each with a control socket; `link` is the stable name pointing at one."""

    def __init__(self, folder):
        self.folder, self.procs, self.link = folder, [], folder / "unox-launcher"

    def start(self, seed: int) -> tuple[subprocess.Popen, str, str]:
        control = str(self.folder / f"sim{len(self.procs)}.sock")
        proc = subprocess.Popen([*UNOX, "simulate-device", "--pty", "--seed", str(seed), "--cards", "60",
                                 "--control", control],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.procs.append(proc)
        ready, _, _ = select.select([proc.stdout], [], [], BOUND_S)
        assert ready, "simulate-device printed no pty path"
        return proc, proc.stdout.readline().strip(), control

    def point(self, path: str) -> None:
        """The stable name now reaches `path` (udev gave the name to another board)."""
        tmp = self.folder / "link.tmp"
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(path)
        os.replace(tmp, self.link)

    def stop(self, proc: subprocess.Popen) -> None:
        proc.kill()
        proc.communicate()

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                self.stop(proc)


@pytest.fixture
def sims(tmp_path):
    sims = Simulators(tmp_path)
    yield sims
    sims.close()


def count(control: str) -> dict:
    return json.loads(send(control, "count"))


def run(*argv: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([*UNOX, *argv], input=stdin, capture_output=True, text=True, timeout=BOUND_S)


def test_unox_press_refuses_a_stranger_at_its_port_and_books_none_of_its_presses(sims):
    ours_proc, ours_path, ours_control = sims.start(seed=1)
    sims.point(ours_path)
    press = subprocess.Popen([*UNOX, "press", "--launcher", f"serial:{sims.link}", "--json", "--profile",
                              "brutal", "--seed", "3"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in press.stdout], daemon=True).start()
    records: list[dict] = []

    def until(kind: str) -> dict:
        while True:
            try:
                record = json.loads(lines.get(timeout=BOUND_S))
            except queue.Empty:
                raise AssertionError(f"no {kind!r} record; got {records}") from None
            records.append(record)
            if record.get("event", "summary") == kind:
                return record

    try:
        ready, _, _ = select.select([press.stderr], [], [], BOUND_S)
        assert ready and f"(board {board_of(1)};" in press.stderr.readline()  # it says which launcher
        assert send(ours_control, "press") == "ok"
        until("fire")
        ours_out = count(ours_control)["ejected"]
        sims.stop(ours_proc)
        stranger_proc, stranger_path, stranger_control = sims.start(seed=2)
        sims.point(stranger_path)
        told = until("stranger")
        for _ in range(3):
            assert send(stranger_control, "press") == "ok"
        select.select([], [], [], 2.0)  # the presses reach the host, which takes none of them
        press.send_signal(signal.SIGINT)
        assert press.wait(timeout=BOUND_S) == 130
        summary = until("summary")["summary"]
    finally:
        if press.poll() is None:
            press.kill()
            press.wait()
    assert f"is board {board_of(2)}, not {board_of(1)}" in told["message"] and "--launcher" in told["message"]
    kinds = [r.get("event") for r in records[:-1]]
    assert kinds.count("fire") == 1 and "alone" not in kinds and "link_back" not in kinds, kinds
    assert kinds.count("stranger") == 1  # told once
    assert summary["presses"] == 1 and summary["cards_fired"] == ours_out
    stranger = count(stranger_control)
    for _ in range(50):  # a press it fired alone may still be running: its cards are queued at its end
        if not stranger["firing"]:
            break
        select.select([], [], [], 0.1)
        stranger = count(stranger_control)
    # nothing we sent ran its motor: every card that came out is from the stranger's own standalone fires
    # (presses we refused are fired alone by it, as with no host at all), none of them TAKEN by us
    assert not stranger["firing"] and stranger["ejected"] == stranger["alone_cards"], stranger


TABLE_LINES = [{"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip", "card": "B2"}, {"cmd": "press"},
               {"cmd": "press", "player": "Cy"}]


def journal_view(path) -> tuple:
    with Journal(path) as journal:
        return journal.raw_rows(), journal.fires(), journal.get_meta("launcher_board")


def test_a_resume_refuses_a_stranger_at_the_old_path_and_takes_our_board_at_a_new_one(sims, tmp_path):
    ours_proc, ours_path, ours_control = sims.start(seed=1)
    sims.point(ours_path)
    journal = tmp_path / "t.db"
    made = run("table", "--players", "Ann,Bob,Cy", "--launcher", f"serial:{sims.link}", "--seed", "5",
               "--journal", str(journal), stdin="".join(json.dumps(line) + "\n" for line in TABLE_LINES))
    assert made.returncode == 0, made.stderr
    before = journal_view(journal)
    assert before[2] == board_of(1) and len(before[1]) == 2  # bound at the first HELLO; two presses fired
    sims.stop(ours_proc)
    _, stranger_path, stranger_control = sims.start(seed=2)
    sims.point(stranger_path)

    refusals = [run("play", "--resume", str(journal), "--plain", stdin="quit\nyes\n"),
                run("table", "--resume", str(journal), stdin=""),
                run("play", "--continue", str(journal), "--plain", stdin="quit\nyes\n"),
                run("serve", "--resume", str(journal), "--host", "127.0.0.1", "--port", "0")]
    for refused in refusals:
        assert refused.returncode == 1, (refused.args, refused.stdout, refused.stderr)
        assert f"bound to launcher board {board_of(1)}" in refused.stderr, refused.stderr
        assert f"is board {board_of(2)}" in refused.stderr and "--launcher" in refused.stderr
        assert f"the launcher serial:{sims.link} is board" in refused.stderr  # as the user typed it
    for resumed in (refusals[0], refusals[1], refusals[3]):  # --resume: the remedy is --launcher
        assert f"add --launcher serial:{sims.link} to --resume" in resumed.stderr, resumed.stderr
        assert "--accept-launcher" not in resumed.stderr
    assert "add --accept-launcher to the command" in refusals[2].stderr  # --continue names it every time
    assert "to --resume" not in refusals[2].stderr
    assert journal_view(journal) == before
    assert count(stranger_control)["ejected"] == 0

    _, again_path, _ = sims.start(seed=1)  # our launcher is back, at another path
    taken = run("play", "--resume", str(journal), "--launcher", f"serial:{again_path}", "--plain",
                stdin="quit\nyes\n")
    assert taken.returncode == 0, taken.stderr
    assert "Resumed from" in taken.stdout and "now fires launcher board" not in taken.stdout
    assert journal_view(journal)[2] == board_of(1)

    named = run("play", "--resume", str(journal), "--launcher", f"serial:{sims.link}", "--plain",
                stdin="quit\nyes\n")  # the stranger, named on purpose
    assert named.returncode == 0, named.stderr
    assert f"now fires launcher board {board_of(2)} (it was bound to board {board_of(1)})" in named.stdout
    assert journal_view(journal)[2] == board_of(2)


def stored_launcher(path) -> str:
    with Journal(path) as journal:
        return journal.settings["launcher"]


def test_the_launcher_named_on_resume_is_the_one_the_next_plain_resume_opens(sims, tmp_path):
    """The README's `unox play --resume game.db` after a power cut opens the launcher last named, whether
    it was the same board at a new path or another board taken on purpose."""
    ours_proc, ours_path, _ = sims.start(seed=1)
    journal = tmp_path / "p.db"
    made = run("play", "--players", "Ann,Bob", "--launcher", f"serial:{ours_path}", "--plain", "--journal",
               str(journal), stdin="quit\nyes\n")
    assert made.returncode == 0, made.stderr
    sims.stop(ours_proc)
    _, again_path, _ = sims.start(seed=1)  # the same board at a new path
    moved = run("play", "--resume", str(journal), "--launcher", f"serial:{again_path}", "--plain",
                stdin="quit\nyes\n")
    assert moved.returncode == 0, moved.stderr
    assert stored_launcher(journal) == f"serial:{again_path}"
    plain = run("play", "--resume", str(journal), "--plain", stdin="quit\nyes\n")
    assert plain.returncode == 0 and "Resumed from" in plain.stdout, plain.stderr
    _, other_path, _ = sims.start(seed=2)  # another board, named on purpose
    taken = run("play", "--resume", str(journal), "--launcher", f"serial:{other_path}", "--plain",
                stdin="quit\nyes\n")
    assert taken.returncode == 0 and f"now fires launcher board {board_of(2)}" in taken.stdout, taken.stderr
    plain = run("play", "--resume", str(journal), "--plain", stdin="quit\nyes\n")
    assert plain.returncode == 0, plain.stderr
    assert "Resumed from" in plain.stdout and journal_view(journal)[2] == board_of(2)



def test_launcher_accept_at_a_running_table_keeps_its_port_for_the_next_plain_resume(sims, tmp_path):
    """`launcher accept` binds the journal to the board now at the port and keeps the port as the table's
    launcher: after a power cut, a plain `unox play --resume` opens that port and finds that board."""
    import time

    from unox.table.opening import open_play_session
    from unox.table.settings import TableSettings
    from unox.ui.session import Session

    ours_proc, ours_path, _ = sims.start(seed=1)
    sims.point(ours_path)
    journal = tmp_path / "a.db"
    settings = TableSettings(players=("Ann", "Bob"), seed=1, launcher=f"serial:{sims.link}")
    session = open_play_session(settings, journal=journal, night=Session)
    try:
        session.submit("deal Ann")
        sims.stop(ours_proc)
        _, stranger_path, _ = sims.start(seed=2)
        sims.point(stranger_path)
        deadline = time.monotonic() + BOUND_S
        while getattr(session.launcher, "stranger_id", None) is None and time.monotonic() < deadline:
            session.poll(0.2)
        assert session.accept_launcher() == board_of(2)
    finally:
        session.close()
    assert journal_view(journal)[2] == board_of(2) and stored_launcher(journal) == f"serial:{sims.link}"
    plain = run("play", "--resume", str(journal), "--plain", stdin="quit\nyes\n")
    assert plain.returncode == 0, plain.stderr
    assert "Resumed from" in plain.stdout and "now fires" not in plain.stdout
