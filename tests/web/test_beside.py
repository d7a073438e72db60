"""The web server beside another front end on one table: `unox play --web` and `unox demo --web`."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time

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


def shown_after(play: Running, text: str, timeout: float = 120.0) -> str:
    """What the terminal printed, once it printed `text` (bounded: a missing line fails the test)."""
    deadline = time.monotonic() + timeout
    while text not in "".join(play.lines):
        if time.monotonic() > deadline:
            raise AssertionError(f"the terminal never said {text!r}:\n" + "".join(play.lines)[-3000:])
        time.sleep(0.02)  # the reader thread's next line
    return "".join(play.lines)


def test_play_web_serves_the_table_the_terminal_drives(running):
    play = running("play", "--plain", "--web", "--players", "Ann,Bob", "--launcher", "sim", "--seed", "1",
                   "--no-journal")
    bob = seat(play, "Bob")
    phone = bob.socket()
    assert phone.receive_until("hello")["state"]["phase"] == "deal"
    play.type("deal Ann")  # typed at the terminal: the phone sees it
    assert phone.receive_until("log")["text"] == "Ann deals 7 cards to each player."
    assert phone.receive_until("state")["state"]["phase"] == "flip"
    operator = seat(play, "operator")
    assert operator.request({"cmd": "flip", "card": "G7"})[1]["state"]["turn"] == "Bob"
    status, reply = bob.request({"cmd": "play", "player": "Bob", "card": "G3"})
    assert status == 200 and reply["state"]["turn"] == "Ann"
    assert bob.state()["presses"] == "host"
    phone.close()
    play.type("")  # the terminal takes in what the phones did, and says it
    play.type("state")
    shown = shown_after(play, "Bob plays G3.")
    assert "First card turned up: G7." in shown
    assert f"Phones: open {play.url}/ and type the PIN {PIN}; the operator's PIN is {OPERATOR_PIN}." in shown


def test_play_web_phones_and_the_terminal_are_peers_over_one_table(running):
    """Finding 13: a hand scored from a phone gets the terminal's dealer rotation (S3: the next dealer),
    so `deal` typed there deals for Bob; a phone presses for its player (the host fires the launcher)."""
    play = running("play", "--plain", "--web", "--players", "Ann,Bob", "--launcher", "sim", "--seed", "1",
                   "--no-journal")
    operator, ann = seat(play, "operator"), seat(play, "Ann")
    assert operator.request({"cmd": "deal", "dealer": "Ann"})[1]["ok"]
    assert operator.request({"cmd": "flip", "card": "G7"})[1]["state"]["turn"] == "Bob"
    for i in range(13):  # Bob and Ann play green in turn; Bob's seventh card ends the hand
        turn = operator.state()["state"]["turn"]
        status, reply = operator.request({"cmd": "play", "player": turn, "card": f"G{1 + i % 9}"})
        assert reply["ok"], reply
    assert reply["state"]["phase"] == "hand_over" and reply["state"]["went_out"] == "Bob"
    scored = operator.request({"cmd": "score", "points": {"Ann": 12, "Bob": 0}})[1]
    assert scored["state"]["phase"] == "deal", scored
    play.type("")
    shown_after(play, "Next hand: Bob deals.")  # the terminal's bookkeeping ran for the phone's score
    play.type("deal")  # no name: the dealer the rotation chose
    shown_after(play, "Bob deals 7 cards to each player.")
    assert operator.request({"cmd": "flip", "card": "B4"})[1]["state"]["turn"] == "Ann"
    status, reply = ann.request({"cmd": "press", "player": "Ann"})  # the launcher is the terminal's
    assert status == 200 and reply["ok"] and reply["launcher"]["requested"] >= 0
    assert reply["launcher"]["fired"] == reply["state"]["hands"]["Ann"] - 7
    play.type("")
    shown_after(play, "Ann presses")


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



def test_play_web_refuses_a_phones_undo_of_fired_cards_in_the_terminals_words(running):
    """Issue 21: beside the terminal the phones drive the table without a night of their own, and their undo
    of a press the launcher fired is still the night's one refusal: `not_undoable`, in the words the
    terminal gives for `undo` typed there (it once was the web's own `press_fired`)."""
    play = running("play", "--plain", "--web", "--players", "Ann,Bob", "--launcher", "sim", "--seed", "1",
                   "--no-journal")
    operator = seat(play, "operator")
    assert operator.request({"cmd": "deal", "dealer": "Ann"})[1]["ok"]
    assert operator.request({"cmd": "flip", "card": "G7"})[1]["state"]["turn"] == "Bob"
    status, pressed = operator.request({"cmd": "press", "player": "Bob"})  # the host fires the launcher
    assert status == 200 and pressed["ok"], pressed
    status, refused = operator.request({"cmd": "undo"})
    assert status == 409 and refused["error"]["code"] == "not_undoable", refused
    assert refused["state"] == pressed["state"]  # nothing went back
    play.type("undo")
    shown = shown_after(play, "not taken: ")
    typed = next(line for line in shown.splitlines() if line.startswith("not taken: "))
    assert typed == "not taken: " + refused["error"]["message"]
