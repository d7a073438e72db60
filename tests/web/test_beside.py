"""The web server beside another front end on one table: `unox play --web` and `unox demo --web`."""

from __future__ import annotations

import re
import subprocess
import sys
import threading

import pytest

from tests.web.conftest import OPERATOR_PIN, PIN, seat


class Running:
    """A `unox` command that serves the web page too: its URL once it listens; its output kept."""

    def __init__(self, args: list[str], cwd):
        command = [sys.executable, "-m", "unox", *args, "--host", "127.0.0.1", "--port", "0", "--pin", PIN,
                   "--operator-pin", OPERATOR_PIN]
        self.proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        for line in self.proc.stdout:
            self.lines.append(line)
            found = re.search(r"open (http://\S+) on each phone", line)
            if found:
                self.url = found.group(1).rstrip("/")
                break
        else:
            raise AssertionError("no web server:\n" + "".join(self.lines))
        self.reader = threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True)
        self.reader.start()

    def type(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=20)


@pytest.fixture
def running(tmp_path):
    started: list[Running] = []

    def start(*args: str) -> Running:
        started.append(Running(list(args), tmp_path))
        return started[-1]

    yield start
    for run in started:
        run.stop()


def test_play_web_serves_the_table_the_terminal_drives(running):
    play = running("play", "--plain", "--web", "--players", "Ann,Bob", "--launcher", "sim", "--seed", "1")
    bob = seat(play, "Bob")
    phone = bob.socket()
    assert phone.receive_until("hello")["state"]["phase"] == "deal"
    play.type("deal Ann")  # typed at the terminal: the phone sees it
    assert phone.receive_until("log")["text"] == "Ann deals 7 cards to each player."
    assert phone.receive_until("state")["state"]["phase"] == "flip"
    operator = seat(play, "operator")
    assert operator.request({"cmd": "flip", "card": "G7"})[1]["state"]["turn"] == "Bob"
    # The terminal UI owns the launcher's button: a phone may not fire it, but plays its cards.
    status, reply = bob.request({"cmd": "press", "player": "Bob"})
    assert status == 403 and "launcher's own button" in reply["error"]["message"]
    status, reply = bob.request({"cmd": "play", "player": "Bob", "card": "G3"})
    assert status == 200 and reply["state"]["turn"] == "Ann"
    assert bob.state()["presses"] == "button"
    phone.close()
    play.type("state")  # the terminal shows what the phones did
    play.proc.stdin.close()
    play.proc.wait(timeout=30)
    play.reader.join(timeout=10)
    shown = "".join(play.lines)
    last = shown[shown.rindex("Phase:"):]
    assert "Phase:     turn" in last and "Top card:  G3" in last
    assert f"Phones: open {play.url}/ and type the PIN {PIN}; the operator's PIN is {OPERATOR_PIN}." in shown


def test_demo_web_shows_the_bots_game_read_only(running):
    demo = running("demo", "--web", "--players", "3", "--seed", "4")
    ann = seat(demo, "Ada")
    watcher = ann.socket()
    first = watcher.receive_until("hello")["state"]
    assert watcher.receive_until("state")["state"] != first  # the bots move on their own
    status, reply = ann.request({"cmd": "uno", "player": "Ada"})
    assert status == 403 and "read-only" in reply["error"]["message"]
    operator = seat(demo, "operator")
    assert operator.request({"cmd": "reload"})[0] == 403
    watcher.close()

