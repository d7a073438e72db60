"""The web API against a real `unox serve` process: the PIN, the tokens, the seats, the protocol replies."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from unox.web.client import ApiError, WebClient

from tests.web.conftest import PIN, seat

DEAL = {"cmd": "deal", "dealer": "Ann"}


@pytest.fixture
def table(serve):
    """A served table without a launcher (`--launcher script`): Ann, Bob and Cy."""
    return serve("--players", "Ann,Bob,Cy", "--launcher", "script")


def test_a_wrong_pin_is_401_and_five_in_a_minute_lock_the_client_out(table):
    client = WebClient(table.url)
    for i in range(5):
        status, reply = client.call("/api/join", {"pin": f"000{i}", "seat": "Ann"})
        assert (status, reply["error"]["code"]) == (401, "bad_pin")
    status, reply = client.call("/api/join", {"pin": PIN, "seat": "Ann"})
    assert (status, reply["error"]["code"]) == (429, "locked_out")
    assert "locked for 60 s" in reply["error"]["message"]


def test_every_endpoint_but_join_needs_a_valid_token(table):
    anonymous, forged = WebClient(table.url), WebClient(table.url, token="not-a-token")
    for client in (anonymous, forged):
        assert client.call("/api/state")[0] == 401
        status, reply = client.request({"cmd": "state"})
        assert (status, reply["error"]["code"]) == (401, "no_token")
        with pytest.raises(ApiError) as refused:
            client.socket()
        assert refused.value.status == 401


def test_join_sets_an_httponly_cookie_and_refuses_an_unknown_seat(table):
    import urllib.request

    body = json.dumps({"pin": PIN, "seat": "Bob"}).encode()
    with urllib.request.urlopen(urllib.request.Request(table.url + "/api/join", data=body)) as res:
        cookie = res.headers["set-cookie"]
        token = json.loads(res.read())["token"]
    assert cookie.startswith(f"unox_token={token};") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    status, reply = WebClient(table.url).call("/api/join", {"pin": PIN, "seat": "Zed"})
    assert status == 400 and "Ann, Bob, Cy, operator, table" in reply["error"]["message"]


def test_a_players_token_acts_only_for_that_player(table):
    operator, ann, bob = seat(table, "operator"), seat(table, "Ann"), seat(table, "Bob")
    assert operator.request(DEAL)[1]["ok"]
    assert operator.request({"cmd": "flip", "card": "G7"})[1]["state"]["turn"] == "Bob"
    before = operator.state()["state"]
    for request in ({"cmd": "play", "player": "Bob", "card": "G3"},
                    {"cmd": "press", "player": "Bob", "fired": 1}, {"cmd": "uno", "player": "Bob"},
                    {"cmd": "catch", "player": "Bob", "by": "Cy"},
                    {"cmd": "reload"}, {"cmd": "undo"}, {"cmd": "penalty", "player": "Bob", "kind": "advice"},
                    {"cmd": "score", "points": {"Ann": 0}}, DEAL):
        status, reply = ann.request(request)
        assert status == 403, request
        assert reply["ok"] is False and reply["error"]["code"] == "forbidden" and reply["error"]["message"]
        assert reply["state"] == before
    status, reply = bob.request({"cmd": "play", "player": "Bob", "card": "G3"})
    assert status == 200 and reply["ok"] and reply["state"]["turn"] == "Cy"


def test_the_table_views_token_is_read_only(table):
    view = seat(table, "table")
    status, reply = view.request(DEAL)
    assert status == 403 and "only shows the table" in reply["error"]["message"]
    assert view.request({"cmd": "state"})[0] == 200
    assert view.state()["seat"] == "table"


def test_requests_are_answered_exactly_as_unox_table_answers_them(table, tmp_path):
    """The same requests through `unox table` and through the API: the same replies, refusals included."""
    lines = [json.dumps(DEAL), json.dumps({"cmd": "flip", "card": "G7"}),
             json.dumps({"cmd": "play", "player": "Bob", "card": "R5"}), json.dumps({"cmd": "hello"}),
             json.dumps({"cmd": "play", "player": "Bob", "card": "G7", "colour": "red"}), "{cmd:state}",
             json.dumps({"cmd": "play", "player": "Bob", "card": "WA", "color": "red"}),
             json.dumps({"cmd": "undo"})]
    jsonl = subprocess.run([sys.executable, "-m", "unox", "table", "--players", "Ann,Bob,Cy"],
                           input="\n".join(lines), capture_output=True, text=True, check=True, cwd=tmp_path)
    expected = [json.loads(line) for line in jsonl.stdout.splitlines()]
    operator = seat(table, "operator")
    got = [operator.call("/api/requests", raw=line.encode()) for line in lines]
    assert [status for status, _ in got] == [200] * len(lines)
    assert [reply for _, reply in got] == expected
    assert [r["ok"] for r in expected] == [True, True, False, False, False, False, True, True]


def test_the_websocket_pushes_each_change_and_its_log_and_takes_requests(table):
    operator, cy = seat(table, "operator"), seat(table, "Cy")
    watcher = cy.socket()
    assert watcher.receive_until("hello")["state"]["phase"] == "deal"
    operator.request(DEAL)
    assert watcher.receive_until("log")["text"] == "Ann deals 7 cards to each player."
    assert watcher.receive_until("state")["state"]["phase"] == "flip"
    sock = operator.socket()
    sock.send({"cmd": "flip", "card": "G7"})
    reply = sock.receive_until("reply")
    assert reply["status"] == 200 and reply["reply"]["state"]["turn"] == "Bob"
    assert watcher.receive_until("state")["state"]["turn"] == "Bob"
    sock.send({"cmd": "reload"})  # nothing to reload: the table's refusal comes back on the socket
    assert sock.receive_until("reply")["reply"]["error"]["code"] == "nothing_to_reload"
    cy_sock = cy.socket()
    cy_sock.send({"cmd": "play", "player": "Bob", "card": "G3"})
    forbidden = cy_sock.receive_until("reply")
    assert forbidden["status"] == 403 and forbidden["reply"]["error"]["code"] == "forbidden"
    cy_sock.send("not a request")
    assert cy_sock.receive_until("reply")["reply"]["error"]["code"] == "bad_request"
    for s in (watcher, sock, cy_sock):
        s.close()


def test_a_body_that_is_not_json_gets_the_tables_bad_json(table):
    ann = seat(table, "Ann")
    status, reply = ann.call("/api/requests", raw=b"\xff\xfe not json")
    assert status == 200 and reply["error"]["code"] == "bad_json"
    status, reply = ann.call("/api/requests", raw=b"[" * 20_000)
    assert status == 200 and reply["error"]["code"] == "bad_json"
    assert "longer than" in reply["error"]["message"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--players", "Ann,operator", "--host", "127.0.0.1"], "may not be called 'operator'"),
        (["--players", "Ann,Table", "--host", "127.0.0.1"], "may not be called 'Table'"),
        (["--players", "Ann,Bob", "--host", "0.0.0.0", "--pin", ""], "without a PIN"),
        (["--players", "Ann,Bob", "--host", "127.0.0.1", "--pin", "12a4"], "give 4 to 12 digits"),
    ],
)
def test_serve_refuses_a_bad_start_in_one_line(args, says, tmp_path):
    """(`--port 70000` is a usage error, exit 2: tests/cli/test_option_convention.py)"""
    command = [sys.executable, "-m", "unox", "serve", "--launcher", "script", "--port", "0", *args]
    run = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert run.returncode == 1
    assert run.stderr.startswith("unox: error: ") and run.stderr.count("\n") == 1 and says in run.stderr


def test_a_port_already_taken_is_one_line(table, tmp_path):
    port = table.url.rsplit(":", 1)[1]
    command = [sys.executable, "-m", "unox", "serve", "--players", "Ann,Bob", "--launcher", "script",
               "--host", "127.0.0.1", "--port", port, "--pin", PIN]
    run = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert run.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in run.stderr


def test_loopback_without_a_pin_lets_anyone_on_this_machine_join(serve):
    served = serve("--players", "Ann,Bob", "--launcher", "script", pin="")
    assert "PIN: none (loopback only)" in "".join(served.lines)
    client = WebClient(served.url)
    client.join(None, "Ann")
    assert client.state()["seat"] == "Ann"


def test_ten_websocket_clients_keep_unox_serve_under_80_mb(serve):
    """A memory budget (a Pi Zero 2 W has 512 MB), not a timing: VmRSS of the real process."""
    served = serve("--players", "Ann,Bob,Cy,Dee", "--launcher", "sim", "--seed", "1")
    operator = seat(served, "operator")
    clients = [seat(served, name) for name in ("Ann", "Bob", "Cy", "Dee", "table")]
    sockets = [client.socket() for client in clients * 2]
    operator.request({"cmd": "deal", "dealer": "Ann"})
    operator.request({"cmd": "flip", "card": "G7"})
    for sock in sockets:
        assert sock.receive_until("state")["state"]["phase"] == "flip"
        assert sock.receive_until("state")["state"]["turn"] == "Bob"
    status = open(f"/proc/{served.pid}/status").read().splitlines()
    rss_kb = int(next(line.split()[1] for line in status if line.startswith("VmRSS")))
    assert rss_kb < 80 * 1024, f"unox serve uses {rss_kb / 1024:.1f} MB with ten clients"
    for sock in sockets:
        sock.close()


def test_a_press_the_launcher_fired_cannot_be_undone_but_a_play_can(serve):
    served = serve("--players", "Ann,Bob", "--launcher", "sim", "--seed", "3", "--profile", "arduino")
    operator, bob = seat(served, "operator"), seat(served, "Bob")
    operator.request(DEAL)
    operator.request({"cmd": "flip", "card": "B4"})
    status, reply = bob.request({"cmd": "press", "player": "Bob"})
    assert status == 200 and reply["launcher"]["fired"] == reply["launcher"]["requested"] == 3
    status, refused = operator.request({"cmd": "undo"})
    assert status == 409 and refused["error"]["code"] == "not_undoable" and refused["state"] == reply["state"]
    assert "its cards are already out" in refused["error"]["message"]  # the table night's own words
    operator.request({"cmd": "play", "player": "Ann", "card": "B7"})
    status, undone = operator.request({"cmd": "undo"})
    assert status == 200 and undone["state"] == reply["state"]


def test_unox_serve_prints_the_tables_events_as_a_transcript(table):
    operator = seat(table, "operator")
    operator.request(DEAL)
    operator.request({"cmd": "flip", "card": "G7"})
    assert table.stop().endswith("Ann deals 7 cards to each player.\nFirst card turned up: G7.\n")
