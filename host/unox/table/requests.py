"""Table protocol v1 requests: parse one line, check its shape, name the seats it mentions, bound its numbers.

The shape (JSON, fields, types, seated players) and the numbers' absolute bounds are checked here, before
anything reaches the rules: no count can exceed the deck, no score what a whole deck is worth, so an absurd
value can never grow a hand past what Python can print again. Whether the move is legal is the rules'
call. A request that passes comes back normalised: `cmd` plus its known fields, with optional fields that
were null left out, so the journal stores one spelling of each request.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

PLAYER, TEXT, COUNT, POINTS, FLAG = "player", "text", "count", "points", "flag"
PLAYERS, TEXTS = "players", "texts"  # lists, for editions' own requests


@dataclass(frozen=True)
class Field:
    kind: str
    required: bool = True
    hint: str = ""


# cmd -> field -> Field. Order matters only for the docs and the messages.
REQUESTS: dict[str, dict[str, Field]] = {
    "deal": {"dealer": Field(PLAYER, hint='the dealer\'s name, e.g. "dealer":"Ann"')},
    "flip": {
        "card": Field(TEXT, hint='the card turned up, e.g. "card":"G7"'),
        "color": Field(TEXT, False, 'for a wild: "color":"red"'),
    },
    "play": {
        "player": Field(PLAYER, hint='who plays, e.g. "player":"Bob"'),
        "card": Field(TEXT, hint='the card played, e.g. "card":"R5"'),
        "color": Field(TEXT, False, 'for a wild: "color":"red"'),
        "target": Field(PLAYER, False, 'for Trade Hands: "target":"Cy"'),
        "count": Field(COUNT, False, 'for Discard All: "count":2 (other cards of that colour)'),
    },
    "press": {
        "player": Field(PLAYER, hint='who pressed, e.g. "player":"Bob"'),
        "fired": Field(COUNT, hint='the cards that came out, e.g. "fired":3'),
    },
    "uno": {"player": Field(PLAYER, hint='who calls UNO, e.g. "player":"Bob"')},
    "catch": {
        "player": Field(PLAYER, hint='who is caught, e.g. "player":"Bob"'),
        "by": Field(PLAYER, hint='who caught them, e.g. "by":"Cy"'),
    },
    "penalty": {
        "player": Field(PLAYER, hint='who is penalised, e.g. "player":"Bob"'),
        "kind": Field(TEXT, hint='"kind":"advice" or "kind":"wrong_card"'),
    },
    "reload": {},
    "score": {"points": Field(POINTS, hint='points left in each hand, e.g. "points":{"Ann":0,"Bob":23}')},
    "settle": {"fired": Field(COUNT, hint='the cards that came out of the unsettled fire, e.g. "fired":2')},
    "state": {},
    "undo": {},
}

DECK_SIZE = 112  # UNO Extreme, the largest deck: every count a request carries fits in one deck
POINTS_PER_CARD = 50  # the most any card of any edition is worth (a wild)
# field -> (its largest value minus the deck's size, the code that refuses it): a count of cards never
# exceeds the edition's deck (`fired`), Discard All's other cards are one fewer (`count`); an edition's
# other count fields are bounded by the deck too (`bad_count`).
COUNT_LIMITS: dict[str, tuple[int, str]] = {
    "fired": (0, "bad_fired"),
    "count": (-1, "bad_count"),
}
MAX_LIST_TEXT = 40  # one item of an edition's list (cards, players): a card code or a seat's name


# The draw editions' requests (classic and those built on it): known only at a table of such an edition,
# so Extreme's protocol is exactly what it was.
DRAW_REQUESTS: dict[str, dict[str, Field]] = {
    "flip": {
        "card": Field(TEXT, False, 'the card turned up, e.g. "card":"G7"'),
        "color": Field(TEXT, False, 'for a wild: "color":"red"'),
        "fired": Field(COUNT, False, '"fired":1: the launcher fired the first card (DL3); report it next'),
    },
    "deal": {
        "dealer": Field(PLAYER, hint='the dealer\'s name, e.g. "dealer":"Ann"'),
        "launcher": Field(FLAG, False, '"launcher":true: the launcher deals 7 to each player (DL4)'),
    },
    "draw": {
        "player": Field(PLAYER, hint='who draws, e.g. "player":"Bob"'),
        "fired": Field(COUNT, hint='the cards the launcher gave, e.g. "fired":2'),
    },
    "pass": {"player": Field(PLAYER, hint='who keeps the card drawn and passes, e.g. "player":"Bob"')},
    "challenge": {
        "player": Field(PLAYER, hint='the Wild Draw Four\'s victim, e.g. "player":"Bob"'),
        "guilty": Field(FLAG, False, 'what the hand showed (physical table): "guilty":true or false'),
    },
}


# Codes the table itself gives (the rest come from the engine's RuleError, `unox.rules.errors.ERROR_CODES`).
PROTOCOL_CODES: dict[str, str] = {
    "bad_json": "the line is not JSON (or not UTF-8)",
    "bad_request": "not a JSON object, no cmd, a missing, unknown or wrongly typed field",
    "unknown_cmd": "a cmd that protocol v1 does not have",
    "unknown_player": "a name that is not seated at this table",
    "nothing_to_undo": "undo with no accepted request left",
    "result_sent": "undo of a scored hand whose result already went to a tournament's coordinator",
    "no_launcher": "a launcher press on a table run with --launcher script",
    "launcher_fault": "the launcher fired nothing because of a fault; the press (or draw) did not count",
    "unsettled": "the table stopped during a fire nobody can count for it: settle that press or draw first",
    "nothing_to_settle": "settle when no fire waits to be settled",
    "journal_error": "the journal could not be written; the request was not taken",
    "fire_first": "a draw edition's first card reported at a launcher table before the launcher fired it",
    "internal_error": "unox failed on the request (a bug); nothing was applied",
}


class ProtocolError(Exception):
    """A request refused before it reaches the rules: `.code` for programs, `.message` for people."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def parse_line(line: str) -> dict[str, Any]:
    """One line of input -> a request object, or ProtocolError `bad_json` / `bad_request`."""
    try:
        request = json.loads(line)
    except (ValueError, RecursionError) as exc:
        why = str(exc) if isinstance(exc, json.JSONDecodeError) else "a number far too long, or deep nesting"
        raise ProtocolError(
            "bad_json",
            f"that line is not JSON unox can read ({why[:120]}); send one JSON object per line, "
            'e.g. {"cmd":"state"}',
        ) from exc
    if not isinstance(request, dict):
        raise ProtocolError(
            "bad_request", f'a request is a JSON object, not {type(request).__name__}; e.g. {{"cmd":"state"}}'
        )
    return request


