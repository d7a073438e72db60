"""The table night: one table being played, between the rules and the people, for every front end.

The textual UI, `--plain`, the web hub, the tournament seat and the tests all drive a `Night`: they hand it
table-protocol requests or launcher presses and read back `state`, `prompt()` and the event lines. It owns
what the table runtime does not: choosing the dealer (S1) and rotating it, noticing launcher faults until
they clear (`unox.table.night_launcher`), advising a reload before the launcher runs dry, keeping the
simulated hopper's estimate, and refusing to undo what cannot be undone (cards already fired). A front end
adds only its words: the TUI's `Session` parses typed lines and paints.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from unox.launcher.faults import fault_action
from unox.rules.cards import parse_card
from unox.rules.setup import draw_value, pick_dealer
from unox.table.narrate import describe, undone
from unox.table.night_context import Context, Prompt, Refused, next_seat, settle_prompt
from unox.table.night_launcher import LauncherSide
from unox.table.runtime import REFUSED_PREFIX
from unox.words import counted

LOW_WATER = 13  # the most cards one firing gives: below this, a press may find the launcher dry
UNDOABLE = ("play", "uno", "catch", "penalty", "flip", "reload", "score", "deal", "pass", "challenge")


TYPED_REASONS = {  # a refusal whose table words are the protocol's, in the words typed at the play screen
    "fire_first": "the launcher turns up the first card (DL3): type flip (or press the launcher's button) to "
                  "fire it, then type the card it shows, e.g. flip G7",
}


def typed_reason(error: dict) -> str:
    """The reason for a refused request as the person at the play screen types it (no protocol JSON)."""
    return TYPED_REASONS.get(error.get("code", ""), error.get("message", ""))


def kept_where(session: Night) -> str:
    """Where the game stays if the person leaves now."""
    journal = getattr(session.table, "journal", None)
    if journal is None:
        return "This table has no journal: leaving ends the game for good."
    if session.picked_up_by:  # a tournament's round: only its own command rejoins it
        return f"The round is kept in {journal.path}: {session.picked_up_by}."
    if re.search(r"\.round\d+$", Path(journal.path).stem):  # a tournament's round (tournament/join.py)
        return (f"The round is kept in {journal.path}: the same `unox play --tournament URL --table N` picks "
                "it up (`unox play --list` shows it; `--continue` does not take it).")
    return f"The game is kept in {journal.path}: `unox play --continue` picks it up."


def edition(rules: Any) -> Any:
    """The edition's ruleset, or None for Extreme (whose cards are the module-level tables)."""
    return None if rules is None or rules.name == "extreme" else rules


def undo_refusal(entries: list[dict], rules: Any = None) -> tuple[str, str] | None:
    """Why the last of `entries` cannot be undone, as (code, message), or None. The one refusal of an undo
    for every front end (the terminal, the protocol, the phones, with or without a night of their own):
    cards a launcher fired are out for good (`not_undoable`). `rules`: the edition's ruleset (`edition`)."""
    if not entries:
        return "nothing_to_undo", "there is nothing to undo yet"
    last = entries[-1]
    own = rules is not None and last.get("cmd") in rules.requests and "fired" not in last
    if last.get("cmd") in UNDOABLE or own:
        return None
    verb = last.get("cmd", "press")
    what = (f"a launcher {verb} that fired no card: it counted as one and cannot go back"
            if last.get("fired") == 0 else f"a launcher {verb}: its cards are already out and cannot go back")
    return "not_undoable", f"the last event was {what}; for a wrong card use penalty NAME wrong_card"


