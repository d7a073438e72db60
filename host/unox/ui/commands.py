"""What a person types at the table, turned into one table-protocol request.

One grammar serves the textual UI's command line and the plain `unox play --plain` loop:

    R5 | Bob R5 | play Bob W red | Bob RT Cy | Bob GD 2     announce a play (the turn player by default)
    press                                                  a button press (simulated on the sim launcher)
    uno Bob | catch Bob by Cy | penalty Bob advice         calls and penalties (P1 advice, P2 wrong_card)
    reload | undo | draw Ann G7 | deal Ann | flip G7 [red] | score Ann=0 Bob=23 | help | quit

A line is taken whole or not at all: a word the grammar has no place for is refused by name, never
dropped, and every number is checked against its range. Bad input raises `InputError` whose message says
what to type instead; nothing reaches the table then. A seated player's name always means that player, so
a player called `B` or `Deal` plays with `B G2` rather than pressing or dealing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from unox.rules.cards import CARDS, COLOR_NAMES, CardError, parse_card, parse_color
from unox.rules.extreme import extreme_deck

COLOR_WORDS = ("red", "yellow", "green", "blue")
PENALTY_KINDS = {"advice": "advice", "p1": "advice", "wrong_card": "wrong_card", "wrong": "wrong_card",
                 "p2": "wrong_card"}
VERBS = ("play", "press", "uno", "catch", "penalty", "reload", "undo", "draw", "deal", "flip", "score",
         "settle", "help", "quit")
BARE_VERBS = ("press", "reload", "undo", "help", "quit")  # verbs that take nothing after them
MAX_CARD_POINTS = max(card.points for card in CARDS.values())  # a wild: 50 points
Hands = Mapping[str, int]  # cards held per player
KIND_NAMES = {
    "number": "", "hit2": "Hit 2", "reverse": "Reverse", "skip": "Skip", "discard_all": "Discard All",
    "trade": "Trade Hands", "wild": "Wild", "wild_all_hit": "Wild All Hit", "wild_hit_fire": "Wild Hit-Fire",
}
COMMANDS_HELP = (
    "Type a card for the player whose turn it is (R5; W red; RT Cy trades with Cy; GD 2 discards two more "
    "green), or name the player first (Bob R5). Commands: press - uno Bob - catch Bob by Cy - "
    "penalty Bob advice|wrong_card - reload - undo - draw Ann G7 - deal [Ann] - flip G7 [red] - "
    "score Ann=0 Bob=23 ... - settle 2 (cards out of a fire the table stopped in) - quit."
)


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


def card_meaning(code: str) -> str:
    """A card code spelled out: `RD` -> `red Discard All`, `G7` -> `green 7`, `WF` -> `Wild Hit-Fire`."""
    card = CARDS.get(code)
    if card is None:
        return code
    if card.color is None:
        return KIND_NAMES[card.kind]
    return f"{COLOR_NAMES[card.color]} {card.number if card.number is not None else KIND_NAMES[card.kind]}"


def parse_line(
    line: str, players: Sequence[str], turn: str | None = None, hands: Hands | None = None
) -> Command:
    """Parse one typed line against the seated `players`; `turn` is who plays when no name is given.

    `hands` (cards held per player) bounds the numbers typed: the points of a hand, a Discard All's count.
    """
    words = line.split()
    if not words:
        raise InputError("type a card to play (e.g. R5), or `help` for every command")
    verb = words[0].lower()
    if _is_player(words[0], players) or verb not in VERBS:
        return _play(words, players, turn, hands or {})
    if verb in BARE_VERBS:
        if len(words) > 1:
            raise InputError(_extra(words[1:], f"`{verb}` takes nothing after it" + _why_bare(verb)))
        return Command(verb, {"cmd": "reload"} if verb == "reload" else {})
    handler = _HANDLERS[verb]
    return handler(words[1:], players, turn, hands or {})


def _why_bare(verb: str) -> str:
    if verb == "press":
        return ": the rules work out whose press it is (who owes presses, else whose turn it is)"
    return ""


def _extra(words: Sequence[str], why: str) -> str:
    return f"not understood: {' '.join(words)!r} ({why})"


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
        raise InputError(
            f"{word!r} is not understood: not a card, a player or a command; cards are written like "
            "G7, RH (Hit 2), BR, YS, GD, RT, W, WA, WF; `help` lists the commands"
        ) from exc


def _color(word: str) -> str:
    try:
        return parse_color(word)
    except CardError as exc:
        raise InputError(f"{word!r} is not a colour; say red, yellow, green or blue") from exc


def _play(words: list[str], players: Sequence[str], turn: str | None, hands: Hands) -> Command:
    if words[0].lower() == "play" and not _is_player(words[0], players):
        words = words[1:]
    if words and _is_player(words[0], players):
        player, words = find_player(words[0], players), words[1:]
    elif turn is not None:
        player = turn
    else:
        raise InputError("nobody is to play now; say who plays, e.g. `Bob R5`")
    if not words:
        raise InputError(f"say which card {player} plays, e.g. `{player} R5`")
    code = _card(words[0])
    request: dict = {"cmd": "play", "player": player, "card": code}
    for word in words[1:]:
        key, value = _play_extra(code, word, players, player, hands)
        if key in request:
            raise InputError(_extra([word], f"a {code} takes one {_EXTRA_NAMES[key]}, not two"))
        request[key] = value
    return Command("play", request)


_EXTRA_NAMES = {"color": "colour", "target": "player to trade with", "count": "count"}


def _play_extra(
    code: str, word: str, players: Sequence[str], player: str, hands: Hands
) -> tuple[str, Any]:
    """One word after a card: a wild's colour, a Trade Hands' partner or a Discard All's extra cards."""
    kind = CARDS[code].kind
    if kind == "discard_all" and word.lstrip("-").isdigit():
        most = max(hands.get(player, 1) - 1, 0) if hands else 25
        count = int(word)
        if not 0 <= count <= most:
            raise InputError(
                f"{word}: {player} can discard 0 to {most} more {COLOR_NAMES[code[0]]} cards with {code}"
            )
        return "count", count
    if kind == "trade" and _is_player(word, players):
        return "target", find_player(word, players)
    if CARDS[code].color is None and word.lower() in (*COLOR_WORDS, *"rygb"):
        return "color", _color(word)
    what = {
        "discard_all": f"the number of other {COLOR_NAMES.get(code[0], '')} cards discarded, e.g. `{code} 2`",
        "trade": f"the player to trade hands with, e.g. `{code} {players[-1]}`",
    }.get(kind, f"a colour, e.g. `{code} red`" if CARDS[code].color is None else "nothing after the card")
    raise InputError(_extra([word], f"{code} ({card_meaning(code)}) takes {what}"))


