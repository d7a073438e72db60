"""What a person types at the table, turned into one table-protocol request.

One grammar serves the textual UI's command line and the plain `unox play --plain` loop:

    R5 | Bob R5 | play Bob W red | Bob RT Cy | Bob GD 2     announce a play (the turn player by default)
    press                                                  a button press (simulated on the sim launcher)
    uno Bob | catch Bob by Cy | penalty Bob advice         calls and penalties (P1 advice, P2 wrong_card)
    reload | undo | draw Ann G7 | deal Ann | flip G7 [red] | score Ann=0 Bob=23 | help | quit

Bad input raises `InputError` whose message says what to type instead; nothing reaches the table then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from unox.rules.cards import CardError, parse_card, parse_color
from unox.rules.extreme import extreme_deck

# The typed commands and keys in one line: the table UI's help and `--plain`'s `help` (no textual needed).
HELP = (
    "Commands: R5 | Bob R5 | Bob W red | Bob RT Cy | Bob GD 2 (play) - press - uno Bob - catch Bob by Cy - "
    "penalty Bob advice|wrong_card - reload - undo - draw Ann G7 - deal [Ann] - flip G7 [red] - "
    "score Ann=0 Bob=23 ... - quit. Keys: p play, b press (sim), u UNO, c catch, x penalty, r reload, "
    "z undo, d deal, f fix the sim launcher, : command line, q quit."
)

COLOR_WORDS = ("red", "yellow", "green", "blue")
PENALTY_KINDS = {"advice": "advice", "p1": "advice", "wrong_card": "wrong_card", "wrong": "wrong_card",
                 "p2": "wrong_card"}
VERBS = ("play", "press", "uno", "catch", "penalty", "reload", "undo", "draw", "deal", "flip", "score",
         "help", "quit")


class InputError(ValueError):
    """A line the table cannot take; the message says what to type instead."""


@dataclass
class Command:
    """A parsed line: `verb` plus the table request it stands for (empty for purely local verbs)."""

    verb: str
    request: dict = field(default_factory=dict)


def card_codes() -> list[str]:
    """Every distinct card code of the Extreme deck, in deck order, for completion."""
    return list(dict.fromkeys(extreme_deck()))


def parse_line(line: str, players: Sequence[str], turn: str | None = None) -> Command:
    """Parse one typed line against the seated `players`; `turn` is who plays when no name is given."""
    words = line.split()
    if not words:
        raise InputError("type a card to play (e.g. R5), or `help` for every command")
    verb = words[0].lower()
    if verb in ("b", "button"):
        verb = "press"
    if verb not in VERBS:
        return _play(words, players, turn)
    handler = _HANDLERS.get(verb)
    if handler is None:
        return Command(verb)
    return handler(words[1:], players, turn)


def find_player(name: str, players: Sequence[str]) -> str:
    for player in players:
        if player.casefold() == name.casefold():
            return player
    raise InputError(f"nobody called {name!r} is seated; the players are {', '.join(players)}")


def _is_player(word: str, players: Sequence[str]) -> bool:
    return any(p.casefold() == word.casefold() for p in players)


def _card(word: str) -> str:
    try:
        return parse_card(word.upper()).code
    except CardError as exc:
        raise InputError(f"{exc}; cards are written like G7, RH (Hit 2), BR, YS, GD, RT, W, WA, WF") from exc


def _color(word: str) -> str:
    try:
        return parse_color(word)
    except CardError as exc:
        raise InputError(f"{word!r} is not a colour; say red, yellow, green or blue") from exc


def _play(words: list[str], players: Sequence[str], turn: str | None) -> Command:
    if words[0].lower() == "play":
        words = words[1:]
    if words and _is_player(words[0], players):
        player, words = find_player(words[0], players), words[1:]
    elif turn is not None:
        player = turn
    else:
        raise InputError("nobody is to play now; say who plays, e.g. `Bob R5`")
    if not words:
        raise InputError(f"say which card {player} plays, e.g. `{player} R5`")
    request: dict = {"cmd": "play", "player": player, "card": _card(words[0])}
    for word in words[1:]:
        if word.isdigit():
            request["count"] = int(word)
        elif _is_player(word, players):
            request["target"] = find_player(word, players)
        else:
            request["color"] = _color(word)
    return Command("play", request)


def _one_player(verb: str, example: str):
    def parse(words: list[str], players: Sequence[str], turn: str | None) -> Command:
        if not words:
            raise InputError(f"say who: `{verb} {example}`")
        return Command(verb, {"cmd": verb, "player": find_player(words[0], players)})

    return parse


def _catch(words: list[str], players: Sequence[str], turn: str | None) -> Command:
    words = [w for w in words if w.lower() != "by"]
    if len(words) != 2:
        raise InputError("say who is caught and by whom: `catch Bob by Cy`")
    caught, by = (find_player(w, players) for w in words)
    return Command("catch", {"cmd": "catch", "player": caught, "by": by})


def _penalty(words: list[str], players: Sequence[str], turn: str | None) -> Command:
    if len(words) != 2 or words[1].lower() not in PENALTY_KINDS:
        raise InputError("say who and what: `penalty Bob advice` (P1) or `penalty Bob wrong_card` (P2)")
    kind = PENALTY_KINDS[words[1].lower()]
    return Command("penalty", {"cmd": "penalty", "player": find_player(words[0], players), "kind": kind})


def _draw(words: list[str], players: Sequence[str], turn: str | None) -> Command:
    if len(words) != 2:
        raise InputError("say who drew which card: `draw Ann G7` (S1: the highest number deals)")
    return Command("draw", {"player": find_player(words[0], players), "card": _card(words[1])})


def _deal(words: list[str], players: Sequence[str], turn: str | None) -> Command:
    request: dict = {"cmd": "deal"}
    if words:
        request["dealer"] = find_player(words[0], players)
    return Command("deal", request)


def _flip(words: list[str], players: Sequence[str], turn: str | None) -> Command:
    if not words or len(words) > 2:
        raise InputError("say which card was turned up: `flip G7`, or `flip W red` for a wild")
    request: dict = {"cmd": "flip", "card": _card(words[0])}
    if len(words) == 2:
        request["color"] = _color(words[1])
    return Command("flip", request)


def _score(words: list[str], players: Sequence[str], turn: str | None) -> Command:
    if all(w.isdigit() for w in words) and len(words) == len(players):
        return Command("score", {"cmd": "score", "points": dict(zip(players, map(int, words), strict=True))})
    points: dict[str, int] = {}
    for word in words:
        name, sep, value = word.partition("=")
        if not sep or not value.isdigit():
            raise InputError("give the points left in each hand: `score Ann=0 Bob=23 ...` (one per player)")
        points[find_player(name, players)] = int(value)
    missing = [p for p in players if p not in points]
    if missing:
        raise InputError(f"give points for every player; missing: {', '.join(missing)} (0 for who went out)")
    return Command("score", {"cmd": "score", "points": points})


def _plain(verb: str):
    def parse(words: list[str], players: Sequence[str], turn: str | None) -> Command:
        return Command(verb, {"cmd": verb} if verb == "reload" else {})

    return parse


_HANDLERS = {
    "play": lambda words, players, turn: _play(["play", *words], players, turn),
    "uno": _one_player("uno", "Bob"),
    "catch": _catch,
    "penalty": _penalty,
    "draw": _draw,
    "deal": _deal,
    "flip": _flip,
    "score": _score,
    "reload": _plain("reload"),
}


def suggest(value: str, players: Sequence[str]) -> str | None:
    """The whole line with its last word completed, or None: the textual Input shows it greyed out."""
    words = value.split(" ")
    prefix = words[-1]
    if not prefix:
        return None
    for candidate in _candidates(words[:-1], players):
        if candidate.casefold().startswith(prefix.casefold()) and len(candidate) > len(prefix):
            return " ".join([*words[:-1], candidate])
    return None


def _candidates(before: list[str], players: Sequence[str]) -> list[str]:
    words = [w.lower() for w in before if w]
    colors = list(COLOR_WORDS)
    if not words:
        return [*VERBS, *players, *card_codes()]
    verb = words[0]
    if verb in ("uno", "deal", "draw", "catch", "penalty") and len(words) == 1:
        return list(players)
    if verb == "catch":
        return ["by", *players]
    if verb == "penalty":
        return ["advice", "wrong_card"]
    if verb in ("flip", "draw"):
        return card_codes() if len(words) == (1 if verb == "flip" else 2) else colors
    if verb == "play":
        words = words[1:]
    if words and words[0] in (p.lower() for p in players):
        words = words[1:]
    if not words:
        return card_codes()
    return [*colors, *players]
