"""What a person types at the table, turned into one table-protocol request.

One grammar serves the textual UI's command line and the plain `unox play --plain` loop:

    R5 | Bob R5 | play Bob W red | Bob RT Cy | Bob GD 2     announce a play (the turn player by default)
    press                                                  a button press (simulated on the sim launcher)
    uno Bob | catch Bob by Cy | penalty Bob advice         calls and penalties (P1 advice, P2 wrong_card)
    reload | undo | draw Ann G7 | deal Ann | flip G7 [red] | score Ann=0 Bob=23 | settle 2 | help | quit
    launcher accept                                        fire the other launcher at the port from now on

A draw edition (`--rules classic`, ...) reads its own cards (R+2, RR, RS, W, W+4) and colours, and adds
`draw Bob [2]`, `pass Bob`, `challenge Bob guilty|innocent` and its own requests, typed generically from
`Ruleset.requests`: `gift Bob to Cy T5 P7` or `gift player=Bob to=Cy cards=T5,P7`.

A line is taken whole or not at all: a word the grammar has no place for is refused by name, never
dropped, and every number is checked against its range. Bad input raises `InputError` whose message says
what to type instead; nothing reaches the table then. A seated player's name always means that player, so
a player called `B` or `Deal` plays with `B G2` rather than pressing or dealing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from unox.rules.cards import CARDS, COLOR_NAMES, CardError, kind_name, parse_card, parse_color
from unox.rules.extreme import extreme_deck
from unox.table.night_context import Refused

if TYPE_CHECKING:
    from unox.rules.ruleset import Ruleset

COLOR_WORDS = ("red", "yellow", "green", "blue")
PENALTY_KINDS = {"advice": "advice", "p1": "advice", "wrong_card": "wrong_card", "wrong": "wrong_card",
                 "p2": "wrong_card"}
VERBS = ("play", "press", "uno", "catch", "penalty", "reload", "undo", "draw", "deal", "flip", "score",
         "settle", "launcher", "help", "quit")
BARE_VERBS = ("press", "reload", "undo", "help", "quit")  # verbs that take nothing after them
MAX_CARD_POINTS = max(card.points for card in CARDS.values())  # a wild: 50 points
Hands = Mapping[str, int]  # cards held per player
DRAW_VERBS = ("pass", "challenge")  # a draw edition's own verbs besides `draw`
FIELD_VALUES = {"player": "NAME", "players": "NAME,NAME", "count": "N", "flag": "yes|no", "texts": "X,Y"}
CHALLENGE_WORDS = {"guilty": True, "innocent": False, "yes": True, "no": False}
COMMANDS_HELP = (
    "Type a card for the player whose turn it is (R5; W red; RT Dee: Trade Hands with Dee; GD 2 discards two "
    "more green), or name the player first (Bob R5). Commands: press - uno Bob - catch Bob by Cy - "
    "penalty Bob advice|wrong_card - reload - undo - draw Ann G7 - deal [Ann] - flip G7 [red] - "
    "score Ann=0 Bob=23 ... - settle 2 (cards out of a fire the table stopped in) - launcher accept (fire "
    "the other launcher a link fault names from now on) - quit."
)


def commands_help(rules: Ruleset | None = None) -> str:
    """The help line: Extreme's, or a draw edition's with its own cards and requests."""
    rules = edition(rules)
    if rules is None:
        return COMMANDS_HELP
    cards = _examples(rules)
    own = "".join(f" - {request_usage(cmd, rules)}" for cmd in rules.requests)
    return (
        f"{rules.title}: type a card for the player whose turn it is ({cards}; a wild with its colour, "
        f"e.g. W {rules.color_words[0]}), or name the player first (Bob {next(iter(rules.cards))}). "
        "Commands: draw Bob (the launcher deals what is due; draw Bob 2 counts the cards taken) - pass Bob - "
        "challenge Bob guilty|innocent - uno Bob - catch Bob by Cy - penalty Bob advice|wrong_card - press - "
        f"reload - undo - draw Ann {next(iter(rules.cards))} (S1) - deal [Ann] - flip (the launcher fires "
        "the first card) - flip CARD [colour] - "
        f"score Ann=0 Bob=23 ...{own} - settle 2 (cards out of a fire the table stopped in) - launcher "
        "accept (fire the other launcher a link fault names from now on) - quit."
    )


InputError = Refused  # a line the table cannot take: the table night's refusal, one class for every front end


@dataclass
class Command:
    """A parsed line: `verb` plus the table request it stands for (empty for purely local verbs)."""

    verb: str
    request: dict = field(default_factory=dict)


def edition(rules: Ruleset | None) -> Ruleset | None:
    """The ruleset the play screen reads its cards from, or None for Extreme (the module-level tables)."""
    return None if rules is None or rules.name == "extreme" else rules


def rules_of(state: Mapping[str, Any], rules: Ruleset | None = None) -> Ruleset | None:
    """The edition: `rules` when the caller knows it (the session's), else the one the state names
    (`rules`); None for Extreme or an edition not installed here."""
    if rules is not None:
        return edition(rules)
    name = state.get("rules")
    if not name or name == "extreme":
        return None
    from unox.rules.editions import get_rules
    from unox.rules.errors import RuleError

    try:
        return edition(get_rules(name))
    except RuleError:
        return None


def card_codes(rules: Ruleset | None = None) -> list[str]:
    """Every distinct card code of the deck (Extreme's, or the edition's), in deck order, for completion."""
    rules = edition(rules)
    return list(dict.fromkeys(extreme_deck() if rules is None else (*rules.deck, *rules.cards)))


def card_meaning(code: str, rules: Ruleset | None = None) -> str:
    """A card code spelled out: `RD` -> `red Discard All`, `G7` -> `green 7`, `WF` -> `Wild Hit-Fire`;
    at another edition its own cards and colours: `TS` -> `turquoise Skip`, `W+4` -> `Wild Draw Four`."""
    rules = edition(rules)
    card = CARDS.get(code) if rules is None else rules.cards.get(code)
    if card is None:
        return code
    if card.color is None:
        return kind_name(card.kind)
    names = COLOR_NAMES if rules is None else rules.color_names
    return f"{names[card.color]} {card.number if card.number is not None else kind_name(card.kind)}"


def color_name(color: str | None, rules: Ruleset | None = None) -> str | None:
    """A colour in words, whether the state gives its letter or its name."""
    names = COLOR_NAMES if edition(rules) is None else edition(rules).color_names  # type: ignore[union-attr]
    return names.get(color or "", color)


def verbs(rules: Ruleset | None = None) -> tuple[str, ...]:
    """The commands typed at this edition's table: Extreme's, a draw edition's, the edition's own."""
    rules = edition(rules)
    if rules is None:
        return VERBS
    extra = DRAW_VERBS if rules.draws else ()
    return (*VERBS, *extra, *(cmd for cmd in rules.requests if cmd not in VERBS))


def parse_line(
    line: str, players: Sequence[str], turn: str | None = None, hands: Hands | None = None,
    rules: Ruleset | None = None,
) -> Command:
    """Parse one typed line against the seated `players`; `turn` is who plays when no name is given.

    `hands` (cards held per player) bounds the numbers typed: the points of a hand, a Discard All's count.
    `rules` is the table's edition: its cards, colours and requests (None or Extreme: Extreme's).
    """
    rules = edition(rules)
    words = line.split()
    if not words:
        raise InputError("type a card to play (e.g. R5), or `help` for every command")
    verb = words[0].lower()
    if _is_player(words[0], players) or verb not in verbs(rules):
        return _play(words, players, turn, hands or {}, rules)
    if verb in BARE_VERBS:
        if len(words) > 1:
            raise InputError(_extra(words[1:], f"`{verb}` takes nothing after it" + _why_bare(verb)))
        return Command(verb, {"cmd": "reload"} if verb == "reload" else {})
    if rules is not None and verb in rules.requests and verb not in _HANDLERS:
        return _edition_request(verb, words[1:], players, turn, rules)
    handler = _HANDLERS[verb]
    return handler(words[1:], players, turn, hands or {}, rules)


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


def _card(word: str, rules: Ruleset | None = None) -> str:
    try:
        return parse_card(word.upper()).code if rules is None else rules.parse_card(word).code
    except CardError as exc:
        written = "G7, RH (Hit 2), BR, YS, GD, RT, W, WA, WF" if rules is None else _examples(rules)
        raise InputError(
            f"{word!r} is not understood: not a card, a player or a command; cards are written like "
            f"{written}; `help` lists the commands"
        ) from exc


def _examples(rules: Ruleset) -> str:
    """A few of the edition's codes spelled out, for a refusal: `R7, R+2 (Draw Two), ..., W+4`."""
    shown: dict[str, str] = {}
    for code, card in rules.cards.items():
        key = card.kind if card.kind != "number" else "number"
        if key not in shown:
            shown[key] = code if card.kind in ("number", "wild") else f"{code} ({kind_name(card.kind)})"
    return ", ".join(shown.values())


