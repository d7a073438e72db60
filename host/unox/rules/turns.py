"""Turn order shared by every ruleset: the active seats, the direction, whose turn it is, and the ordered
list of presses (or draws) still owed. Card effects change the table only through this object
(`ruleset.TableOps`).

Seats are indices into the active players, in seating order; "left" is the next seat in that order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

LEFT, RIGHT = 1, -1


class TurnOrder:
    """The seats in play and who acts next. `owed` holds `[player, presses]`; presses None = until fire."""

    def __init__(self, players: Sequence[str], swap: Callable[[str, str], None], unit: str = "presses"):
        self._swap = swap
        self.unit = unit  # "presses" (Extreme) or "draws" (the draw editions), as the state names them
        self.set_players(players)

    def set_players(self, players: Sequence[str]) -> None:
        """A new seating (a new hand, or G3 after players dropped out)."""
        self.players: list[str] = list(players)
        self.seats = len(self.players)
        self.index = {p: i for i, p in enumerate(self.players)}
        self.reset()

    def reset(self) -> None:
        self.direction = LEFT
        self.turn = 0
        self.owed: list[list] = []
        self.must_match = False

    # --- the TableOps interface used by card effects ------------------------------------------------------

    def seat_after(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % self.seats

    def set_turn(self, seat: int) -> None:
        self.turn = seat

    def reverse_direction(self) -> None:
        self.direction = -self.direction

    def set_direction_right(self) -> None:
        self.direction = RIGHT

    def owe(self, seat: int, presses: int) -> None:
        self.owed.append([self.players[seat], presses])

    def owe_until_fire(self, seat: int) -> None:
        self.owed.append([self.players[seat], None])

    def trade_hands(self, seat: int, other: int) -> None:
        self._swap(self.players[seat], self.players[other])

    def require_match(self) -> None:
        """S4 Discard All: the first player must play a matching card if they hold one."""
        self.must_match = True

    # --- read side ---------------------------------------------------------------------------------------

    @property
    def turn_player(self) -> str:
        return self.players[self.turn]

    def presser(self) -> str:
        """Whoever owes the first press, else the player whose turn it is."""
        return self.owed[0][0] if self.owed else self.players[self.turn]

    def owes(self, player: str) -> bool:
        return any(entry[0] == player for entry in self.owed)

    def owed_state(self) -> list[dict]:
        return [
            {"player": entry[0], self.unit: entry[1]} if entry[1] is not None
            else {"player": entry[0], "until_fire": True}
            for entry in self.owed
        ]

    def direction_name(self) -> str:
        return "left" if self.direction == LEFT else "right"
