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
Then two more attacks (issue 25), each from its own process (so the attacker never holds this one's GIL),
with a real page load as the probe: a new connection, then `/`, app.js, app.css and GET /api/state on it,
as a browser loads the page. Each in `ROUNDS` rounds of idle loads then attacked loads:

- the slow-body attack: from 16 addresses, POST /api/join with `Content-Length: 10000`, one byte of body
  every 5 s, 32 connections per address held and each re-opened when the server closes it (at up to the
  flood's 2,500 a second);
- the re-opening flood: from 100 addresses, a request line and never the rest, every closed socket
  re-opened, at about 2,500 new connections a second.

Five joined phones (the players and a table view) hold their WebSocket through every attack: each must
still answer a request afterwards (`phones_kept_sockets`).
The last line is JSON: fanout_p99_ms, request_p99_ms, ratio (fan-out p99 / request p99), page_bytes,
idle_request_p99_ms, attack_request_p99_ms, attack_ratio (attack p99 / idle p99; the goal is at most 3),
then for each of `slow_body` and `reopen`: `<name>_idle_load_p99_ms`, `<name>_attack_load_p99_ms`,
`<name>_attack_ratio` (the goal is at most 3), `<name>_opened` (the attacker's new connections),
`<name>_server_cpu_share` and `<name>_attacker_cpu_share` (of one core, while the attacker ran),
`<name>_server_cpu_us_per_conn` and `<name>_loadavg` (the 1-minute load average before and after: the
attacker and the server share this machine's cores), `<name>_listen_overflows` (connections the kernel
dropped on a full accept queue meanwhile: each costs its client a 1 s SYN retry), and `phones_kept_sockets`.
"""

from __future__ import annotations

import argparse
import errno
import http.client
import json
import multiprocessing
import os
import re
import resource
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
sys.path[:0] = [str(ROOT / "host"), str(ROOT)]  # the checkout: the wait for closed sockets is the tests'

from unox.web.client import WebClient  # noqa: E402

from tests.web.sockets import closed_by_server  # noqa: E402

PIN, OPERATOR_PIN = "135713", "864208"
HALF_OPEN = 1050
MAX_HELD = 256  # unox.web.guard.MAX_CONNECTIONS: what the server holds of them until their header deadline
ROUNDS = 4
PLAYERS = ("Ann", "Bob", "Cy", "Dee")
WARMUP = 20
SLOW_ADDRESSES, SLOW_PER_ADDRESS, SLOW_BYTE_EVERY_S = 16, 32, 5.0
REOPEN_ADDRESSES, REOPEN_PER_S, REOPEN_HELD = 100, 2500, 1000
ATTACK_RAMP_S = 3.0  # the attacker runs this long before the attacked loads start (its first burst in)
ATTACK_MAX_S = 120.0  # an attacker stops by itself after this, whatever happens here


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
    phones = [Phone(WebClient(base, tokens[seat].token)) for seat in seats]
    for phone in phones:
        phone.start()
    idle, attacked = attack(base, operator.token, gets)
    idle_p99, attack_p99 = p99(idle), p99(attacked)
    print(f"GET /api/state, a new connection each: idle median {median(idle):.2f} ms, p99 {idle_p99:.2f} ms; "
          f"with {HALF_OPEN} half-open sockets held, median {median(attacked):.2f} ms, "
          f"p99 {attack_p99:.2f} ms")
    floods = {}
    for name, attacker in (("slow_body", slow_bodies), ("reopen", reopening_flood)):
        loads_idle, loads_attacked, opened, cpu = flood_rounds(base, operator.token, gets // 4, attacker,
                                                               proc.pid)
        li, la = p99(loads_idle), p99(loads_attacked)
        print(f"{name}: the slowest attacked loads {sorted(loads_attacked)[-4:]}", file=sys.stderr)
        print(f"{name}: a page load (4 requests, a new connection) idle median {median(loads_idle):.2f} ms, "
              f"p99 {li:.2f} ms; attacked median {median(loads_attacked):.2f} ms, p99 {la:.2f} ms; the "
              f"attacker opened {opened} connections")
        print(f"{name}: while it ran the server used {cpu['server_cpu_share']:.0%} of a core "
              f"({cpu['server_cpu_us_per_conn']:.0f} us per attacker connection), the attacker "
              f"{cpu['attacker_cpu_share']:.0%}; load average {cpu['loadavg'][0]} before, "
              f"{cpu['loadavg'][1]} after; {cpu['listen_overflows']} connections dropped on a full accept "
              "queue")
        floods.update({f"{name}_idle_load_p99_ms": round(li, 3), f"{name}_attack_load_p99_ms": round(la, 3),
                       f"{name}_attack_ratio": round(la / li, 3), f"{name}_opened": opened,
                       **{f"{name}_{key}": value for key, value in cpu.items()}})
    kept = all(phone.still_live() for phone in phones)
    for phone in phones:
        phone.sock.close()
    return {
        "fanout_p99_ms": round(fanout_p99, 3),
        "request_p99_ms": round(request_p99, 3),
        "ratio": round(fanout_p99 / request_p99, 3),
        "page_bytes": page_bytes(base),
        "idle_request_p99_ms": round(idle_p99, 3),
        "attack_request_p99_ms": round(attack_p99, 3),
        "attack_ratio": round(attack_p99 / idle_p99, 3),
        **floods,
        "phones_kept_sockets": kept,
    }


class Phone(threading.Thread):
    """A joined phone's WebSocket, read all the time as a browser reads it (answering the server's pings)."""

    def __init__(self, client: WebClient):
        super().__init__(daemon=True)
        self.sock = client.socket()
        self.sock.receive_until("history")
        self.replies = 0
        self.closed = False
        self.heard = threading.Condition()

    def run(self) -> None:
        try:
            while True:
                if self.sock.receive().get("type") == "reply":
                    with self.heard:
                        self.replies += 1
                        self.heard.notify_all()
        except (ConnectionError, OSError, ValueError):
            with self.heard:
                self.closed = True
                self.heard.notify_all()

    def still_live(self) -> bool:
        """The socket still answers a request: the server closed none of the joined phones."""
        with self.heard:
            if self.closed:
                return False
            before = self.replies
        self.sock.send({"cmd": "state"})
        with self.heard:
            self.heard.wait_for(lambda: self.closed or self.replies > before, timeout=10)
            return not self.closed and self.replies > before


def page_load_ms(host: str, port: int, token: str) -> float:
    """A page load as a browser makes it: a new connection, the page, its script and style, the state."""
    sent = time.perf_counter()
    conn = http.client.HTTPConnection(host, port, timeout=10)
    for path in ("/", "/static/app.js", "/static/app.css", "/api/state"):
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        res = conn.getresponse()
        res.read()
        if res.status != 200:
            raise SystemExit(f"GET {path} answered {res.status}")
    conn.close()
    return (time.perf_counter() - sent) * 1000


def cpu_s(pid: int) -> float:
    """The CPU seconds (user and system) process `pid` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def listen_overflows() -> int:
    """The kernel's count of connections dropped because a listening socket's accept queue was full (a
    client then waits about 1 s for its SYN to be sent again). It counts every socket of this network
    namespace, the server's among them."""
    lines = Path("/proc/net/netstat").read_text().splitlines()
    for names, values in zip(lines[::2], lines[1::2], strict=False):
        if names.startswith("TcpExt:"):
            counts = dict(zip(names.split()[1:], map(int, values.split()[1:]), strict=True))
            return counts.get("ListenOverflows", 0)
    return 0


def run_attacker(attacker, host: str, port: int, stop, count, cpu) -> None:
    """`attacker` in this process, then the CPU seconds it used into `cpu`."""
    attacker(host, port, stop, count)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu.value = usage.ru_utime + usage.ru_stime


def flood_rounds(base: str, token: str, loads: int, attacker,
                 server_pid: int) -> tuple[list[float], list[float], int, dict]:
    """Page loads idle, then while `attacker(host, port, stop, count)` runs in its own process; ROUNDS
    rounds. Returns the idle and attacked load times, how many connections the attacker opened, and where
    the CPU went while it ran: the server's and the attacker's share of one core, the server's CPU per
    attacker connection, and the load average (the attacker and the server share this machine's cores, so
    a busy machine shows in the attacked tail whatever the server does)."""
    host, port = base.split("://")[1].split(":")
    fork = multiprocessing.get_context("fork")
    idle: list[float] = []
    attacked: list[float] = []
    opened = 0
    server_cpu = attacker_cpu = wall = 0.0
    loadavg, overflows = [load_average()], listen_overflows()
    for _ in range(ROUNDS):
        idle += [page_load_ms(host, int(port), token) for _ in range(loads // ROUNDS)]
        stop, count, used = fork.Event(), fork.Value("l", 0), fork.Value("d", 0.0)
        proc = fork.Process(target=run_attacker, args=(attacker, host, int(port), stop, count, used),
                            daemon=True)
        began, server_began = time.perf_counter(), cpu_s(server_pid)
        proc.start()
        try:
            stop.wait(ATTACK_RAMP_S)  # the attack's ramp; `stop` is never set here, so this is its time
            attacked += [page_load_ms(host, int(port), token) for _ in range(loads // ROUNDS)]
        finally:
            stop.set()
            proc.join(timeout=30)
            if proc.is_alive():
                proc.kill()
        wall += time.perf_counter() - began
        server_cpu += cpu_s(server_pid) - server_began
        attacker_cpu += used.value
        opened += count.value
    loadavg.append(load_average())
    overflows = listen_overflows() - overflows
    cpu = {"server_cpu_share": round(server_cpu / wall, 3),
           "attacker_cpu_share": round(attacker_cpu / wall, 3),
           "server_cpu_us_per_conn": round(1e6 * server_cpu / max(1, opened), 1), "loadavg": loadavg,
           "listen_overflows": overflows}
    return idle, attacked, opened, cpu


class Attacker:
    """Non-blocking sockets from many loopback addresses: `open_one` connects, `on_connected` sends the
    opening, and each socket the server closes is counted and forgotten (the caller re-opens)."""

    def __init__(self, host: str, port: int, count):
        self.host, self.port, self.count = host, port, count
        self.selector = selectors.DefaultSelector()
        self.live: dict[socket.socket, str] = {}  # socket -> its source address
        self.connected: set[socket.socket] = set()

    def open_one(self, source: str) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((source, 0))
            code = sock.connect_ex((self.host, self.port))
        except OSError:
            sock.close()
            return
        if code not in (0, errno.EINPROGRESS):
            sock.close()
            return
        self.live[sock] = source
        self.selector.register(sock, selectors.EVENT_WRITE)
        self.count.value += 1

    def forget(self, sock: socket.socket) -> None:
        self.selector.unregister(sock)
        self.live.pop(sock, None)
        self.connected.discard(sock)
        sock.close()

    def poll(self, timeout: float, opening: bytes) -> None:
        for key, events in self.selector.select(timeout=timeout):
            sock = key.fileobj
            if sock not in self.connected and events & selectors.EVENT_WRITE:
                try:
                    sock.send(opening)
                except OSError:
                    self.forget(sock)
                    continue
                self.connected.add(sock)
                self.selector.modify(sock, selectors.EVENT_READ)
            elif events & selectors.EVENT_READ:
                try:
                    data = sock.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    self.forget(sock)

    def close(self) -> None:
        for sock in list(self.live):
            self.forget(sock)
        self.selector.close()


def slow_bodies(host: str, port: int, stop, count) -> None:
    """SLOW_PER_ADDRESS trickled POST bodies from each of SLOW_ADDRESSES addresses, each re-opened as soon
    as the server closes it (loopback only; stops on `stop` or after ATTACK_MAX_S)."""
    head = (f"POST /api/join HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            "Content-Length: 10000\r\n\r\n{").encode()
    attacker = Attacker(host, port, count)
    sources = [f"127.0.60.{1 + i}" for i in range(SLOW_ADDRESSES)]
    started = last_byte = time.monotonic()
    ends, made = started + ATTACK_MAX_S, 0
    while not stop.is_set() and time.monotonic() < ends:
        held: dict[str, int] = {}
        for source in attacker.live.values():
            held[source] = held.get(source, 0) + 1
        due = int((time.monotonic() - started) * REOPEN_PER_S) - made  # re-opened at the flood's rate
        for source in sources:
            for _ in range(max(0, min(due, SLOW_PER_ADDRESS - held.get(source, 0)))):
                attacker.open_one(source)
                due -= 1
        made = int((time.monotonic() - started) * REOPEN_PER_S)
        attacker.poll(0.002, head)
        if time.monotonic() - last_byte >= SLOW_BYTE_EVERY_S:  # one more byte of each body
            last_byte = time.monotonic()
            for sock in list(attacker.connected):
                try:
                    sock.send(b" ")
                except OSError:
                    attacker.forget(sock)
    attacker.close()


def reopening_flood(host: str, port: int, stop, count) -> None:
    """Half-sent requests from REOPEN_ADDRESSES addresses at REOPEN_PER_S new connections a second, every
    one the server closes re-opened, at most REOPEN_HELD at once (loopback only; bounded in time)."""
    attacker = Attacker(host, port, count)
    started = time.monotonic()
    ends = started + ATTACK_MAX_S
    made = 0
    while not stop.is_set() and time.monotonic() < ends:
        due = int((time.monotonic() - started) * REOPEN_PER_S) - made
        for i in range(max(0, min(due, REOPEN_HELD - len(attacker.live)))):
            attacker.open_one(f"127.0.70.{1 + (made + i) % REOPEN_ADDRESSES}")
        made += max(0, due)  # what found no room is skipped, never saved up for a burst
        attacker.poll(0.002, b"GET / HTTP/1.1\r\n")
    attacker.close()


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
                try:
                    sock.connect((host, int(port)))
                    sock.sendall(b"GET / HTTP/1.1\r\n")
                except OSError:  # already pushed out, or refused past its address's allowance
                    pass
                held.append(sock)
            settle_ms = closed_by_server(held, HALF_OPEN - MAX_HELD)[1]  # the burst is taken in
            attacked += [get_state_ms(host, int(port), token) for _ in range(gets // rounds)]
        finally:
            for sock in held:
                sock.close()
        print(f"the server took in the burst of {HALF_OPEN} in {settle_ms:.0f} ms (all but {MAX_HELD} pushed "
              "out)")
    return idle, attacked


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