def _color(word: str, rules: Ruleset | None = None) -> str:
    try:
        return parse_color(word) if rules is None else rules.parse_color(word)
    except CardError as exc:
        words = "red, yellow, green or blue" if rules is None else " or ".join(rules.color_words)
        raise InputError(f"{word!r} is not a colour; say {words}") from exc


def _play(
    words: list[str], players: Sequence[str], turn: str | None, hands: Hands, rules: Ruleset | None = None
) -> Command:
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
    code = _card(words[0], rules)
    request: dict = {"cmd": "play", "player": player, "card": code}
    for word in words[1:]:
        key, value = (_play_extra(code, word, players, player, hands) if rules is None
                      else _edition_play_extra(code, word, players, player, hands, rules))
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
        most = _most_more(player, hands)
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


def _most_more(player: str, hands: Hands) -> int:
    """How many more cards a count card (Discard All) may put down: all but itself (25, hands unknown)."""
    return max(hands.get(player, 1) - 1, 0) if hands else 25


def _edition_play_extra(
    code: str, word: str, players: Sequence[str], player: str, hands: Hands, rules: Ruleset
) -> tuple[str, Any]:
    """One word after an edition's card: a wild's colour, its target kinds' player, its count kinds' count."""
    card = rules.cards[code]
    if card.kind in rules.count_kinds and word.isdigit():
        most = _most_more(player, hands)
        if not 0 <= int(word) <= most:
            raise InputError(f"{word}: {player} can put down 0 to {most} more cards with {code}")
        return "count", int(word)
    if card.kind in rules.target_kinds and _is_player(word, players):
        return "target", find_player(word, players)
    if card.color is None and word.lower() in (*rules.color_words, *(c.lower() for c in rules.colors)):
        return "color", _color(word, rules)
    wants = []
    if card.color is None:
        wants.append(f"a colour ({', '.join(rules.color_words)})")
    if card.kind in rules.target_kinds:
        wants.append("a player")
    if card.kind in rules.count_kinds:
        wants.append("a count")
    what = " and ".join(wants) or "nothing after the card"
    raise InputError(_extra([word], f"{code} ({card_meaning(code, rules)}) takes {what}"))


