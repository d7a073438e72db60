"""The table's side of the web server: requests run off the event loop, changes fan out to every socket.

The table runtime is driven from worker threads (a launcher fire blocks for as long as the motor runs), and
its listeners may be called from any thread (the terminal UI's, the launcher's button loop). Everything
that reaches a browser goes through `Hub.broadcast`, on the event loop, into each client's own queue, so
every client sees the events in the same order and a slow phone never holds up the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from unox.table.jsonl import answer
from unox.table.narrate import describe
from unox.table.runtime import REFUSED_PREFIX, Table, apply_request

log = logging.getLogger(__name__)

HISTORY = 60  # log lines a page gets when it connects, so a reload shows what just happened
QUEUE_LIMIT = 256  # messages waiting for one client; a client that far behind is dropped
WATCH_INTERVAL_S = 1.0  # a change made by another front end without a log line still shows within this

Message = dict[str, Any]


def encode(message: Message) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True)


class Client:
    """One WebSocket's outgoing queue; `send` drains it in order."""

    def __init__(self, seat: str, token: str | None = None):
        self.seat, self.token = seat, token
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    def put(self, text: str) -> bool:
        if self.queue.qsize() >= QUEUE_LIMIT:
            return False
        self.queue.put_nowait(text)
        return True


def journal_history(table: Table, limit: int = HISTORY) -> list[str]:
    """The log lines of the requests the table accepted so far, told again from its own entries: after a
    restart the phones see what happened, not where the journal lives."""
    settings = getattr(table, "settings", None)
    if settings is None or not table.entries:
        return []
    game, lines = settings.build_game(), deque(maxlen=limit)
    for request in table.entries:
        before = game.state()
        apply_request(game, request)
        lines.extend(describe(request, before, game.state()))
    return list(lines)


class Hub:
    """One table, its lock, its sockets; `after_change(before, reply)` hooks run inside the lock."""

    def __init__(self, table: Table, *, after_change: Callable[[dict, Any], None] | None = None,
                 fire_lock: Any = None, night: Any = None):
        self.table = table
        # The table night the phones drive (`unox serve`): requests and the launcher's presses go through
        # it, so the phones get its bookkeeping and its narration, as the terminal does. Without one (beside
        # the terminal UI, whose night takes in the phones' changes itself), the table directly.
        self.night = night
        # Beside another front end that talks to the launcher (`unox play --web`): its lock, taken before
        # the table's (the order that front end takes them in), so a phone's fire never cuts into its poll.
        self.fire_lock = fire_lock if fire_lock is not None else contextlib.nullcontext()
        # The table's one lock (a public `lock` if the runtime grows one): a fire and a poll never overlap.
        self.lock: threading.RLock = getattr(table, "lock", None) or table._lock
        self.after_change = after_change
        self.clients: set[Client] = set()
        self.history: deque[str] = deque(journal_history(table), maxlen=HISTORY)
        self.device: dict[str, Any] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._state_text = ""
        self._check_pending = False
        self._watcher: asyncio.Task | None = None
        self._heard = night.listeners if night is not None else table.listeners
        self._heard.append(self._on_event)
        if night is not None:
            night.watch_others()  # lines the table tells outside the night's calls reach it (and so here)

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._state_text = encode(await asyncio.to_thread(self.state))
        self._watcher = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
        for client in list(self.clients):
            client.queue.put_nowait(None)
        if self._on_event in self._heard:
            self._heard.remove(self._on_event)

    # -- the table ------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        with self.lock:
            return self.table.state()

    def handle(self, line: str | bytes) -> dict[str, Any]:
        """One request line, in a worker thread; the reply is exactly `unox table`'s to that line."""
        with self.fire_lock:
            return self.change(lambda: answer(self.night or self.table, line))

    def button(self) -> dict[str, Any]:
        """A press the launcher took (the button loop, in the table's lock): through the night if any."""
        return (self.night or self.table).button()

    def accept_launcher(self) -> str:
        """In a worker thread: the operator takes the launcher now at the port (another board) as the
        table's, through the night (`Night.accept_launcher`: Refused, nothing changed, when none is there);
        under the table's lock, which the button loop holds while it talks to the launcher."""
        if self.night is None:
            from unox.table.night_context import Refused

            raise Refused("the terminal drives this table's launcher: type `launcher accept` there")
        with self.fire_lock, self.lock:
            return self.night.accept_launcher()

    def change(self, act: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """`act()` on the table in its lock; an accepted change then runs the `after_change` hook."""
        with self.lock:
            before = self.table.state()
            reply = act()
            if self.after_change is not None and reply.get("ok"):
                self.after_change(before, reply)
            return reply

    async def request(self, line: str | bytes) -> dict[str, Any]:
        reply = await asyncio.to_thread(self.handle, line)
        self.publish_state(reply["state"])
        return reply

    # -- fan-out --------------------------------------------------------------------------------

    def add(self, client: Client) -> None:
        self.clients.add(client)

    def remove(self, client: Client) -> None:
        self.clients.discard(client)

    def broadcast(self, message: Message) -> None:
        """On the event loop: one message into every client's queue, encoded once."""
        text = encode(message)
        for client in list(self.clients):
            if not client.put(text):
                log.warning("dropping a %s client that stopped reading", client.seat)
                self.clients.discard(client)
                client.queue.put_nowait(None)

    def publish_state(self, state: dict[str, Any]) -> None:
        """Push the state unless it is the one every client already has."""
        text = encode(state)
        if text == self._state_text:
            return
        self._state_text = text
        self.broadcast({"type": "state", "state": state})

    def publish_seats(self, taken: list[str], views_open: bool = True) -> None:
        """Which players' seats a phone holds: the join page offers the rest, the operator may free them;
        and whether the table view is open, so every operator page offers the right control."""
        self.broadcast({"type": "seats", "taken": taken, "views_open": views_open})

    def close_seat(self, seat: str) -> None:
        """The operator freed `seat`: its pages are told so (they must not simply join it again), then lose
        their socket (their token no longer works)."""
        for client in [c for c in self.clients if c.seat == seat]:
            self.clients.discard(client)
            client.queue.put_nowait(encode({"type": "freed", "seat": seat}))
            client.queue.put_nowait(None)

    def publish_device(self, device: dict[str, Any]) -> None:
        if device != self.device:
            self.device = device
            self.broadcast({"type": "launcher", "launcher": device})

    def from_thread(self, callback: Callable[..., None], *args: Any) -> None:
        """Run `callback(*args)` on the event loop; any thread may call this."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(callback, *args)
            except RuntimeError:  # the loop closed meanwhile: the server is stopping
                pass

    def _on_event(self, text: str) -> None:
        """A table listener: any thread, the table's lock held. Log now, read the state after the lock.

        A refusal goes to the one who asked, in its reply, never to everyone's log: its text may echo
        whatever the request held."""
        if not text.startswith(REFUSED_PREFIX):
            self.history.append(text)
            self.from_thread(self.broadcast, {"type": "log", "text": text})
        self.from_thread(self._check_soon)

    def _check_soon(self) -> None:
        if not self._check_pending:  # one read serves every event that came before it
            self._check_pending = True
            asyncio.ensure_future(self._check_state())

    async def _check_state(self) -> None:
        self._check_pending = False
        self.publish_state(await asyncio.to_thread(self.state))

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(WATCH_INTERVAL_S)
            try:
                await self._check_state()
            except Exception:  # never let the watcher die quietly over one bad read
                log.exception("reading the table state failed")
