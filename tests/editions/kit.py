"""Helpers for the edition tests: tables of any edition, physical or dealt, driven through the table protocol
(the JSON line path), with refusals checked to change nothing."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from typing import Any

from unox.rules.game import Game
from unox.rules.stacking import stacked_deck
from unox.table.runtime import Table
from unox.table.settings import TableSettings

from tests.table.tablekit import accept, send

PLAYERS = ("Ann", "Bob", "Cy", "Dee")


def physical_table(rules: str, players=PLAYERS, *, launcher=None, journal=None, first: str | None = None,
                   color=None, **settings: Any) -> Table:
    """A physical table of `rules`; with `first`, dealt by Ann (so Bob is on the left) and flipped."""
    settings_ = TableSettings(players=tuple(players), rules=rules, **settings)
    table = Table.create(settings_, launcher=launcher, journal=journal)
    if first is not None:
        accept(table, cmd="deal", dealer=players[0])
        if launcher is not None:
            accept(table, cmd="flip")  # DL3: the launcher fires the first card; the table says which
        flip = {"cmd": "flip", "card": first}
        if color is not None:
            flip["color"] = color
        accept(table, **flip)
    return table


def dealt_table(rules: str, hands=None, flip=("G7",), then=(), players=PLAYERS, color=None, seed=0,
                **options: Any) -> Table:
    """A dealt-mode table (the engine holds the cards) from a stacked deck, dealt by the first player."""
    dealer = players[0]
    game = Game(list(players), mode="dealt", rng=random.Random(seed), ruleset=rules, **options)
    game.deal(dealer, stack=stacked_deck(players, dealer, hands, flip, then, rules=rules))
    for _ in flip:
        if game.phase == "flip":
            game.flip(color=color)
    return Table(game)


def refuse(table: Table, code: str, **request: Any) -> dict:
    """A request refused with `code`, leaving the state and the accepted requests as they were."""
    before = copy.deepcopy(table.state())
    entries = list(table.entries)
    reply = send(table, **request)
    assert reply["ok"] is False, reply
    assert reply["error"]["code"] == code, reply
    message = reply["error"]["message"]
    assert len(message.strip()) > 15 and "\n" not in message
    assert reply["state"] == before == table.state()
    assert table.entries == entries
    return reply["error"]


def hand(table: Table, player: str) -> list[str]:
    """Dealt mode: the codes `player` holds."""
    return [c.code for c in table.game.hand(player)]


def give(table: Table, player: str, codes: list[str]) -> None:
    """Dealt mode: `player` holds exactly `codes`, taken from the launcher or another hand (which gets one of
    `player`'s old cards instead); the rest of the old cards go under the launcher. No card is made or
    lost."""
    cards = table.game.cards
    spare = list(cards.hands[player])
    cards.hands[player] = []
    for code in codes:
        card = table.game.rules.cards[code]
        if card in spare:
            spare.remove(card)
        elif card in cards.stack:
            cards.stack.remove(card)
        else:
            other = next(h for p, h in cards.hands.items() if p != player and card in h)
            other[other.index(card)] = spare.pop()
        cards.hands[player].append(card)
    cards.stack[:0] = spare


def unox(*argv: str, stdin: str = "") -> subprocess.CompletedProcess:
    """The command as a user runs it: `python -m unox ...` in a subprocess."""
    return subprocess.run([sys.executable, "-m", "unox", *argv], input=stdin, capture_output=True, text=True,
                          timeout=300)