def _one_player(verb: str, example: str):
    def parse(
        words: list[str], players: Sequence[str], turn: str | None, hands: Hands, rules: Ruleset | None = None
    ) -> Command:
        if not words:
            raise InputError(f"say who: `{verb} {example}`")
        if len(words) > 1:
            raise InputError(_extra(words[1:], f"`{verb}` takes one name: `{verb} {example}`"))
        return Command(verb, {"cmd": verb, "player": find_player(words[0], players)})

    return parse


def _catch(
    words: list[str], players: Sequence[str], turn: str | None, hands: Hands, rules: Ruleset | None = None
) -> Command:
    if len(words) >= 3 and words[1].lower() == "by":
        words = [words[0], *words[2:]]
    if len(words) > 2:
        raise InputError(_extra(words[2:], "`catch Bob by Cy` names two players"))
    if len(words) != 2:
        raise InputError("say who is caught and by whom: `catch Bob by Cy`")
    caught, by = (find_player(w, players) for w in words)
    return Command("catch", {"cmd": "catch", "player": caught, "by": by})


def _penalty(
    words: list[str], players: Sequence[str], turn: str | None, hands: Hands, rules: Ruleset | None = None
) -> Command:
    if len(words) > 2:
        raise InputError(_extra(words[2:], "`penalty Bob advice` names a player and a kind"))
    if len(words) != 2 or words[1].lower() not in PENALTY_KINDS:
        raise InputError("say who and what: `penalty Bob advice` (P1) or `penalty Bob wrong_card` (P2)")
    kind = PENALTY_KINDS[words[1].lower()]
    return Command("penalty", {"cmd": "penalty", "player": find_player(words[0], players), "kind": kind})


