"""The plug-in interface of an edition: what a ruleset module declares, and the defaults it inherits.

An edition is one module in `unox.rules.editions` that defines `RULES`, an instance of a `Ruleset`
subclass. The shared core (`game`, `turns`, `tracking`, `scoring`) runs phases, turn order, owed actions and
scoring; the ruleset says what is specific: its cards (`cardset`, `deck`), what a card does when played
(`apply`) and when turned up first (`first_card`), whether the launcher is pressed or is an exact-count
dealer (`draws`), its penalties, its challengeable cards, its variants, and any requests of its own
(`requests`, answered by `call`). Effects talk to the table only through `TableOps` (a `TurnOrder`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from unox.rules.cardset import CardSet

if TYPE_CHECKING:
    import random

    from unox.rules.cards import Card
    from unox.rules.game import Game


class TableOps(Protocol):
    """What a card effect may do to the table. Seats are indices into the active players."""

    seats: int

    def seat_after(self, seat: int, steps: int = 1) -> int: ...
    def set_turn(self, seat: int) -> None: ...
    def reverse_direction(self) -> None: ...
    def set_direction_right(self) -> None: ...
    def owe(self, seat: int, presses: int) -> None: ...
    def owe_until_fire(self, seat: int) -> None: ...
    def trade_hands(self, seat: int, other: int) -> None: ...
    def require_match(self) -> None: ...


class Play(NamedTuple):
    """One legal way to play a card: `color` for wilds, `target` for Trade Hands, `count` for Discard All."""

    card: str
    color: str | None = None
    target: str | None = None
    count: int | None = None


class RequestField(NamedTuple):
    """One field of an edition's own request: kind is player, text, count, flag, players or texts."""

    kind: str
    required: bool = True
    hint: str = ""


Effect = Callable[["TableOps", int, "int | None"], None]
FirstEffect = Callable[["TableOps", int], bool]