def check_request(
    request: Any,
    players: Sequence[str],
    *,
    fired_optional: bool = False,
    draws: bool = False,
    extra: Mapping[str, Mapping[str, Any]] | None = None,
    deck: int = DECK_SIZE,
) -> dict[str, Any]:
    """The normalised request, or ProtocolError `bad_request` / `unknown_cmd` / `unknown_player` /
    `bad_fired` / `bad_count` / `bad_points` (a number no deck can give).

    `fired_optional`: a launcher is attached, so a press may leave `fired` (and `player`) out and
    let the host fire for real; a draw may leave `fired` out. `draws`: the edition is a draw edition
    (`DRAW_REQUESTS` are known). `extra`: the edition's own requests (`Ruleset.requests`:
    cmd -> field -> (kind, required, hint)). `deck`: the edition's deck size, the bound of every count.
    """
    requests = table_requests(draws=draws, extra=extra)
    if not isinstance(request, dict):
        raise ProtocolError("bad_request", 'a request is a JSON object, e.g. {"cmd":"state"}')
    cmd = request.get("cmd")
    if not isinstance(cmd, str):
        raise ProtocolError(
            "bad_request", f'every request needs "cmd", one of: {", ".join(requests)}; e.g. {{"cmd":"state"}}'
        )
    if cmd not in requests:
        known = ", ".join(requests)
        raise ProtocolError("unknown_cmd", f'"cmd":{_shown(cmd)} is unknown; use one of: {known}')
    fields = requests[cmd]
    unknown = sorted(set(request) - set(fields) - {"cmd"})
    if unknown:
        known = ", ".join(fields) or "no other field"
        names = ", ".join(_shown(name) for name in unknown[:5])
        raise ProtocolError("bad_request", f"{cmd} has no field {names}; it takes: {known}")
    clean: dict[str, Any] = {"cmd": cmd}
    for name, spec in fields.items():
        value = request.get(name)
        # with a launcher, `fired` may be left out of any request that has it: the host fires
        required = spec.required and not (fired_optional and (cmd == "press" or name == "fired"))
        if value is None:
            if required:
                raise ProtocolError("bad_request", f"{cmd} needs {name}: {spec.hint}")
            continue
        clean[name] = _checked(cmd, name, spec, value, players, deck)
    return clean