def _draw(
    words: list[str], players: Sequence[str], turn: str | None, hands: Hands, rules: Ruleset | None = None
) -> Command:
    if rules is not None and rules.draws and (len(words) < 2 or words[1].isdigit()):
        return _launcher_draw(words, players)
    if len(words) > 2:
        raise InputError(_extra(words[2:], "`draw Ann G7` names a player and one card"))
    if len(words) != 2:
        raise InputError("say who drew which card: `draw Ann G7` (S1: the highest number deals)")
    return Command("draw", {"player": find_player(words[0], players), "card": _card(words[1], rules)})


def _launcher_draw(words: list[str], players: Sequence[str]) -> Command:
    """A draw edition's draw: `draw Bob` (the launcher fires what is due) or `draw Bob 2` (cards counted)."""
    if not words:
        raise InputError("say who draws: `draw Bob` (the launcher deals what is due), or `draw Bob 2` with "
                         "the cards taken at a table without a launcher; `draw Ann G7` picks the dealer (S1)")
    if len(words) > 2:
        raise InputError(_extra(words[2:], "`draw Bob 2` names a player and the cards taken"))
    request: dict = {"cmd": "draw", "player": find_player(words[0], players)}
    if len(words) == 2:
        request["fired"] = int(words[1])
    return Command("turn_draw", request)


def _pass(
    words: list[str], players: Sequence[str], turn: str | None, hands: Hands, rules: Ruleset | None = None
) -> Command:
    """C-T2: after the turn's draw the player keeps the card and play passes on (unnamed: the turn player)."""
    if len(words) > 1:
        raise InputError(_extra(words[1:], "`pass Bob` takes one name"))
    if not words and turn is None:
        raise InputError("say who passes: `pass Bob`")
    return Command("pass", {"cmd": "pass", "player": find_player(words[0], players) if words else turn})


def _challenge(words: list[str], players: Sequence[str], turn: str | None, hands: Hands,
               rules: Ruleset | None = None) -> Command:
    """C-A7 at a physical table: the victim challenges and the table says what the hand showed."""
    how = "`challenge Cy guilty` (the hand held the colour: its player draws) or `challenge Cy innocent`"
    if len(words) > 2:
        raise InputError(_extra(words[2:], how))
    if len(words) != 2 or words[1].lower() not in CHALLENGE_WORDS:
        raise InputError(f"say who challenges and what the hand showed: {how}")
    guilty = CHALLENGE_WORDS[words[1].lower()]
    player = find_player(words[0], players)
    return Command("challenge", {"cmd": "challenge", "player": player, "guilty": guilty})


def request_usage(cmd: str, rules: Ruleset) -> str:
    """How an edition's own request is typed: `gift PLAYER [to=PLAYER] cards=CARD,CARD ...`."""
    parts = [cmd]
    for name, field_ in rules.requests[cmd].items():
        value = FIELD_VALUES.get(field_.kind, "TEXT")
        part = f"{name}={value}"
        parts.append(part if field_.required else f"[{part}]")
    return " ".join(parts)


def _edition_request(verb: str, words: list[str], players: Sequence[str], turn: str | None,
                     rules: Ruleset) -> Command:
    """An edition's own request, typed generically: `key=value` words, a field's name before its value
    (`to Cy`), or plain values that fill the fields in order by what they are (a name, a number, a card)."""
    fields = rules.requests[verb]
    usage = request_usage(verb, rules)
    request: dict[str, Any] = {"cmd": verb}
    named: str | None = None  # a field named by the word before (`to Cy`)
    # The fields the line names itself (`to Cy`, `to=Cy`): a plain name then fills another one.
    explicit = {w.partition("=")[0].lower() for w in words if w.partition("=")[0].lower() in fields}
    for word in words:
        key, sep, value = word.partition("=")
        if sep and key.lower() in fields:
            _put(request, key.lower(), value, fields[key.lower()].kind, players, rules, usage)
            named = None
        elif word.lower() in fields and fields[word.lower()].kind != "flag" and named is None:
            named = word.lower()
        elif named is not None:
            _put(request, named, word, fields[named].kind, players, rules, usage)
            named = None
        elif word.lower() in fields:  # a flag named alone is set
            request[word.lower()] = True
        else:
            name = _field_for(word, fields, request, players)
            if name == "player" and turn is not None and find_player(word, players) != turn:
                # `gift Bob T5 P7` while Ann's gift is due: Ann gives, so Bob is the one who receives
                name = next((other for other, f in fields.items() if other != "player" and f.kind == "player"
                             and other not in request and other not in explicit), name)
            if name is None:
                raise InputError(_extra([word], f"type it as {usage}"))
            _put(request, name, word, fields[name].kind, players, rules, usage)
    if named is not None:
        raise InputError(f"`{named}` needs a value after it: {usage}")
    if "player" in fields and "player" not in request and turn is not None:
        request["player"] = turn
    missing = [name for name, f in fields.items() if f.required and name not in request and name != "fired"]
    if missing:
        raise InputError(f"give {', '.join(missing)}: {usage}")
    return Command(verb, request)


