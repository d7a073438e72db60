"""Who may do what: the PINs, the seats they open, the tokens that name them, and each seat's requests.

A seat is a player's name, `operator` (anything, for anyone) or `table` (read-only, for a tablet or TV).
The player PIN opens the players' seats and the table view; only the operator PIN opens the operator's.
A player's seat is one phone's: a second join is refused (409) until the operator frees it, so no flood of
joins can take a seat or push a player's token out. The table views are capped and never pushed out either:
the operator signs them all out, which also closes the table view to the player PIN until the operator opens
it again, so nobody with the player PIN takes the places back meanwhile. Wrong PINs are limited per address
and for the whole table, each lockout twice as long as the last.
"""

from __future__ import annotations

import math
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

OPERATOR, TABLE = "operator", "table"
RESERVED_SEATS = (OPERATOR, TABLE)
PIN_DIGITS = 6
MAX_WRONG_PINS = 5  # from one address within the window
MAX_WRONG_PINS_ALL = 20  # from every address together within the window
LOCKOUT_WINDOW_S = 60.0
LOCKOUT_S = 60.0  # the first lockout; each next one lasts twice as long as the last
MAX_LOCKOUT_S = 3600.0
MAX_VIEWS = 32  # table-view tokens: past it a new view is refused, the views already there stay
MAX_OPERATORS = 4  # the operator on a phone and a laptop, and a reload or two
PLAYER_CMDS = ("play", "uno", "press", "catch", "draw", "pass", "challenge", "state")
# Which field of a request names the player acting; a player's token may only fill it with themselves.
ACTOR_FIELD = {"play": "player", "uno": "player", "press": "player", "catch": "by", "draw": "player",
               "pass": "player", "challenge": "player"}


class JoinRefused(Exception):
    """A join the server refuses: `.status` (401, 403, 400, 409, 429), `.code` and `.message`."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def random_pin() -> str:
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


def check_pin(pin: str, option: str = "--pin") -> str:
    """A PIN is 4 to 12 digits; the message says so when it is not."""
    if not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 12):
        raise ValueError(f"{option} {pin!r}: give 4 to 12 digits, e.g. {option} 246813")
    return pin


def check_player_names(players: Sequence[str]) -> None:
    """`operator` and `table` are seats of the web page, so no player may be called either."""
    clash = [p for p in players if p.strip().lower() in RESERVED_SEATS]
    if clash:
        raise ValueError(
            f"a player may not be called {', '.join(repr(p) for p in clash)}: the web page uses "
            f"{OPERATOR!r} and {TABLE!r} as seats; rename them in --players"
        )


class Lockout:
    """Wrong PINs within a window; too many lock out for a time that doubles with each lockout.

    The same wrong PIN again counts once: a guesser learns nothing from it, and it is what every page of a
    device sends after a restart with a new PIN (each rejoins with the PIN it stored)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.wrong: deque[tuple[float, str]] = deque()
        self.until = 0.0
        self.lockouts = 0

    def wait(self, now: float) -> int:
        """Whole seconds until the lockout ends; 0 when not locked out."""
        return math.ceil(self.until - now) if self.until > now else 0

    def wrong_pin(self, now: float, pin: str) -> None:
        while self.wrong and self.wrong[0][0] <= now - LOCKOUT_WINDOW_S:
            self.wrong.popleft()
        if any(tried == pin for _, tried in self.wrong):
            return
        self.wrong.append((now, pin))
        if len(self.wrong) >= self.limit:
            self.until = now + min(MAX_LOCKOUT_S, LOCKOUT_S * 2**self.lockouts)
            self.lockouts += 1
            self.wrong.clear()