def _one_player(verb: str, example: str):
    def parse(words: list[str], players: Sequence[str], turn: str | None, hands: Hands) -> Command:
        if not words:
            raise InputError(f"say who: `{verb} {example}`")
        if len(words) > 1:
            raise InputError(_extra(words[1:], f"`{verb}` takes one name: `{verb} {example}`"))
        return Command(verb, {"cmd": verb, "player": find_player(words[0], players)})

    return parse


def _catch(words: list[str], players: Sequence[str], turn: str | None, hands: Hands) -> Command:
    if len(words) >= 3 and words[1].lower() == "by":
        words = [words[0], *words[2:]]
    if len(words) > 2:
        raise InputError(_extra(words[2:], "`catch Bob by Cy` names two players"))
    if len(words) != 2:
        raise InputError("say who is caught and by whom: `catch Bob by Cy`")
    caught, by = (find_player(w, players) for w in words)
    return Command("catch", {"cmd": "catch", "player": caught, "by": by})


def _penalty(words: list[str], players: Sequence[str], turn: str | None, hands: Hands) -> Command:
    if len(words) > 2:
        raise InputError(_extra(words[2:], "`penalty Bob advice` names a player and a kind"))
    if len(words) != 2 or words[1].lower() not in PENALTY_KINDS:
        raise InputError("say who and what: `penalty Bob advice` (P1) or `penalty Bob wrong_card` (P2)")
    kind = PENALTY_KINDS[words[1].lower()]
    return Command("penalty", {"cmd": "penalty", "player": find_player(words[0], players), "kind": kind})