def _checked(cmd: str, name: str, spec: Field, value: Any, players: Sequence[str], deck: int) -> Any:
    if spec.kind in (PLAYER, TEXT):
        if not isinstance(value, str) or not value:
            raise ProtocolError("bad_request", f"{cmd}: {name} must be a non-empty string: {spec.hint}")
        if spec.kind == PLAYER:
            check_player(value, players)
        return value
    if spec.kind == COUNT:
        if not _is_int(value):
            raise ProtocolError("bad_request", f"{cmd}: {name} must be a whole number: {spec.hint}")
        less, code = COUNT_LIMITS.get(name, (0, "bad_count"))
        high = deck + less
        if not 0 <= value <= high:
            raise ProtocolError(
                code, f"{cmd}: {name} is a number of cards from 0 to {high} (one deck), not {_number(value)}"
            )
        return value
    if spec.kind == FLAG:
        if not isinstance(value, bool):
            raise ProtocolError("bad_request", f"{cmd}: {name} must be true or false: {spec.hint}")
        return value
    if spec.kind in (PLAYERS, TEXTS):
        return _checked_list(cmd, name, spec, value, players, deck)
    if spec.kind == POINTS:
        return _checked_points(value, players, spec.hint, deck)
    raise ProtocolError(
        "bad_request", f"{cmd}: {name} has a kind this unox does not know ({_shown(spec.kind)})"
    )


def _checked_list(
    cmd: str, name: str, spec: Field, value: Any, players: Sequence[str], deck: int
) -> list[str]:
    """A list of players or of texts (card codes), e.g. an edition's gift or share-out: never longer than a
    deck, each item a short non-empty string."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ProtocolError("bad_request", f"{cmd}: {name} must be a list of non-empty strings: {spec.hint}")
    if len(value) > deck:
        raise ProtocolError(
            "bad_request", f"{cmd}: {name} lists {len(value)} items; no list names more than a deck ({deck})"
        )
    long = next((item for item in value if len(item) > MAX_LIST_TEXT), None)
    if long is not None:
        raise ProtocolError(
            "bad_request",
            f"{cmd}: {name} holds {_shown(long)}, longer than {MAX_LIST_TEXT} characters: {spec.hint}",
        )
    if spec.kind == PLAYERS:
        for player in value:
            check_player(player, players)
    return list(value)


def table_requests(
    *, draws: bool = False, extra: Mapping[str, Mapping[str, Any]] | None = None, **_: Any
) -> dict[str, dict[str, Field]]:
    """Every request a table of this edition knows: v1's, a draw edition's, and the edition's own."""
    if not draws and not extra:
        return REQUESTS
    return {**REQUESTS, **(DRAW_REQUESTS if draws else {}), **_fields_of(extra or {})}


def _fields_of(extra: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Field]]:
    """An edition's request specs, as table fields."""
    return {cmd: {name: Field(*spec) for name, spec in fields.items()} for cmd, fields in extra.items()}


def _checked_points(value: Any, players: Sequence[str], hint: str, deck: int) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ProtocolError("bad_request", f"score: points must be an object: {hint}")
    most = deck * POINTS_PER_CARD
    for player, points in value.items():
        check_player(player, players)
        if not _is_int(points):
            raise ProtocolError(
                "bad_request", f"score: {player}'s points must be a whole number, not {_shown(points)}"
            )
        if not 0 <= points <= most:
            raise ProtocolError(
                "bad_points",
                f"score: {player}'s points must be from 0 to {most} ({deck} cards of 50 points), "
                f"not {_number(points)}",
            )
    return dict(value)


def _is_int(value: Any) -> bool:
    """Whole numbers only (not true/false, not 3.0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: int) -> str:
    """A number for a message: a huge one is shown by its size, never printed (it may not be printable)."""
    if -(10**12) < value < 10**12:
        return str(value)
    return f"a number of about {value.bit_length() * 30103 // 100000 + 1} digits"


def _shown(value: Any) -> str:
    """Any JSON value for a message, short and ASCII (a lone surrogate is escaped, never echoed raw)."""
    if _is_int(value):
        return _number(value)
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(type(value).__name__)
    return text if len(text) <= 60 else text[:57] + "..."


def check_player(name: str, players: Sequence[str]) -> None:
    if name not in players:
        raise ProtocolError(
            "unknown_player",
            f"{_shown(name)} is not seated at this table; the players are {', '.join(players)}",
        )
