"""Who may do what: the PIN, the seats it opens, the tokens that name them, and each seat's requests.

A seat is a player's name, `operator` (anything, for anyone) or `table` (read-only, for a tablet or TV).
Five wrong PINs from one client within a minute lock that client out for a minute.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

OPERATOR, TABLE = "operator", "table"
RESERVED_SEATS = (OPERATOR, TABLE)
MAX_WRONG_PINS = 5
LOCKOUT_WINDOW_S = 60.0
LOCKOUT_S = 60.0
MAX_TOKENS = 500  # the oldest token goes when a new one would pass this: a page that reloads joins again
PLAYER_CMDS = ("play", "uno", "press", "catch", "draw", "pass", "challenge", "state")
# Which field of a request names the player acting; a player's token may only fill it with themselves.
ACTOR_FIELD = {"play": "player", "uno": "player", "press": "player", "catch": "by", "draw": "player",
               "pass": "player", "challenge": "player"}


class JoinRefused(Exception):
    """A join the server refuses: `.status` (401, 400, 429) and `.code`, `.message` for the reply."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def random_pin() -> str:
    return f"{secrets.randbelow(10_000):04d}"


def check_pin(pin: str) -> str:
    """A PIN is 4 to 12 digits; the message says so when it is not."""
    if not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 12):
        raise ValueError(f"--pin {pin!r}: give 4 to 12 digits, e.g. --pin 2468")
    return pin


def check_player_names(players: Sequence[str]) -> None:
    """`operator` and `table` are seats of the web page, so no player may be called either."""
    clash = [p for p in players if p.strip().lower() in RESERVED_SEATS]
    if clash:
        raise ValueError(
            f"a player may not be called {', '.join(repr(p) for p in clash)}: the web page uses "
            f"{OPERATOR!r} and {TABLE!r} as seats; rename them in --players"
        )


@dataclass
class Seats:
    """The PIN, the live tokens and the lockout book; `read_only` makes every seat a watcher (the demo)."""

    players: tuple[str, ...]
    pin: str | None
    read_only: bool = False
    own_cmds: frozenset[str] = frozenset()  # the edition's own requests a player answers for themselves
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self.tokens: dict[str, str] = {}
        self.wrong: dict[str, deque[float]] = {}
        self.locked_until: dict[str, float] = {}

    def join(self, client: str, pin: Any, seat: Any) -> str:
        """A new token for `seat`, or JoinRefused: a locked-out client, a wrong PIN, an unknown seat."""
        now = self.clock()
        if self.locked_until.get(client, 0.0) > now:
            wait = int(self.locked_until[client] - now) + 1
            raise JoinRefused(429, "locked_out", f"too many wrong PINs: try again in {wait} s")
        if self.pin is not None and not (isinstance(pin, str) and secrets.compare_digest(pin, self.pin)):
            self._wrong_pin(client, now)
            raise JoinRefused(401, "bad_pin", "wrong PIN: type the PIN shown where unox serve runs")
        seats = (*self.players, OPERATOR, TABLE)
        if seat not in seats:
            raise JoinRefused(
                400, "unknown_seat", f"{seat!r} is no seat here; choose one of: {', '.join(seats)}"
            )
        token = secrets.token_urlsafe(24)
        self.tokens[token] = seat
        while len(self.tokens) > MAX_TOKENS:
            del self.tokens[next(iter(self.tokens))]
        return token

    def _wrong_pin(self, client: str, now: float) -> None:
        book = self.wrong.setdefault(client, deque())
        book.append(now)
        while book and book[0] <= now - LOCKOUT_WINDOW_S:
            book.popleft()
        if len(book) >= MAX_WRONG_PINS:
            self.locked_until[client] = now + LOCKOUT_S
            book.clear()

    def seat_of(self, token: str | None) -> str | None:
        return self.tokens.get(token) if token else None

    def refusal(self, seat: str, request: Any) -> str | None:
        """None when `seat` may send `request`; otherwise why not, as a sentence for the person."""
        cmd = request.get("cmd") if isinstance(request, dict) else None
        if cmd == "state" or not isinstance(cmd, str):
            return None  # reading, or a request the table will refuse for its shape anyway
        if self.read_only:
            return "this table is shown read-only (a demo): watch, nobody plays from here"
        if seat == OPERATOR:
            return None
        if seat == TABLE:
            return "the table view only shows the table; join as a player or as the operator to act"
        if cmd not in PLAYER_CMDS and cmd not in self.own_cmds:
            return (f"only the operator may send {cmd}; a player's phone plays, calls UNO, presses (draws) "
                    "and catches, and answers its own choices")
        field = ACTOR_FIELD.get(cmd, "player")
        actor = request.get(field)
        if actor != seat:
            named = f"{field} {actor!r}" if actor is not None else f"no {field}"
            return f"this phone is {seat}'s: send {cmd} with \"{field}\":\"{seat}\" ({named} is not yours)"
        return None
