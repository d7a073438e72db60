"""Bounds a request's numbers must keep given the table as it is: no press or draw gives cards the table
has not got, no draw more than is due, no hand is scored for more than its cards can be worth (issue 7,
item 8).

The absolute bounds (a count never exceeds the edition's deck) are in `requests`; these depend on the state,
"as far as the table knows": hands and the discard pile are counted, so the cards left for the launcher are
the rest of the edition's deck (108 cards in classic UNO, 112 in Extreme).
"""

from __future__ import annotations

from typing import Any

from unox.table.requests import DECK_SIZE, POINTS_PER_CARD, ProtocolError
from unox.words import counted


def deck_size(game: Any) -> int:
    """The cards of the game's edition (`Ruleset.deck`); the Extreme deck for an engine without one."""
    deck = getattr(getattr(game, "rules", None), "deck", None)
    return len(deck) if deck else DECK_SIZE


def free_cards(state: dict[str, Any], deck: int = DECK_SIZE) -> int:
    """Cards neither in a hand nor on the discard pile, as far as the table knows: all a fire can give."""
    return deck - sum(state.get("hands", {}).values()) - int(state.get("discard") or 0)


def check_fired(
    state: dict[str, Any], fired: int, player: str | None, deck: int = DECK_SIZE, *, due: int | None = None
) -> None:
    """A press, draw or settle reporting more cards than the table has outside the hands and pile, or a draw
    more than `due` (what the player is owed now; 0 or None: the rules say why nothing is due): bad_fired."""
    if state.get("phase") not in ("turn", "flip"):
        return  # the rules refuse it for its phase, with their own code (flip: the launcher deals, DL4)
    if due and fired > due:
        raise ProtocolError(
            "bad_fired",
            f"{player} is due {counted(due, 'card')} now, so a draw gives at most that many (DL2), not "
            f"{fired}; give the number that really came out (fire the rest with another draw)",
        )
    free = free_cards(state, deck)
    if fired > free:
        raise ProtocolError(
            "bad_fired",
            f"{player or 'the presser'} cannot have got {counted(fired, 'card')}: as far as the table knows "
            f"only {counted(free, 'card')} {'is' if free == 1 else 'are'} outside the hands and the discard "
            "pile; give the number that really came out",
        )


def hand_values(game: Any) -> list[int]:
    """The deck's card values, highest first (the most any n cards can be worth is the sum of the first n)."""
    try:
        cards = game.rules.cards
        return sorted((cards[code].points for code in game.rules.deck), reverse=True)
    except (AttributeError, KeyError, TypeError):
        return [POINTS_PER_CARD] * deck_size(game)


def check_points(game: Any, state: dict[str, Any], points: dict[str, int]) -> None:
    """Score points that the player's hand, as the table counted it, could not hold: bad_points."""
    if state.get("phase") != "hand_over":
        return
    values = hand_values(game)
    hands = state.get("hands", {})
    for player, given in points.items():
        held = hands.get(player)
        if held is None:
            continue
        most = sum(values[: max(0, held)])
        if given > most:
            raise ProtocolError(
                "bad_points",
                f"{player} holds {counted(held, 'card')} as far as the table knows, worth at most "
                f"{counted(most, 'point')}, not {given}; give the points of the cards left in {player}'s "
                "hand",
            )
