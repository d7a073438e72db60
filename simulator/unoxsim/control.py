"""The simulated launcher's front panel from outside: line commands over a Unix socket.

A real launcher is pressed by hand; `unox simulate-device --pty` has no hand, so it opens a control socket
(`--control PATH`) that takes one command per line and answers one line:

    press [hold_ms]     a finger on the button (default 120 ms, at most 60 s) -> ok
    count               the simulated hopper's ground truth, as JSON  -> {"ejected": 12, "hopper": 71, ...}
    lid open|shut       the lid switch                                 -> ok
    take                a player pulls what sticks out of the slot     -> ok 1 (cards taken)
    load N              N cards put into the hopper                    -> ok
    unplug | plug       the USB cable (the board runs on)              -> ok

Anything else gets `error: ...` naming the commands. `send(path, "press")` is the client.
`count`'s fields: `ejected` (cards that left the launcher), `in_slot` (cards stopped with their front past the
beam, for the presser), `hopper` (cards left in it), `in_path` (cards between hopper and exit), `loaded`
(cards put in since start), `boots`, `now_ms` (virtual time); and what the firmware itself says: `counted`
(cards its beam counted since boot), `presses` (button presses it took), `firing` (1 while a fire runs);
`glitches` (spurious lows and highs the `glitch` fault put on the beam line); `alone` (fires the
firmware made alone that no host has acknowledged with TAKEN yet) and `alone_cards` (the cards they fired).
"""

from __future__ import annotations

import json
import os
import socket
import stat

from unoxsim.device import VirtualDevice

COMMANDS = "press [hold_ms], count, lid open|shut, take, load N, unplug, plug"
_MAX_LINE = 256
MAX_HOLD_MS = 60_000  # a finger held longer than a minute is a typo, not a press: `press 99999999` was a day


def hopper_count(device: VirtualDevice) -> dict[str, int]:
    """The ground truth a crash test compares with a journal: where every loaded card is; plus what the
    firmware says of itself where it runs in this process (an emulated chip's firmware is only heard)."""
    model = device.model
    count = {"ejected": model.ejected, "in_slot": model.past_beam(), "hopper": model.hopper,
             "in_path": model.in_path(), "loaded": model.loaded, "boots": device.boots,
             "now_ms": device.now_ms()}
    resets = getattr(device, "resets", None)  # an emulated chip's: (ms, reason) of each reset
    if resets:
        count["booted_ms"] = int(resets[-1][0])  # when it last came out of reset
    app = getattr(device, "app", None)
    if app is not None:
        count.update(counted=app.counted, presses=app.presses_taken, firing=int(app.feeder.busy()),
                     glitches=device.glitches, alone=len(app.alone),
                     alone_cards=sum(entry[1] for entry in app.alone))
    return count


def command(device: VirtualDevice, line: str) -> str:
    """Runs one control command on the device; returns the one-line answer."""
    words = line.split()
    if not words:
        return f"error: empty command; use {COMMANDS}"
    name, args = words[0].lower(), words[1:]
    try:
        if name == "press" and len(args) <= 1:
            device.press_button(_hold_ms(args[0]) if args else 120)
        elif name == "count" and not args:
            return json.dumps(hopper_count(device), sort_keys=True)
        elif name == "lid" and args == ["open"]:
            device.open_lid()
        elif name == "lid" and args == ["shut"]:
            device.close_lid()
        elif name == "take" and not args:
            return f"ok {device.take_stuck()}"
        elif name == "load" and len(args) == 1:
            device.load_cards(int(args[0]))
        elif name == "unplug" and not args:
            device.unplug()
        elif name == "plug" and not args:
            device.plug()
        else:
            return f"error: unknown command {line.strip()!r}; use {COMMANDS}"
    except ValueError as exc:
        return f"error: {exc}"
    return "ok"


def _hold_ms(text: str) -> int:
    if not (text.isdigit() and len(text) <= 6 and 1 <= int(text) <= MAX_HOLD_MS):
        raise ValueError(f"press {text[:20]}: hold_ms is a whole number of milliseconds, 1 to {MAX_HOLD_MS}")
    return int(text)


class ControlSocket:
    """A listening Unix socket; `fds()` go into the server's select, `serve(readable)` answers."""

    def __init__(self, device: VirtualDevice, path: str) -> None:
        self.device = device
        self.path = path
        _clear_stale(path)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(4)
        self.listener.setblocking(False)
        self.clients: dict[socket.socket, bytearray] = {}

    def fds(self) -> list[socket.socket]:
        return [self.listener, *self.clients]

    def serve(self, readable: list) -> None:
        for sock in readable:
            if sock is self.listener:
                self._accept()
            elif sock in self.clients:
                self._read(sock)

    def _accept(self) -> None:
        try:
            client, _ = self.listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        client.setblocking(False)
        self.clients[client] = bytearray()

    def _read(self, client: socket.socket) -> None:
        try:
            data = client.recv(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._drop(client)
            return
        buffer = self.clients[client]
        buffer += data
        while b"\n" in buffer:
            line, _, rest = bytes(buffer).partition(b"\n")
            buffer[:] = rest
            answer = command(self.device, line.decode("ascii", "replace"))
            try:
                client.sendall(answer.encode() + b"\n")
            except OSError:
                self._drop(client)
                return
        if len(buffer) > _MAX_LINE:
            self._drop(client)

    def _drop(self, client: socket.socket) -> None:
        self.clients.pop(client, None)
        client.close()

    def close(self) -> None:
        for client in list(self.clients):
            self._drop(client)
        self.listener.close()
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass


def _clear_stale(path: str) -> None:
    """A socket left by a simulator that was killed (`kill -9` removes nothing) is removed when no one
    listens on it; a live simulator's socket, or a file that is not a socket, is refused."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise ValueError(f"{path} exists and is not a control socket: remove it or choose another --control")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
        except ConnectionRefusedError:
            os.unlink(path)  # nobody listens: left behind by a simulator that was killed
            return
        except OSError as exc:
            raise ValueError(f"control socket {path} cannot be checked ({exc}); choose another --control"
                             ) from None
    raise ValueError(f"a simulator is already running with --control {path}: stop it, or choose another "
                     "--control")


def send(path: str, line: str, timeout: float = 5.0) -> str:
    """One command to a running simulator's control socket; its one-line answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(path)
        sock.sendall(line.strip().encode() + b"\n")
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.decode().strip()
