"""One table's game: the phases as a `transitions` machine (built once), the calls of the table protocol,
and the shared turn logic. Card effects come from the edition's ruleset (`editions/`, see `ruleset.py`);
cards are tracked physically or dealt (`tracking.py`). Every call checks everything first and raises
`RuleError` before changing anything.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from transitions import Machine

from unox.rules.cards import Card
from unox.rules.dealing import Dealing
from unox.rules.drawing import DrawCalls
from unox.rules.editions import DEFAULT_RULES, get_rules
from unox.rules.errors import RuleError
from unox.rules.machine import machine_config
from unox.rules.plays import legal_plays, resolve_play
from unox.rules.ruleset import Play, Ruleset
from unox.rules.scoring import SCORINGS, highest, settle, settle_teams
from unox.rules.table_calls import TableCalls
from unox.rules.tracking import HAND_SIZE, DealtCards, PhysicalCards
from unox.rules.turns import TurnOrder
from unox.rules.variants import check_variant, rotation_over, teams
from unox.rules.words import counted

MODES = ("physical", "dealt")
_NEXT = {  # what to do instead, by the phase the game is in
    "deal": "deal a hand first",
    "flip": "turn up the first card first",
    "turn": "play or press on until the hand is over",
    "hand_over": "give each hand's points with score first",
    "game_over": "the game is over; start a new game",
}
MIN_PLAYERS, MAX_PLAYERS = 2, 10


class Game(Dealing, TableCalls, DrawCalls):
    """The game at one table, over several hands until someone has won."""

    stage: str  # the machine's state: deal, flip, turn, hand_over, game_over

    def __init__(
        self,
        players: Sequence[str],
        *,
        mode: str = "physical",
        scoring: str = "g1",
        target: int = 500,
        rng: random.Random | None = None,
        ruleset: Ruleset | str = DEFAULT_RULES,
        variant: str | None = None,
    ):
        _check_setup(players, mode, scoring, target)
        if not isinstance(ruleset, Ruleset):
            ruleset = get_rules(ruleset)
        check_variant(variant, ruleset.variants, len(players), ruleset.title)
        if variant == "elimination":
            scoring = "g3"  # C-G3
        self.variant = variant
        self.players: tuple[str, ...] = tuple(players)
        self.mode, self.scoring, self.target = mode, scoring, target
        self.rules = ruleset
        self.rng = rng if rng is not None else random.Random()
        deck = [ruleset.cards[c] for c in ruleset.deck]
        self.cards: DealtCards | PhysicalCards = (
            DealtCards(deck, self.rng) if mode == "dealt" else PhysicalCards(len(deck))
        )
        unit = "draws" if ruleset.draws else "presses"
        self.order = TurnOrder(self.players, swap=self.cards.swap, unit=unit)
        self.scores: dict[str, int] = {p: 0 for p in self.players}
        self.dropped: list[str] = []  # G3: out of the game
        self.winner: str | None = None
        self.dealer: str | None = None
        self.hand_number = 0
        self.last_hand: dict[str, Any] | None = None
        self._reset_hand()
        self.machine = Machine(model=self, model_attribute="stage", **machine_config())

    def _reset_hand(self) -> None:
        self.top: Card | None = None
        self.color: str | None = None
        self.went_out: str | None = None
        self._last: tuple | None = None  # (player, card, colour, target seat, count), see `last_play`
        self._undo: tuple | None = None
        self._catchable: str | None = None  # U2: may be caught right now
        self._safe: str | None = None  # called UNO inside their window
        self._precalled: str | None = None  # called UNO before playing their second-to-last card
        self._drawn: str | None = None  # C-T2: took the turn's draw, may play only that card or pass
        self._drawn_card: Card | None = None  # dealt mode: the card drawn
        self._challenge: list | None = None  # C-A7: [victim, culprit, guilty (dealt mode), owed entry]
        self.pending: dict[str, Any] | None = None  # an edition's choice the table must report next
        self._first_fired = False  # DL3: the launcher fired the first card; the table reports which it is
        self.extra: dict[str, Any] = {}  # an edition's own state for this hand (`Ruleset.state_extra`)

    # --- look-ups that raise the protocol's errors -------------------------------------------------------

    def seat_of(self, player: str) -> int:
        """The seat index of an active player."""
        seat = self.order.index.get(player)
        if seat is None:
            if player in self.dropped:
                raise RuleError("player_out", f"{player} is out of the game (G3): name a player still in it")
            seated = ", ".join(self.order.players)
            raise RuleError("unknown_player", f"{player!r} is not at this table: use one of {seated}")
        return seat

    @property
    def phase(self) -> str:
        """The machine's stage, except `pressing` (`drawing`) while presses (draws) are owed in a turn."""
        stage = self.stage
        if stage == "turn" and self.order.owed:
            return "drawing" if self.rules.draws else "pressing"
        return stage

    def _need(self, *stages: str) -> None:
        if self.stage not in stages:
            wanted = " or ".join(stages)
            raise RuleError(
                "wrong_phase", f"not possible in phase {self.stage} (only in {wanted}): {_NEXT[self.stage]}"
            )

    # --- plays and presses -------------------------------------------------------------------------------

    def play(
        self,
        player: str,
        card: str | Card,
        color: str | None = None,
        target: str | None = None,
        count: int | None = None,
    ) -> None:
        """T1, A1-A8: the player whose turn it is plays a card (plus colour, target or count).

        `card` may also be a `Play` from `legal_plays`."""
        if type(card) is Play:
            card, color, target, count = card
        order = self.order
        if self.pending is not None:  # anyone's play waits, as every edition's draw and pass do (issue 13)
            self.seat_of(player)
            self._need_no_pending("play")  # before the card is checked: the colour may not be named yet
        if self.stage != "turn" or order.owed or player != order.players[order.turn]:
            self._refuse_play(player)
        card, letter, partner, count = resolve_play(self, player, card, color, target, count)
        rules = self.rules
        if self._drawn is not None:
            self._check_after_draw(player, card)
        guilty = None
        if card.kind in rules.challengeable and self.cards.dealt:
            guilty = rules.challenge_guilty(self.cards.hands[player], card, self.color)
        self._catchable = self._safe = None
        undo = (player, self.top, self.color, order.direction, partner)
        moved = self.cards.discard(player, card, count)
        self._undo = (*undo, moved)
        self.top, self.color = card, letter
        order.must_match = False
        self._drawn = self._challenge = None
        rules.apply(order, order.turn, card, partner)
        if card.kind in rules.challengeable:
            self._open_challenge(player, guilty)
        if card.kind in rules.game_kinds:
            rules.after_play(self, player, card)
        self._last = (player, card, letter, partner, moved - 1)
        self._after_play(player, card)

    def _check_after_draw(self, player: str, card: Card) -> None:
        """C-T2/C-T3: after the turn's draw only the card drawn may be played (dealt mode knows it)."""
        drawn = self._drawn_card
        if self._drawn == player and self.cards.dealt and card is not drawn:
            offer = f"play {drawn.code} or pass" if drawn is not None else "pass"
            raise RuleError("only_drawn_card", f"{player} drew this turn: only the card drawn may be played; "
                            f"{offer}")

    def _open_challenge(self, player: str, guilty: bool | None) -> None:
        """C-A7: the victim's owed entry, which a challenge may change before their first draw."""
        entry = self.order.owed[-1]
        self._challenge = [entry[0], player, guilty, entry]

    def _need_no_pending(self, cmd: str) -> None:
        pending = self.pending
        if pending is not None:
            raise RuleError("pending_choice", f"{pending['player']} must first send {pending['cmd']} "
                            f"({pending.get('why', 'the card just played')}), before any {cmd}")

    def _refuse_play(self, player: str) -> None:
        """Raises the reason `player` may not play now."""
        if self.stage == "turn" and self.order.owed:
            self.seat_of(player)
            draws = self.rules.draws
            if self.order.owes(player):
                if draws:
                    raise RuleError("owes_draws", f"{player} owes draws: draw from the launcher first")
                raise RuleError("owes_presses", f"{player} owes presses: press the launcher first")
            verb = "draw from" if draws else "press"
            raise RuleError("not_your_turn", f"{self.order.presser()} must {verb} the launcher first")
        self._need("turn")
        self.seat_of(player)
        raise RuleError("not_your_turn", f"it is {self.order.turn_player}'s turn: wait for yours")

    def _after_play(self, player: str, card: Card) -> None:
        left = self.cards.hand_size(player)
        if left == 1 and card.kind != "trade":
            if self._precalled == player:
                self._safe = player
            else:
                self._catchable = player
        self._precalled = None
        if left == 0:
            self.went_out = player
            self.end_hand_if_out()  # U3: otherwise the owed presses come first

    def end_hand_if_out(self) -> None:
        """U3/C-U3: the hand ends once someone is out, nothing is owed and no edition choice is pending."""
        if self.went_out is not None and not self.order.owed and self.pending is None:
            self._end_hand()

    @property
    def last_play(self) -> dict[str, Any] | None:
        """The most recent card put on the pile (by a player, or the first card with player None)."""
        if self._last is None:
            return None
        player, card, letter, partner, count = self._last
        if card is None:
            return {"player": player, "taken_back": True}
        return {
            "player": player,
            "card": card.code,
            "color": self.rules.color_name(letter),
            "target": self.order.players[partner] if partner is not None else None,
            "count": count,
        }

    def press(self, player: str, fired: int) -> None:
        """T2/T3 (the turn player's one press), or one owed press. `fired` cards go to the presser (T4)."""
        if self.stage != "turn":
            self._need("turn")
        if self.rules.draws:
            raise RuleError("not_in_rules", f"{self.rules.title} has no presses: the launcher deals exactly "
                            "what is due; send draw")
        cards, order = self.cards, self.order
        if type(fired) is not int or fired < 0 or (cards.dealt and fired > cards.launcher):
            self.seat_of(player)
            self._check_fired(fired)
        owed = order.owed
        if owed:
            if owed[0][0] != player:
                self._refuse_press(player)
        elif player != order.players[order.turn]:
            self._refuse_press(player)
        elif order.must_match and cards.dealt and legal_plays(self, player):
            raise RuleError("must_play", f"{player} holds a card that matches the first Discard All (S4): "
                            "play it")
        self._catchable = self._safe = None
        self._undo = None
        cards.fire(player, fired)
        if owed:
            self._owed_press(owed, fired)
        else:
            order.turn = order.seat_after(order.turn)
            order.must_match = False
            self._precalled = None
        if cards.dealt and cards.launcher == 0 and cards.pile > 1:
            cards.reload()  # R2 DECISION: an empty launcher is reloaded at once

    def _refuse_press(self, player: str) -> None:
        """Raises the reason a press by `player` is not theirs to make now."""
        self.seat_of(player)
        owed = self.order.owed
        if not owed:
            raise RuleError("not_owed", f"{player} owes no press and it is {self.order.turn_player}'s turn")
        if self.order.owes(player):
            raise RuleError("press_out_of_order", f"{owed[0][0]} presses before {player}: wait")
        raise RuleError("not_owed", f"{player} owes no press: {owed[0][0]} presses now")

    def _check_fired(self, fired: int) -> None:
        if not isinstance(fired, int) or isinstance(fired, bool) or fired < 0:
            raise RuleError("bad_fired", f"fired is how many cards came out (0 or more), not {fired!r}")
        if self.cards.dealt and fired > self.cards.launcher:
            raise RuleError(
                "bad_fired",
                f"the launcher holds only {counted(self.cards.launcher, 'card')}: fire at most that many",
            )

    def _owed_press(self, owed: list[list], fired: int) -> None:
        entry = owed[0]
        if entry[1] is None:
            if fired or (self.cards.dealt and self.cards.launcher == 0 and self.cards.pile <= 1):
                owed.pop(0)  # A8 fired; or dealt mode with no card left anywhere to fire
        else:
            entry[1] -= 1
            if entry[1] == 0:
                owed.pop(0)
        if not owed and self.went_out is not None:
            self._end_hand()

    # --- end of a hand -----------------------------------------------------------------------------------

    def _end_hand(self) -> None:
        self.hand_ended()  # trigger: turn -> hand_over
        if self.cards.dealt:
            self._settle({p: self.cards.hand_points(p) or 0 for p in self.order.players})

    def score(self, points: Mapping[str, int]) -> None:
        """Physical mode: the points left in each hand after a hand ended (G1-G3)."""
        self._need("hand_over")
        if self.cards.dealt:
            raise RuleError("wrong_phase", "dealt mode scores each hand itself")
        self._settle(self._check_points(points))

    def _check_points(self, points: Mapping[str, int]) -> dict[str, int]:
        active = self.order.players
        if not isinstance(points, Mapping) or set(points) != set(active):
            raise RuleError("bad_points", f"give the points left in every hand: {', '.join(active)}")
        for player, pts in points.items():
            if not isinstance(pts, int) or isinstance(pts, bool) or pts < 0:
                raise RuleError("bad_points", f"{player}'s points must be a whole number >= 0, not {pts!r}")
        if points[self.went_out]:
            raise RuleError("bad_points", f"{self.went_out} went out and holds no cards: give them 0")
        return dict(points)

    def _settle(self, points: dict[str, int]) -> None:
        active = list(self.order.players)
        pairs = teams(self.variant, active, self.hand_number)
        if pairs is None:
            result = settle(self.scoring, self.target, self.scores, active, self.went_out, points)
        else:
            over = rotation_over(self.variant, self.hand_number)
            target = None if self.variant == "rotation" else self.target
            result = settle_teams(target, self.scores, pairs, self.went_out, points)
            if over:
                result.winner = highest(self.scores, active)
        self.last_hand = {"hand": self.hand_number, "went_out": self.went_out, "points": points,
                          "gained": result.gained}
        if result.winner is None and self.rules.hand_is_game(self.variant):
            result.winner = self.went_out  # MK-G1: the first player out wins
        if result.dropped and result.winner is None:
            self.dropped.extend(result.dropped)
            self.order.set_players([p for p in active if p not in result.dropped])
        if result.winner is not None:
            self.winner = result.winner
            self.game_won()
        else:
            self.next_hand()

    # --- read side ---------------------------------------------------------------------------------------

    def presser(self) -> str | None:
        """Who must act now (and whom a launcher button press belongs to): the player of an edition's
        pending choice, else the first owed press, else the turn player."""
        if self.pending is not None:
            return self.pending["player"]
        if self.stage == "turn":
            return self.order.presser()
        if self.stage == "flip" and self.order.owed:
            return self.order.presser()  # DL4: the launcher deals the hands
        return None

    @property
    def launcher_cards(self) -> int:
        return self.cards.launcher

    def legal_plays(self, player: str) -> list[Play]:
        """Dealt mode: every legal play for `player` now; pressing (T2/T3) is always possible besides."""
        if not self.cards.dealt:
            self._need_dealt()
        if player not in self.order.index:
            self.seat_of(player)
        return legal_plays(self, player)

    def hand(self, player: str) -> list[Card]:
        """Dealt mode: the cards `player` holds (a copy)."""
        self._need_dealt()
        self.seat_of(player)
        return list(self.cards.hands.get(player, ()))

    def _need_dealt(self) -> None:
        if not self.cards.dealt:
            raise RuleError("wrong_phase", "physical mode: the host cannot see the hands; use dealt mode")

    def state(self) -> dict[str, Any]:
        """The JSON-able state `S` of the table protocol."""
        active = self.stage == "turn"
        order = self.order
        return {
            "phase": self.stage,
            "step": self.phase,
            "turn": self.presser(),
            "plays_next": order.turn_player if active else None,
            "direction": order.direction_name(),
            "top": self.top.code if self.top else None,
            "color": self.rules.color_name(self.color),
            "hands": {p: self.cards.hand_size(p) for p in order.players} if self.hand_number else {},
            "owed": order.owed_state(),
            "uno": [self._catchable] if self._catchable else [],
            "scores": dict(self.scores),
            "winner": self.winner,
            "launcher": {"cards": self.cards.launcher},
            "discard": self.cards.pile,
            "players": list(order.players),
            "dropped": list(self.dropped),
            "dealer": self.dealer,
            "hand": self.hand_number,
            "went_out": self.went_out,
            "last_play": self.last_play,
            "last_hand": self.last_hand,
            "mode": self.mode,
            "scoring": self.scoring,
            "target": self.target,
            "must_match": order.must_match,
            "rules": self.rules.name,
            **({"variant": self.variant, "teams": self._teams_state()} if self.variant else {}),
            **(self._draw_state() if self.rules.draws else {}),
            **self.rules.state_extra(self),
        }

    def _teams_state(self) -> list[list[str]] | None:
        pairs = teams(self.variant, list(self.order.players), max(1, self.hand_number))
        return [list(pair) for pair in pairs] if pairs else None

    def _draw_state(self) -> dict[str, Any]:
        """The draw editions' extra state: who took the turn's draw, an open challenge, a pending choice."""
        challenge = self._challenge
        return {
            "drawn": self._drawn,
            "challenge": {"player": challenge[0], "against": challenge[1]} if challenge else None,
            "pending": dict(self.pending) if self.pending else None,
            "first_fired": self._first_fired,
        }


def _check_setup(players: Sequence[str], mode: str, scoring: str, target: int) -> None:
    names = list(players) if not isinstance(players, str) else []
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS or len(set(names)) != len(names):
        raise RuleError("bad_setup", f"seat {MIN_PLAYERS} to {MAX_PLAYERS} players with different names")
    if not all(isinstance(p, str) and p.strip() for p in names):
        raise RuleError("bad_setup", "every player needs a non-empty name")
    if mode not in MODES:
        raise RuleError("bad_setup", f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if scoring not in SCORINGS:
        raise RuleError("bad_setup", f"scoring must be one of {', '.join(SCORINGS)}, not {scoring!r}")
    if not isinstance(target, int) or isinstance(target, bool) or target < 1:
        raise RuleError("bad_setup", f"target must be a whole number of points >= 1, not {target!r}")
    if HAND_SIZE * len(names) + 1 > 112:  # pragma: no cover - MAX_PLAYERS keeps this true
        raise RuleError("bad_setup", "too many players for one deck")