class Night(LauncherSide):
    """One table: requests in, state and event lines out; the launcher polled, never waited on for long."""

    picked_up_by: str | None = None  # "`CMD` picks it up" when that is not `unox play --continue` (a round)

    def __init__(self, table: Any, *, launcher: Any = None, sim: bool = False, low_water: int = LOW_WATER,
                 hopper_given: bool = False):
        self.table = table
        self.launcher = launcher
        # `sim:?cards=N`: the simulated hopper holds what was asked for, not what the deal puts in
        self.hopper_given = hopper_given
        self.low_water = low_water
        self.state: dict = table.handle({"cmd": "state"})["state"]
        self.players: list[str] = list(getattr(table, "players", None) or self.state["players"])
        # The edition's ruleset (its cards, colours and requests), or None for Extreme.
        self.rules = edition(getattr(getattr(table, "game", None), "rules", None))
        self.ctx = Context(sim=sim, rules=self.rules, launcher=launcher is not None)
        self.log: list[str] = []
        self.listeners: list[Callable[[str], None]] = []
        self.called: set[str] = set()  # players who called UNO and still hold one card
        self.status: Any = None  # the launcher's last LauncherStatus
        # Every launcher call holds this, so a status request on a worker thread never interleaves with a
        # press on the UI thread (the serial link is one conversation at a time).
        self.launcher_lock = threading.RLock()
        self._acting = threading.local()  # set while this session calls the table, on the calling thread
        self._others: deque[str] = deque()  # lines another front end's changes told (`watch_others`)
        self._refresh()

    def close(self) -> None:
        """Close the table and its launcher once no other thread is talking to the launcher."""
        with self.launcher_lock:
            self.table.close()

    # --- reading -------------------------------------------------------------------------------------
    def in_progress(self) -> bool:
        """A game is under way (something was played or a dealer chosen) and not over: leaving asks first."""
        played = bool(self.entries()) or self.ctx.dealer is not None
        return played and self.state.get("phase") != "game_over"

    def prompt(self) -> Prompt:
        """What the table waits for, in the table's words; a front end with its own grammar overrides it."""
        pending = self.state.get("unsettled")
        if pending:
            return settle_prompt(pending)
        if self.ctx.fault:
            return Prompt(None, "LAUNCHER: " + fault_action(self.ctx.fault))
        if self.state.get("phase") == "deal" and self.ctx.dealer:
            return Prompt(self.ctx.dealer, "deal the cards, then the deal request")
        return Prompt(self.state.get("turn"), f"the table waits ({self.state.get('phase')})")

    def entries(self) -> list[dict]:
        """The accepted requests so far (the journal's rows, when there is one)."""
        return list(self.table.entries)

    # --- other front ends on the same table ---------------------------------------------------------
    def watch_others(self) -> None:
        """Another front end drives this table too (the phones of `unox play --web`): its changes come in
        at the next poll (or before this session's next request), with this session's bookkeeping:
        dealer rotation, reload advice, the simulated hopper left to the front end that changed it."""
        self.table.listeners.append(self._hear)

    def _hear(self, line: str) -> None:
        """A table listener (any thread): a line this session did not cause is another front end's."""
        if not getattr(self._acting, "on", False) and not line.startswith(REFUSED_PREFIX):
            self._others.append(line)  # a refusal is for the one who asked, never this log

    @contextlib.contextmanager
    def _own(self) -> Iterator[None]:
        """This session calls the table: what it tells on this thread is the session's own."""
        was = getattr(self._acting, "on", False)
        self._acting.on = True
        try:
            yield
        finally:
            self._acting.on = was

    def catch_up(self) -> bool:
        """On the front end's thread: take in another front end's changes; True when there were any."""
        told = [self._others.popleft() for _ in range(len(self._others))]
        if not told:
            return False
        before, self.state = self.state, self.table.state()
        self.emit(*told)
        fired = max(0, (before.get("launcher") or {}).get("cards", 0)
                    - (self.state.get("launcher") or {}).get("cards", 0))
        self._refresh(before, fired, hopper=False)  # whoever changed the table loaded the sim's hopper
        return True

    def emit(self, *lines: str) -> None:
        for line in lines:
            self.log.append(line)
            for listener in self.listeners:
                listener(line)

    def request(self, request: dict) -> dict:
        """One table-protocol request; a refusal raises Refused with the rules' own message.

        Only a request the table fires for (a draw edition's `draw`) waits for the launcher lock: the rest
        never wait on a status call hanging on a worker thread."""
        reply = self._apply(request)
        if not reply.get("ok"):
            raise Refused(typed_reason(reply["error"]), reply["error"].get("code"))
        return reply

    def handle(self, request: dict) -> dict:
        """One table-protocol request from a peer front end (the phones, `unox table`): the table's reply,
        never raised, with the same bookkeeping and narration as a typed line: the next hand's dealer, a
        launcher fault followed until it clears, and an undo of cards already fired refused
        (`not_undoable`)."""
        cmd = request.get("cmd")
        if cmd == "undo":
            why = self.undo_refusal()
            if why is not None:
                return self.table.refuse(why[0], why[1])
            return self._undo()
        return self._apply(request)

    def refuse(self, code: str, message: str) -> dict:
        """A refusal reply in the protocol's shape (`unox.table.jsonl.answer` sends its own through here)."""
        return self.table.refuse(code, message)

    def _apply(self, request: dict) -> dict:
        self.catch_up()
        before = self.state
        booked = len(self.table.entries)
        if self.fires(request):
            with self.launcher_lock, self._own():
                reply = self.table.handle(request)
        else:
            with self._own():
                reply = self.table.handle(request)
        self.state = reply["state"]
        if not reply.get("ok"):
            self._launcher_outcome(reply)
            return reply
        if request["cmd"] == "deal":
            self.ctx.dealer = request["dealer"]
            self.ctx.draws, self.ctx.drawing = {}, []
        if request["cmd"] == "uno":
            self.called.add(request["player"])
        if request["cmd"] == "reload" and self.ctx.fault == "empty":
            self.ctx.fault = None
        # What was booked, when the table added to it (a draw's `fired`: the cards the launcher dealt).
        told = self.table.entries[-1] if len(self.table.entries) > booked else request
        self.emit(*describe(told, before, self.state))
        self._launcher_outcome(reply)
        self._refresh(before, told.get("fired", 0) if told is not request else 0)
        return reply

    def fires(self, request: dict) -> bool:
        """Whether the table fires the launcher for `request` (a draw, or an edition's card turned up)."""
        if self.launcher is None or "fired" in request:
            return False
        own = self.rules.requests.get(request["cmd"], {}) if self.rules is not None else {}
        first_card = request["cmd"] == "flip" and "card" not in request  # DL3: the launcher fires it
        return request["cmd"] in ("draw", "press") or first_card or "fired" in own

    # --- a fire the table stopped in --------------------------------------------------------------
    def check_settled(self) -> None:
        """Nothing but the count is taken while a fire waits to be settled: refuse with the question."""
        if self.state.get("unsettled"):
            raise Refused(f"first the count: {self.prompt().text}")

    def settle(self, fired: int) -> dict | None:
        """The cards a person counted out of the fire the table stopped in: it becomes that press (or draw),
        exactly once; nothing is fired again. 0 means it never fired: the press does not count."""
        pending = self.state.get("unsettled")
        if not pending:
            raise Refused("no fire waits to be counted: settle is only for a fire the table stopped in")
        self.catch_up()
        before = self.state
        with self._own():
            reply = self.table.handle({"cmd": "settle", "fired": fired})  # fires nothing: no launcher call
        self.state = reply["state"]
        who = pending.get("player") or "the player"
        if reply.get("ok"):
            what = f"{who}'s {pending['cmd']}"
            self.emit(f"Counted: {counted(fired, 'card')} came out for {what}; nothing was fired again.")
            settled = reply.get("settled") or {}
            request = {k: v for k, v in settled.items() if k not in ("requested", "fire_id", "fields")}
            self.emit(*describe({**request, **settled.get("fields", {})}, before, self.state))
            self._refresh(before, fired)
            return reply
        if self.state.get("unsettled"):  # the count was refused: the question stays
            raise Refused(reply["error"]["message"], reply["error"].get("code"))
        again = {"press": "presses", "draw": "draws"}.get(pending["cmd"], f"does the {pending['cmd']}")
        self.emit(f"Counted: nothing came out for {who}'s {pending['cmd']}, so it did not count; "
                  f"{who} {again} again.")
        self._refresh(before)
        return None

    # --- S1 ------------------------------------------------------------------------------------------
    def draw(self, player: str, card: str) -> None:
        """S1: record one player's drawn card; once all have drawn, the highest number deals."""
        if self.state.get("phase") != "deal" or self.ctx.dealer is not None:
            raise Refused("the dealer is already chosen; type deal once the cards are dealt")
        drawing = self.ctx.drawing or self.players
        if player not in drawing:
            raise Refused(f"only {', '.join(drawing)} draw now (a tie for the highest card)")
        self.ctx.draws[player] = card
        rules = getattr(self.table.game, "rules", None)  # the edition's cards and S1 count
        value = draw_value(parse_card(card)) if rules is None else rules.dealer_value(rules.parse_card(card))
        self.emit(f"{player} draws {card} for the deal (S1: counts {value}).")
        if any(p not in self.ctx.draws for p in drawing):
            return
        result = pick_dealer(self.ctx.draws, rules)
        dealer, tied = result.dealer, list(result.redraw)
        self.ctx.draws = {}
        if dealer:
            self.ctx.dealer, self.ctx.drawing = dealer, []
            self.emit(f"{dealer} has the highest card and deals.")
            return
        self.ctx.drawing = tied
        self.emit(f"Tie between {', '.join(tied)}: they draw again.")

    # --- undo ----------------------------------------------------------------------------------------
    def undo(self) -> dict:
        """Take back the last announcement, exactly, through the journal; fired cards cannot go back."""
        why = self.undo_refusal()
        if why is not None:
            raise Refused(why[1], why[0])
        reply = self._undo()
        if not reply.get("ok"):
            raise Refused(reply["error"]["message"], reply["error"].get("code"))
        return reply

    def undo_refusal(self) -> tuple[str, str] | None:
        """Why the last request cannot be undone (code, message), or None: cards already fired stay out."""
        return undo_refusal(self.entries(), self.rules)

    def _undo(self) -> dict:
        last = self.entries()[-1]
        self.catch_up()
        before = self.state
        with self._own():
            reply = self.table.undo()
        self.state = reply["state"]
        if reply.get("ok"):
            self.emit(undone(last, before, self.state))
            self._refresh(before)
        return reply

    # --- bookkeeping ---------------------------------------------------------------------------------
    def _refresh(self, before: dict | None = None, fired: int = 0, *, hopper: bool = True) -> None:
        state = self.state
        if before is not None and hopper:
            self.sync_hopper(before, fired)
        launcher_cards = (state.get("launcher") or {}).get("cards", 0)
        discard = state.get("discard", 112 - sum((state.get("hands") or {}).values()) - launcher_cards)
        low = launcher_cards <= self.low_water and discard > 1
        self.ctx.reload_due = state.get("phase") == "turn" and low
        self.called = {p for p in self.called if (state.get("hands") or {}).get(p) == 1}
        last = state.get("dealer")
        if state.get("phase") == "deal" and last is not None:
            self.ctx.dealer = next_seat(self.players, last, state.get("players"))
            if before is not None and (before.get("phase") != "deal" or before.get("dealer") != last):
                self.emit(f"Next hand: {self.ctx.dealer} deals.")  # also after another front end scored
        elif last is not None:
            self.ctx.dealer = last
