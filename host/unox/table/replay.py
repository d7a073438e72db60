"""Replaying a journal's rows onto a fresh game, and telling exactly which row does not replay.

A row is checked like a request off the wire (JSON, shape, bounds) and then given to the rules. Since the
table applies a request before it journals it, a journal only ever holds accepted requests: a row that does
not replay is damage (an edited or corrupted file), never something to drop quietly. The one exception is
a journal written by unox v1, which journalled first and could die before taking a refused row back out:
its newest row at the upgrade may be such a crash window.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from unox.table.bounds import check_fired, check_points, deck_size
from unox.table.requests import ProtocolError, check_request

# the requests a journal row may hold, besides an edition's own (`Ruleset.requests`)
GAME_CMDS = (
    *("deal", "flip", "play", "press", "uno", "catch", "penalty", "reload", "score"),
    *("draw", "pass", "challenge"),  # the draw editions' (classic and those built on it)
)


def rule_errors() -> tuple[type[Exception], ...]:
    """The engine's refusal types: RuleError, and CardError for a card code that does not parse."""
    from unox.rules.errors import RuleError

    try:
        from unox.rules.cards import CardError
    except ImportError:  # pragma: no cover - the cards module ships with the engine
        return (RuleError,)
    return (RuleError, CardError)


def edition_terms(game: Any) -> dict[str, Any]:
    """What `check_request` must know of the game's edition: whether its draw requests exist (`draws`), its
    own requests (`extra`, `Ruleset.requests`) and its deck's size (`deck`, the bound of every count)."""
    rules = getattr(game, "rules", None)
    return {
        "draws": bool(getattr(rules, "draws", False)),
        "extra": getattr(rules, "requests", None) or {},
        "deck": deck_size(game),
    }


def apply_request(game: Any, request: dict[str, Any]) -> None:
    """Apply one normalised, resolved request to the game; the engine raises RuleError to refuse."""
    cmd = request["cmd"]
    if cmd == "deal":
        if request.get("launcher"):
            game.deal(request["dealer"], by_launcher=True)  # DL4
        else:
            game.deal(request["dealer"])
    elif cmd == "flip":
        game.flip(request["card"], request.get("color"))
    elif cmd == "play":
        options = {key: request[key] for key in ("color", "target", "count") if key in request}
        game.play(request["player"], request["card"], **options)
    elif cmd == "press":
        game.press(request["player"], request["fired"])
    elif cmd == "draw":
        game.draw(request["player"], request["fired"])
    elif cmd == "pass":
        game.pass_turn(request["player"])
    elif cmd == "challenge":
        game.challenge(request["player"], request.get("guilty"))
    elif cmd == "uno":
        game.uno(request["player"])
    elif cmd == "catch":
        game.catch(request["player"], request["by"])
    elif cmd == "penalty":
        game.penalty(request["player"], request["kind"])
    elif cmd == "reload":
        game.reload()
    elif cmd == "score":
        game.score(dict(request["points"]))
    elif cmd in edition_terms(game)["extra"]:
        game.edition_call(cmd, {k: v for k, v in request.items() if k != "cmd"})
    else:
        raise ValueError(f"request {cmd!r} does not change the game")


def check_in_state(game: Any, request: dict[str, Any]) -> None:
    """The bounds that depend on the state (ProtocolError bad_fired / bad_points): any request's `fired`
    (a press, a draw, an edition's turned card) fits in the cards outside the hands and the pile, and a
    draw's in what the player is due."""
    cmd = request["cmd"]
    if "fired" in request:
        due = game.draw_due(request["player"]) if cmd == "draw" and hasattr(game, "draw_due") else None
        check_fired(game.state(), request["fired"], request.get("player"), deck_size(game), due=due)
    elif cmd == "score":
        check_points(game, game.state(), request["points"])


@dataclass
class BadRow:
    seq: int
    text: str
    reason: str

    def describe(self) -> str:
        shown = self.text if len(self.text) <= 80 else self.text[:77] + "..."
        return f"row {self.seq} {json.dumps(shown, ensure_ascii=True)} {self.reason}"


@dataclass
class Scan:
    """What a replay found: the accepted requests and the rows that would not replay."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    bad: list[BadRow] = field(default_factory=list)


class RowError(Exception):
    """A stored row that is not a request unox could have journalled; the message says why."""


def decode_row(text: Any, players: Sequence[str], game: Any = None) -> dict[str, Any]:
    """A stored row as a request (of `game`'s edition), or RowError saying why it is not one."""
    if not isinstance(text, str):
        raise RowError(f"is not text but {type(text).__name__}")
    try:
        request = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RowError(f"is not JSON ({str(exc)[:80]})") from exc
    try:
        clean = check_request(request, players, **(edition_terms(game) if game is not None else {}))
    except ProtocolError as exc:
        raise RowError(f"is not a valid request ({exc.message})") from exc
    if clean["cmd"] not in GAME_CMDS and clean["cmd"] not in edition_terms(game)["extra"]:
        raise RowError(f"is a {clean['cmd']!r} request, which is never journalled")
    return clean


def scan(
    game: Any, rows: Sequence[tuple[int, Any]], players: Sequence[str], beam_rows: Collection[int] = ()
) -> Scan:
    """Replay every row that replays onto `game`, skipping and listing the ones that do not.

    `beam_rows`: rows that record a launcher's own count; it was taken live without the table's bounds
    (the cards came out), so the replay takes it the same way.
    """
    result = Scan()
    refusals = (ProtocolError, *rule_errors())
    for seq, text in rows:
        try:
            request = decode_row(text, players, game)
            if seq not in beam_rows:
                check_in_state(game, request)
            apply_request(game, request)
        except RowError as exc:
            result.bad.append(BadRow(seq, str(text), str(exc)))
            continue
        except refusals as exc:
            message = getattr(exc, "message", str(exc))
            result.bad.append(BadRow(seq, str(text), f"is refused by the rules ({message})"))
            continue
        except Exception as exc:  # an engine bug on this row: report it as the row that fails, never crash
            result.bad.append(
                BadRow(seq, str(text), f"makes unox fail ({type(exc).__name__}: {str(exc)[:60]})")
            )
            continue
        result.entries.append(request)
    return result