def _draw(words: list[str], players: Sequence[str], turn: str | None, hands: Hands) -> Command:
    if len(words) > 2:
        raise InputError(_extra(words[2:], "`draw Ann G7` names a player and one card"))
    if len(words) != 2:
        raise InputError("say who drew which card: `draw Ann G7` (S1: the highest number deals)")
    return Command("draw", {"player": find_player(words[0], players), "card": _card(words[1])})


def _deal(words: list[str], players: Sequence[str], turn: str | None, hands: Hands) -> Command:
    if len(words) > 1:
        raise InputError(_extra(words[1:], "`deal` takes at most the dealer's name: `deal Ann`"))
    request: dict = {"cmd": "deal"}
    if words:
        request["dealer"] = find_player(words[0], players)
    return Command("deal", request)


def _flip(words: list[str], players: Sequence[str], turn: str | None, hands: Hands) -> Command:
    if len(words) > 2:
        raise InputError(_extra(words[2:], "`flip W red` names a card and, for a wild, a colour"))
    if not words:
        raise InputError("say which card was turned up: `flip G7`, or `flip W red` for a wild")
    request: dict = {"cmd": "flip", "card": _card(words[0])}
    if len(words) == 2:
        if CARDS[request["card"]].color is not None:
            own = f"{request['card']} has its own colour; only a wild takes one"
            raise InputError(_extra(words[1:], own))
        request["color"] = _color(words[1])
    return Command("flip", request)


def _score(words: list[str], players: Sequence[str], turn: str | None, hands: Hands) -> Command:
    if words and all(w.lstrip("-").isdigit() for w in words) and len(words) == len(players):
        words = [f"{p}={w}" for p, w in zip(players, words, strict=True)]
    points: dict[str, int] = {}
    for word in words:
        name, sep, value = word.partition("=")
        if not sep or not value.lstrip("-").isdigit():
            raise InputError(_extra([word], "give the points left in each hand: `score Ann=0 Bob=23 ...`"))
        player = find_player(name, players)
        if player in points:
            raise InputError(f"{player}'s points are given twice; give each player once")
        points[player] = _hand_points(player, int(value), hands)
    missing = [p for p in players if p not in points]
    if missing:
        raise InputError(f"give points for every player; missing: {', '.join(missing)} (0 for who went out)")
    return Command("score", {"cmd": "score", "points": points})


def _hand_points(player: str, points: int, hands: Hands) -> int:
    """Points left in a hand: 0 to 50 per card held (a wild is worth the most)."""
    held = hands.get(player)
    most = MAX_CARD_POINTS * held if held is not None else MAX_CARD_POINTS * 112
    if not 0 <= points <= most:
        cards = f"holds {held} card{'s' if held != 1 else ''}" if held is not None else "may hold the deck"
        raise InputError(
            f"{player}={points}: {player} {cards}, so their points are 0 to {most} "
            f"(at most {MAX_CARD_POINTS} a card)"
        )
    return points


def _settle(words: list[str], players: Sequence[str], turn: str | None, hands: Hands) -> Command:
    """The count of a fire the table stopped in (a crash, a link lost while firing): `settle 2`."""
    if len(words) > 1:
        raise InputError(_extra(words[1:], "`settle 2` takes one count"))
    if not words or not words[0].isdigit():
        raise InputError("say how many cards came out of the fire the table stopped in: `settle 2` "
                         "(`settle 0` if none came out)")
    return Command("settle", {"cmd": "settle", "fired": int(words[0])})


_HANDLERS = {
    "play": lambda words, players, turn, hands: _play(["play", *words], players, turn, hands),
    "uno": _one_player("uno", "Bob"),
    "catch": _catch,
    "penalty": _penalty,
    "draw": _draw,
    "deal": _deal,
    "flip": _flip,
    "score": _score,
    "settle": _settle,
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
    if verb == "settle":
        return []
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
