"""One situation, one code, in every edition (issue 13, item 18): while an edition's special card waits for
its player's choice (`pending`: Barbie's gift BA-A1, Casting Call's turning and share CC-A1/CC-A2, Mario
Kart's item and choice MK-I1), every other move by anyone is refused with `pending_choice`, as
docs/table-protocol.md says, and the state is left as it was."""

from __future__ import annotations

import pytest

from tests.editions.kit import physical_table, refuse
from tests.table.tablekit import accept

# edition -> (first card, the special play by Bob, a card the others hold, the edition's own request(s))
WAITS = {
    "barbie": ("T7", {"card": "WB", "color": "pink"}, "T5", [{"cmd": "gift", "to": "Dee", "cards": ["T1"]}]),
    "casting-call": ("G7", {"card": "WC", "color": "red"}, "R5",
                     [{"cmd": "turn", "card": "R6", "fired": 1}, {"cmd": "share", "to": "Dee"}]),
    "mario-kart": ("G7", {"card": "WI"}, "G5",
                   [{"cmd": "item", "fired": 1, "card": "G5", "item": "banana"},
                    {"cmd": "choose", "color": "red"}]),
}


def waiting(edition: str):
    first, special, _, _ = WAITS[edition]
    table = physical_table(edition, first=first)
    state = accept(table, cmd="play", player="Bob", **special)
    assert state["pending"]["player"] == "Bob"
    return table


@pytest.mark.parametrize("edition", sorted(WAITS))
@pytest.mark.parametrize("player", ["Ann", "Cy", "Dee"])
def test_every_other_players_move_waits_with_pending_choice(edition, player):
    table = waiting(edition)
    card = WAITS[edition][2]
    refuse(table, "pending_choice", cmd="play", player=player, card=card)
    refuse(table, "pending_choice", cmd="draw", player=player, fired=1)
    refuse(table, "pending_choice", cmd="pass", player=player)
    for request in WAITS[edition][3]:
        refuse(table, "pending_choice", player=player, **request)


@pytest.mark.parametrize("edition", sorted(WAITS))
def test_the_choosers_own_other_moves_wait_with_pending_choice(edition):
    table = waiting(edition)
    card = WAITS[edition][2]
    refuse(table, "pending_choice", cmd="play", player="Bob", card=card)
    refuse(table, "pending_choice", cmd="draw", player="Bob", fired=1)
    refuse(table, "pending_choice", cmd="pass", player="Bob")
    for request in WAITS[edition][3][1:]:  # the edition's later choice, before the one due
        refuse(table, "pending_choice", player="Bob", **request)