def _field_for(word: str, fields: Mapping[str, Any], request: dict, players: Sequence[str]) -> str | None:
    """The field a plain value fills: the first still open whose kind takes it (lists stay open)."""
    for name, field_ in fields.items():
        taken = name in request and field_.kind not in ("players", "texts")
        if taken:
            continue
        kind = field_.kind
        if kind in ("player", "players") and _is_player(word, players):
            return name
        if kind == "count" and word.isdigit():
            return name
        if kind in ("text", "texts") and not _is_player(word, players):
            return name
    return None


def _put(request: dict, name: str, value: str, kind: str, players: Sequence[str], rules: Ruleset,
         usage: str) -> None:
    if kind == "player":
        if name in request:
            raise InputError(_extra([value], f"{name} is given twice: {usage}"))
        request[name] = find_player(value, players)
    elif kind == "players":
        request.setdefault(name, []).extend(find_player(v, players) for v in value.split(",") if v)
    elif kind == "count":
        if not value.isdigit():
            raise InputError(_extra([value], f"{name} is a whole number: {usage}"))
        request[name] = int(value)
    elif kind == "flag":
        if value.lower() not in ("yes", "no", "true", "false"):
            raise InputError(_extra([value], f"{name} is yes or no: {usage}"))
        request[name] = value.lower() in ("yes", "true")
    elif kind == "texts":
        request.setdefault(name, []).extend(_text(v, rules) for v in value.split(",") if v)
    else:
        request[name] = _text(value, rules)


def _text(word: str, rules: Ruleset) -> str:
    """A card code as the edition writes it (`t5` -> `T5`); any other word as typed."""
    card = rules.cards.get(word.upper())
    return card.code if card is not None else word


def _deal(
    words: list[str], players: Sequence[str], turn: str | None, hands: Hands, rules: Ruleset | None = None
) -> Command:
    if len(words) > 1:
        raise InputError(_extra(words[1:], "`deal` takes at most the dealer's name: `deal Ann`"))
    request: dict = {"cmd": "deal"}
    if words:
        request["dealer"] = find_player(words[0], players)
    return Command("deal", request)


def flip_examples(rules: Ruleset | None = None) -> tuple[str, str]:
    """`flip G7` and `flip W red` in this edition's own cards and colours (Barbie has no red)."""
    if rules is None:
        return "flip G7", "flip W red"
    color = "G" if "G" in rules.colors else rules.colors[0]
    card = f"{color}7" if f"{color}7" in rules.cards else next(c for c, k in rules.cards.items() if k.color)
    wild = "W" if "W" in rules.cards else next(c for c, k in rules.cards.items() if k.color is None)
    named = "R" if "R" in rules.colors else rules.colors[0]
    return f"flip {card}", f"flip {wild} {rules.color_names[named]}"


def _flip(
    words: list[str], players: Sequence[str], turn: str | None, hands: Hands, rules: Ruleset | None = None
) -> Command:
    card_example, wild_example = flip_examples(rules)
    if len(words) > 2:
        raise InputError(_extra(words[2:], f"`{wild_example}` names a card and, for a wild, a colour"))
    if not words:
        if rules is not None and rules.draws:
            return Command("flip", {"cmd": "flip"})  # DL3: the launcher fires the first card
        raise InputError(f"say which card was turned up: `{card_example}`, or `{wild_example}` for a wild")
    request: dict = {"cmd": "flip", "card": _card(words[0], rules)}
    if len(words) == 2:
        if (CARDS if rules is None else rules.cards)[request["card"]].color is not None:
            own = f"{request['card']} has its own colour; only a wild takes one"
            raise InputError(_extra(words[1:], own))
        request["color"] = _color(words[1], rules)
    return Command("flip", request)


