"""The web server's fan-out: a request's reply -> the last of ten WebSocket clients holding the new state.

    .venv/bin/python bench/web.py [--requests 400] [--clients 10]

Starts `unox serve` as a real process (no launcher: the requests cost only the table and the server),
connects `--clients` WebSocket clients (players and table views, through `unox.web.client`), then sends
`--requests` changes one at a time over one keep-alive HTTP connection (an advice penalty, then its undo,
and again). For each: the request's own round trip (POST sent -> reply read), the baseline; and the fan-out
(reply read -> the last client has read the state that request made, 0 when every client had it before
the reply arrived). The requester waits for every client before the next request, so nothing overlaps.
Also: the page's HTML + JS + CSS as served, and the server's VmRSS with the clients connected.

Then the attack (issue 15): the server runs under `prlimit --nofile=1024`; `--gets` GET /api/state, each on
a new connection as a phone's would be, first idle (the baseline), then while 1,050 half-open sockets (a
request line and never the rest of the headers, from 100 loopback addresses) are held: once the server has
taken the burst in (it pushes out all but the 256 it holds; that time is printed too). Four rounds of idle
then attacked GETs, so both see the same background load on a shared machine.
The last line is JSON: fanout_p99_ms, request_p99_ms, ratio (fan-out p99 / request p99), page_bytes,
idle_request_p99_ms, attack_request_p99_ms, attack_ratio (attack p99 / idle p99; the goal is at most 3).
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "host")]

from unox.web.client import WebClient  # noqa: E402

PIN, OPERATOR_PIN = "135713", "864208"
HALF_OPEN = 1050
MAX_HELD = 256  # unox.web.guard.MAX_CONNECTIONS: what the server holds of them until their header deadline
ROUNDS = 4
PLAYERS = ("Ann", "Bob", "Cy", "Dee")
WARMUP = 20


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


class Listener(threading.Thread):
    """One WebSocket client: the time it read each state message, in order."""

    def __init__(self, client: WebClient, received: threading.Condition):
        super().__init__(daemon=True)
        self.sock = client.socket()
        self.sock.receive_until("hello")
        self.times: list[tuple[float, dict]] = []
        self.received = received

    def run(self) -> None:
        try:
            while True:
                message = self.sock.receive()
                if message.get("type") == "state":
                    now = time.perf_counter()
                    with self.received:
                        self.times.append((now, message["state"]))
                        self.received.notify_all()
        except (ConnectionError, OSError):
            return


SERVER_LINES: list[str] = []


def start_server(workdir: Path) -> tuple[subprocess.Popen, str]:
    limit = ["prlimit", "--nofile=1024", "--"] if shutil.which("prlimit") else []
    command = [*limit, sys.executable, "-m", "unox", "serve", "--players", ",".join(PLAYERS), "--launcher",
               "script", "--host", "127.0.0.1", "--port", "0", "--pin", PIN, "--operator-pin", OPERATOR_PIN]
    proc = subprocess.Popen(command, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = SERVER_LINES
    for line in proc.stdout:
        lines.append(line)
        found = re.search(r"open (http://\S+) on each phone", line)
        if found:
            # keep reading what it prints, so a full pipe can never stop the server
            threading.Thread(target=lambda: [lines.append(x) for x in proc.stdout], daemon=True).start()
            return proc, found.group(1).rstrip("/")
    raise SystemExit("unox serve did not start:\n" + "".join(lines))


def page_bytes(base: str) -> int:
    client = WebClient(base)
    total = 0
    for path in ("/", "/static/app.js", "/static/app.css"):
        with client_get(client, path) as res:
            total += len(res.read())
    return total


def client_get(client: WebClient, path: str):
    import urllib.request

    return urllib.request.urlopen(client.base + path, timeout=30)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run(requests: int, clients: int, gets: int) -> dict:
    with tempfile.TemporaryDirectory() as workdir:
        proc, base = start_server(Path(workdir))
        try:
            return measure(proc, base, requests, clients, gets)
        except BaseException:
            print("".join(SERVER_LINES[-40:]), file=sys.stderr)
            raise
        finally:
            proc.terminate()
            proc.wait(timeout=20)


def measure(proc: subprocess.Popen, base: str, requests: int, clients: int, gets: int) -> dict:
    operator = WebClient(base)
    operator.join(OPERATOR_PIN, "operator")
    received = threading.Condition()
    seats = (*PLAYERS, "table")
    tokens = {seat: WebClient(base) for seat in seats}  # one phone per player's seat: a seat joins once
    for seat, client in tokens.items():
        client.join(PIN, seat)
    listeners = []
    for i in range(clients):
        listeners.append(Listener(WebClient(base, tokens[seats[i % len(seats)]].token), received))
    for listener in listeners:
        listener.start()
    host, port = base.split("://")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.connect()
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as browsers do: no Nagle stall
    headers = {"Authorization": f"Bearer {operator.token}", "Content-Type": "application/json"}

    def post(request: dict) -> tuple[float, float, dict]:
        sent = time.perf_counter()
        conn.request("POST", "/api/requests", json.dumps(request), headers)
        reply = json.loads(conn.getresponse().read())
        return sent, time.perf_counter(), reply

    post({"cmd": "deal", "dealer": "Ann"})
    post({"cmd": "flip", "card": "G7"})
    with received:
        received.wait_for(lambda: all(len(x.times) >= 2 for x in listeners), timeout=30)
    seen = 2
    rtts, fanouts = [], []
    for i in range(requests + WARMUP):
        advice = {"cmd": "penalty", "player": PLAYERS[i % 4], "kind": "advice"}
        request = advice if i % 2 == 0 else {"cmd": "undo"}
        sent, replied, reply = post(request)
        assert reply["ok"], reply
        seen += 1
        with received:
            if not received.wait_for(lambda n=seen: all(len(x.times) >= n for x in listeners), timeout=30):
                raise SystemExit(f"request {i}: not every client got the new state")
            last = max(x.times[seen - 1][0] for x in listeners)
            assert all(x.times[seen - 1][1] == reply["state"] for x in listeners)
        if i >= WARMUP:
            rtts.append((replied - sent) * 1000)
            fanouts.append(max(0.0, last - replied) * 1000)
    memory = rss_mb(proc.pid)
    conn.close()
    for listener in listeners:
        listener.sock.close()
    request_p99, fanout_p99 = p99(rtts), p99(fanouts)
    print(f"{requests} requests, {clients} WebSocket clients; server VmRSS {memory:.1f} MB with them")
    print(f"request round trip: median {median(rtts):.2f} ms, p99 {request_p99:.2f} ms")
    print(f"fan-out to the last client: median {median(fanouts):.2f} ms, p99 {fanout_p99:.2f} ms")
    idle, attacked = attack(base, operator.token, gets)
    idle_p99, attack_p99 = p99(idle), p99(attacked)
    print(f"GET /api/state, a new connection each: idle median {median(idle):.2f} ms, p99 {idle_p99:.2f} ms; "
          f"with {HALF_OPEN} half-open sockets held, median {median(attacked):.2f} ms, "
          f"p99 {attack_p99:.2f} ms")
    return {
        "fanout_p99_ms": round(fanout_p99, 3),
        "request_p99_ms": round(request_p99, 3),
        "ratio": round(fanout_p99 / request_p99, 3),
        "page_bytes": page_bytes(base),
        "idle_request_p99_ms": round(idle_p99, 3),
        "attack_request_p99_ms": round(attack_p99, 3),
        "attack_ratio": round(attack_p99 / idle_p99, 3),
    }


def get_state_ms(host: str, port: int, token: str) -> float:
    """One GET /api/state on a new connection, as a phone's page would send it; its round trip in ms."""
    sent = time.perf_counter()
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("GET", "/api/state", headers={"Authorization": f"Bearer {token}"})
    res = conn.getresponse()
    res.read()
    conn.close()
    if res.status != 200:
        raise SystemExit(f"GET /api/state answered {res.status}")
    return (time.perf_counter() - sent) * 1000