@dataclass
class Seats:
    """The PINs, the live tokens and the lockout books; `read_only` makes every seat a watcher (the demo)."""

    players: tuple[str, ...]
    pin: str | None
    operator_pin: str | None = None
    read_only: bool = False
    own_cmds: frozenset[str] = frozenset()  # the edition's own requests a player answers for themselves
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self.tokens: dict[str, str] = {}
        self.by_address: dict[str, Lockout] = {}
        self.everyone = Lockout(MAX_WRONG_PINS_ALL)
        # False once the operator signed the table views out: the player PIN no longer opens a table view
        self.views_open = True

    def check(self, client: str, pin: Any) -> str:
        """What `pin` opens (`operator` or `players`), booked like a join's PIN; JoinRefused when locked out
        or wrong. The join page asks this first, so checking a PIN takes no seat and no table view."""
        now = self.clock()
        mine = self.by_address.get(client)
        wait = max(self.everyone.wait(now), mine.wait(now) if mine else 0)
        if wait:
            raise JoinRefused(429, "locked_out", f"too many wrong PINs: locked for {wait} s, then try again")
        opens = self.opens(pin)
        if opens is None:
            tried = pin[:64] if isinstance(pin, str) else repr(pin)[:64]
            self.by_address.setdefault(client, Lockout(MAX_WRONG_PINS)).wrong_pin(now, tried)
            self.everyone.wrong_pin(now, tried)
            raise JoinRefused(401, "bad_pin", "wrong PIN: type the PIN shown where unox serve runs")
        return opens

    def join(self, client: str, pin: Any, seat: Any) -> str:
        """A new token for `seat`, or JoinRefused: a lockout, a wrong PIN, a seat unknown, closed or taken."""
        opens = self.check(client, pin)
        seats = (*self.players, OPERATOR, TABLE)
        if seat not in seats:
            raise JoinRefused(
                400, "unknown_seat", f"{seat!r} is no seat here; choose one of: {', '.join(seats)}"
            )
        if seat == OPERATOR and opens != OPERATOR:
            raise JoinRefused(403, "operator_pin", "the player PIN does not open the operator's seat: the "
                              "operator joins with the operator PIN shown where unox serve runs")
        if seat in self.players and seat in self.tokens.values():
            raise JoinRefused(409, "seat_taken", f"{seat}'s seat is taken by another phone: if that phone "
                              f"is yours, ask the operator to free {seat}'s seat, then join again")
        if seat == TABLE:
            if not self.views_open and opens != OPERATOR:
                raise JoinRefused(403, "views_closed", "the operator signed the table views out: ask the "
                                  "operator to let table views join again, then join")
            if sum(s == TABLE for s in self.tokens.values()) >= MAX_VIEWS:
                raise JoinRefused(409, "views_full", f"all {MAX_VIEWS} table-view places are taken: ask the "
                                  "operator to sign the table views out and let them join again")
        token = secrets.token_urlsafe(24)
        self.tokens[token] = seat
        if seat == OPERATOR:  # only the operator PIN opens it: the oldest of its own tokens gives way
            held = [t for t, s in self.tokens.items() if s == OPERATOR]
            for old in held[: max(0, len(held) - MAX_OPERATORS)]:
                del self.tokens[old]
        return token

    def opens(self, pin: Any) -> str | None:
        """Which seats `pin` opens: `operator` (every seat), `players` (all but the operator's) or None."""
        given = pin if isinstance(pin, str) else ""
        operator = self.operator_pin
        if operator is not None and secrets.compare_digest(given.encode(), operator.encode()):
            return OPERATOR
        if self.pin is None or secrets.compare_digest(given.encode(), self.pin.encode()):
            return OPERATOR if self.operator_pin is None else "players"  # no operator PIN: loopback only
        return None

    def taken(self) -> list[str]:
        """The players' seats a phone holds."""
        held = set(self.tokens.values())
        return [p for p in self.players if p in held]

    def free(self, seat: str) -> bool:
        """The operator frees `seat`: its phone's token stops working; False when nobody held it. Freeing
        the table views also closes them to the player PIN until `open_views`."""
        gone = [t for t, s in self.tokens.items() if s == seat]
        for token in gone:
            del self.tokens[token]
        if seat == TABLE:
            self.views_open = False
        return bool(gone)

    def open_views(self, open_: bool = True) -> None:
        """The operator lets table views join with the player PIN again (or closes them, signing none out)."""
        self.views_open = open_

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