def _score(
    words: list[str], players: Sequence[str], turn: str | None, hands: Hands, rules: Ruleset | None = None
) -> Command:
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


def _settle(
    words: list[str], players: Sequence[str], turn: str | None, hands: Hands, rules: Ruleset | None = None
) -> Command:
    """The count of a fire the table stopped in (a crash, a link lost while firing): `settle 2`."""
    if len(words) > 1:
        raise InputError(_extra(words[1:], "`settle 2` takes one count"))
    if not words or not words[0].isdigit():
        raise InputError("say how many cards came out of the fire the table stopped in: `settle 2` "
                         "(`settle 0` if none came out)")
    return Command("settle", {"cmd": "settle", "fired": int(words[0])})


LAUNCHER_USAGE = ("`launcher accept` takes the launcher now at the port as this table's, after a link fault "
                  "said 'board X, not Y' (another launcher answers there): the journal is bound to it")


def _launcher(words: list[str], players: Sequence[str], turn: str | None, hands: Hands,
              rules: Ruleset | None = None) -> Command:
    """`launcher accept`: the only launcher command; the night checks that another launcher is there."""
    if [w.lower() for w in words] != ["accept"]:
        raise InputError(_extra(words, LAUNCHER_USAGE) if words else f"say what: {LAUNCHER_USAGE}")
    return Command("launcher", {})


_HANDLERS = {
    "play": lambda words, players, turn, hands, rules=None: _play(
        ["play", *words], players, turn, hands, rules
    ),
    "uno": _one_player("uno", "Bob"),
    "catch": _catch,
    "penalty": _penalty,
    "draw": _draw,
    "deal": _deal,
    "flip": _flip,
    "score": _score,
    "settle": _settle,
    "launcher": _launcher,
    "pass": _pass,
    "challenge": _challenge,
}


def suggest(value: str, players: Sequence[str], rules: Ruleset | None = None) -> str | None:
    """The whole line with its last word completed, or None: the textual Input shows it greyed out."""
    words = value.split(" ")
    prefix = words[-1]
    if not prefix:
        return None
    for candidate in _candidates(words[:-1], players, edition(rules)):
        if candidate.casefold().startswith(prefix.casefold()) and len(candidate) > len(prefix):
            return " ".join([*words[:-1], candidate])
    return None


def _candidates(before: list[str], players: Sequence[str], rules: Ruleset | None = None) -> list[str]:
    words = [w.lower() for w in before if w]
    colors = list(COLOR_WORDS) if rules is None else list(rules.color_words)
    if not words:
        return [*verbs(rules), *players, *card_codes(rules)]
    verb = words[0]
    if verb == "settle":
        return []
    if verb == "launcher":
        return ["accept"] if len(words) == 1 else []
    if verb in ("pass", "challenge") and len(words) == 1:
        return list(players)
    if verb == "challenge":
        return ["guilty", "innocent"]
    if rules is not None and verb in rules.requests:
        return [*players, *rules.requests[verb], *card_codes(rules)]
    if verb in ("uno", "deal", "draw", "catch", "penalty") and len(words) == 1:
        return list(players)
    if verb == "catch":
        return ["by", *players]
    if verb == "penalty":
        return ["advice", "wrong_card"]
    if verb in ("flip", "draw"):
        return card_codes(rules) if len(words) == (1 if verb == "flip" else 2) else colors
    if verb == "play":
        words = words[1:]
    if words and words[0] in (p.lower() for p in players):
        words = words[1:]
    if not words:
        return card_codes(rules)
    return [*colors, *players]


def name_clash(name: str, rules: Ruleset | None = None) -> str | None:
    """Why a seat's name would read as something else on the command line (a card or a command), or None:
    a player called `R5` or `quit` could never be named in a typed line without doubt (issue 13), nor one
    whose name holds a space (a typed line splits at spaces: `deal Ann Lee`) or `=` (`score Ann=5`)."""
    if any(char.isspace() for char in name):
        return "more than one word (a typed line splits at spaces: `deal Ann Lee` names Ann)"
    if "=" in name:
        return "a score (`score NAME=POINTS` splits at the =)"
    if name.casefold() in {verb.casefold() for verb in verbs(rules)}:
        return f"the command `{name.lower()}`"
    try:
        code = _card(name, edition(rules))
    except InputError:
        return None
    return f"the card {code} ({card_meaning(code, rules)})"