def attack(base: str, token: str, gets: int, rounds: int = ROUNDS) -> tuple[list[float], list[float]]:
    """The GETs' round trips idle, then while HALF_OPEN half-open sockets are held (loopback only); in
    `rounds` rounds, so the idle and the attacked samples see the same background load."""
    host, port = base.split("://")[1].split(":")
    for _ in range(WARMUP):
        get_state_ms(host, int(port), token)
    idle: list[float] = []
    attacked: list[float] = []
    for _ in range(rounds):
        idle += [get_state_ms(host, int(port), token) for _ in range(gets // rounds)]
        held = []
        try:
            for i in range(HALF_OPEN):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.settimeout(10)
                sock.bind((f"127.0.0.{2 + i % 100}", 0))
                sock.connect((host, int(port)))
                try:
                    sock.sendall(b"GET / HTTP/1.1\r\n")
                except OSError:  # already pushed out by the server
                    pass
                held.append(sock)
            settle_ms = taken_in(held, HALF_OPEN - MAX_HELD)
            attacked += [get_state_ms(host, int(port), token) for _ in range(gets // rounds)]
        finally:
            for sock in held:
                sock.close()
        print(f"the server took in the burst of {HALF_OPEN} in {settle_ms:.0f} ms (all but {MAX_HELD} pushed "
              "out)")
    return idle, attacked


def taken_in(sockets: list[socket.socket], closed: int, timeout: float = 5.0) -> float:
    """Milliseconds until the server has closed `closed` of `sockets` (the burst is taken in: the rest are
    held open for their header deadline); bounded by `timeout`."""
    started = time.perf_counter()
    selector = selectors.DefaultSelector()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    done = 0
    while done < closed and time.perf_counter() - started < timeout:
        for key, _ in selector.select(timeout=0.1):
            try:
                data = key.fileobj.recv(1024)
            except OSError:
                data = b""
            if not data:
                selector.unregister(key.fileobj)
                done += 1
    selector.close()
    return (time.perf_counter() - started) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--gets", type=int, default=400, help="GET /api/state idle, and as many under attack")
    args = parser.parse_args()
    print(json.dumps(run(args.requests, args.clients, args.gets)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