class Ruleset:
    """Defaults shared by every edition; a subclass sets the class attributes and its effect tables."""

    name = ""  # the --rules name
    title = ""  # for people: "UNO Extreme"
    cardset: CardSet
    deck: tuple[str, ...] = ()
    draws = False  # True: the launcher deals exactly what is due (draw/pass); False: presses (Extreme)
    # penalties in presses or draws: advice (P1), wrong card (P2), UNO not called (U2)
    penalties: Mapping[str, int] = {"advice": 4, "wrong_card": 2, "uno": 2}
    challengeable: frozenset[str] = frozenset()  # kinds whose victim may challenge (C-A7)
    challenge_draws = (4, 2)  # C-A7: a guilty player draws 4; a wrong challenger 2 more than the 4 owed
    target_kinds: frozenset[str] = frozenset()  # kinds played with a "target" player
    count_kinds: frozenset[str] = frozenset()  # kinds played with a "count"
    game_kinds: frozenset[str] = frozenset()  # kinds whose effect needs the whole game: `after_play`
    may_decline = True  # C-T3: a playable card may be kept and a draw taken instead (Barbie's BA-T1: False)
    colorless_kinds: frozenset[str] = frozenset()  # wild kinds played without naming a colour (MK-I1)
    first_covered = False  # a first card refused (`first_card` False) stays on the pile, covered (MK-S4)
    variants: tuple[str, ...] = ()  # --variant names besides the scorings g1/g2/g3
    # the edition's own requests: cmd -> field -> RequestField; answered by `call`
    requests: Mapping[str, Mapping[str, RequestField]] = {}

    def __init__(self) -> None:
        self.cards = self.cardset.cards
        self.colors = self.cardset.colors
        self.color_names = self.cardset.color_names
        self.color_words = tuple(self.color_names[c] for c in self.colors)
        self.parse_card = self.cardset.parse_card
        self.parse_color = self.cardset.parse_color
        self.color_name = self.cardset.color_name
        self.plays_by_card = {
            card: tuple(Play(code, w) for w in self.color_words)
            if card.color is None and card.kind not in self.colorless_kinds else (Play(code),)
            for code, card in self.cards.items()
        }
        self.option_kinds = self.target_kinds | self.count_kinds
        self.effects: dict[str, Effect] = self.effect_table()
        self.first_effects: dict[str, FirstEffect] = self.first_table()

    # --- what a subclass provides -------------------------------------------------------------------------

    def effect_table(self) -> dict[str, Effect]:
        """kind -> effect of the card when played: (table, seat of its player, target seat or None)."""
        raise NotImplementedError

    def first_table(self) -> dict[str, FirstEffect]:
        """kind -> effect when turned up first (dealer's seat); False sends it back and another is turned."""
        raise NotImplementedError

    # --- the effects every edition's Number, Reverse and Skip share (rule IDs: Extreme's, classic's) ----

    def play_number(self, t: TableOps, seat: int, target: int | None) -> None:
        """Numbers and Wild (A6/C-A4), Discard All (its extra cards are already down, A4): the next turn."""
        t.set_turn(t.seat_after(seat))

    def play_reverse(self, t: TableOps, seat: int, target: int | None) -> None:
        """A2/C-A2; 2P1/C-2P1: with two players Reverse works as Skip."""
        if t.seats == 2:
            t.set_turn(seat)
            return
        t.reverse_direction()
        t.set_turn(t.seat_after(seat))

    def play_skip(self, t: TableOps, seat: int, target: int | None) -> None:
        """A3/C-A3; 2P2/C-2P2: with two players the one who played goes again."""
        t.set_turn(t.seat_after(seat, 2))

    def first_number(self, t: TableOps, dealer: int) -> bool:
        """S4/C-S4, Number or Wild (the colour named with the flip by the player on the left): the left
        starts."""
        t.set_turn(t.seat_after(dealer))
        return True

    def first_reverse(self, t: TableOps, dealer: int) -> bool:
        """S4/C-S4: the dealer starts, going right."""
        t.set_direction_right()
        t.set_turn(dealer)
        return True

    def first_skip(self, t: TableOps, dealer: int) -> bool:
        """S4/C-S4: the player on the dealer's left is skipped."""
        t.set_turn(t.seat_after(dealer, 2))
        return True

    # --- shared behaviour, overridable ------------------------------------------------------------------

    @staticmethod
    def playable(card: Card, top: Card, color: str) -> bool:
        """T1: a wild goes on anything; any other card needs the colour in force or the same face."""
        return card.color is None or card.color == color or card.face == top.face

    def refusal(self, card: Card, hand_size: int) -> tuple[str, str] | None:
        """A reason an otherwise matching card may not be played, as (code, message), or None."""
        return None

    def apply(self, table: TableOps, seat: int, card: Card, target: int | None) -> None:
        self.effects[card.kind](table, seat, target)

    def first_card(self, table: TableOps, dealer: int, card: Card) -> bool:
        return self.first_effects[card.kind](table, dealer)

    def returns_first(self, card: Card) -> bool:
        """Whether `card` turned up first goes straight back into the launcher (so a wild needs no colour)."""
        return False

    def dealer_value(self, card: Card) -> int:
        """S1/C-S1: a number counts its face value; every other card 0."""
        return card.number or 0

    def first_dealer(self, players: Sequence[str], rng: random.Random) -> str:
        """Dealt mode, the first hand's dealer: C-S1/S1 by default (each takes a card, the highest deals)."""
        from unox.rules.setup import choose_dealer

        return choose_dealer(players, rng, self)

    def hand_is_game(self, variant: str | None) -> bool:
        """True when one hand is the whole game with this variant (MK-G1): whoever goes out wins."""
        return False

    def challenge_guilty(self, hand: list[Card], played: Card, color: str) -> bool:
        """C-A6: a challengeable card was illegal when its player held another card of the colour in force."""
        return any(c.color == color for c in hand if c is not played)

    def after_play(self, game: Game, player: str, card: Card) -> None:
        """For `game_kinds` only, after `apply`: e.g. set `game.pending` to wait for the player's choice
        (`{"cmd": "gift", "player": player, "why": "Beachcomber (BA-A1)"}`), cleared by `call`."""

    def fire_due(self, game: Game, cmd: str, fields: dict[str, Any]) -> int:
        """DL3: for one of `requests` that has a `fired` field, how many cards a table's launcher fires when
        the request leaves `fired` out (a card turned up is fired one at a time: usually 1).

        The cards are fired before `call` sees the request, so return 0 whenever the request is not due
        now: it is then given to `call` with `fired` 0, which refuses it, and nothing leaves the launcher.
        The default fires nothing."""
        return 0

    def choice_steps(self) -> list[tuple[str, str, str]]:
        """The steps its special cards (`game_kinds`) add inside `turn`, as (from, to, what moves it), for the
        state diagram (docs/state-machine.md): by default one generic `pending` step and back."""
        if not self.game_kinds:
            return []
        kinds = ", ".join(sorted(self.game_kinds))
        cmds = ", ".join(sorted(self.requests)) or "the edition's request"
        return [("play", "pending", f"a special card waits for its player's choice ({kinds})"),
                ("pending", "play", cmds)]

    def state_extra(self, game: Game) -> dict[str, Any]:
        """Edition fields added to the table state (e.g. items turned, gifts pending)."""
        return {}

    def narrate(self, request: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> str | None:
        """The table's line for one of the edition's own accepted `requests`, from the states before and
        after it (e.g. which card was turned up); None: a plain line naming the request."""
        return None

    def call(self, game: Game, cmd: str, fields: dict[str, Any]) -> None:
        """Apply one of the edition's own `requests`; raise RuleError (changing nothing) to refuse."""
        raise NotImplementedError(cmd)  # pragma: no cover - only editions with requests are called

    def bot_requests(self, game: Game, bot: Any, player: str) -> list[dict[str, Any]]:
        """Dealt mode: the requests a bot sends to answer `game.pending` (its own choice), in order, e.g.
        `[{"cmd": "uno", "player": P}, {"cmd": "gift", "player": P, ...}]`. By default one request of the
        pending cmd with the fields `Bot.answer` picks for its `needs` (Mario Kart's item and choice); a
        `fired` field is left out: the launcher, or the simulation, fires what `fire_due` says."""
        pending = game.pending
        assert pending is not None, "bot_requests answers a pending choice"
        return [{"cmd": pending["cmd"], "player": player, **bot.answer(game, player, pending)}]

    def check_variant(self, variant: str | None, players: int) -> str | None:
        """A reason the variant cannot be played with this many players, or None."""
        return None
