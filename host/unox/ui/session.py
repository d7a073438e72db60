"""A table being played: the runtime, its launcher and the people (or bots) around it, for any front end.

The textual UI, the plain `--plain` loop and the tests all drive a `Session`: they hand it typed lines or
launcher presses and read back `state`, `prompt()` and the event lines. It owns what the table runtime
does not: choosing the dealer (S1) and rotating it, noticing launcher faults until they clear, advising a
reload before the launcher runs dry, and refusing to undo what cannot be undone (cards already fired).
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from unox.launcher.base import LauncherError, LauncherStatus
from unox.launcher.faults import fault_action
from unox.rules.cards import parse_card
from unox.rules.setup import draw_value, pick_dealer
from unox.table.narrate import describe, undone
from unox.table.runtime import REFUSED_PREFIX
from unox.ui.commands import Command, InputError, edition, parse_line
from unox.ui.prompt import Context, Prompt, prompt_for

LOW_WATER = 13  # the most cards one firing gives: below this, a press may find the launcher dry
UNDOABLE = ("play", "uno", "catch", "penalty", "flip", "reload", "score", "deal", "pass", "challenge")
SIM_PRESS_TIMEOUT = 2.0  # virtual seconds for a simulated press to reach the host
HOPPER_CAPACITY = 112
LEAVE_WORDS = ("yes", "y")  # the answers that confirm leaving a game in progress
STAY_WORDS = ("no", "n", "")  # the answers that only decline it: nothing else to run


class LauncherNews(NamedTuple):
    """What one poll of the launcher brought: its status, and the lines the table told while syncing."""

    status: LauncherStatus | None
    told: list[str]


def next_seat(players: Sequence[str], player: str, active: Sequence[str] | None = None) -> str:
    """The first seat to the left (clockwise) still in the game (G3): the next dealer."""
    active = players if active is None else active
    start = list(players).index(player)
    for step in range(1, len(players) + 1):
        candidate = players[(start + step) % len(players)]
        if candidate in active:
            return candidate
    return player


def next_presser(state: dict) -> str | None:
    """Who the next press belongs to: the first who owes presses, else the player whose turn it is."""
    owed = state.get("owed") or []
    return owed[0]["player"] if owed else state.get("turn")


TYPED_REASONS = {  # a refusal whose table words are the protocol's, in the words typed at the play screen
    "fire_first": "the launcher turns up the first card (DL3): type flip (or press the launcher's button) to "
                  "fire it, then type the card it shows, e.g. flip G7",
}


def typed_reason(error: dict) -> str:
    """The reason for a refused request as the person at the play screen types it (no protocol JSON)."""
    return TYPED_REASONS.get(error.get("code", ""), error.get("message", ""))


def kept_where(session: Session) -> str:
    """Where the game stays if the person leaves now."""
    journal = getattr(session.table, "journal", None)
    if journal is None:
        return "This table has no journal: leaving ends the game for good."
    return f"The game is kept in {journal.path}: `unox play --continue` picks it up."


def sim_device(launcher: Any) -> Any:
    """The virtual device behind a `sim` launcher (its port's device), or None for real hardware."""
    return getattr(getattr(launcher, "port", None), "device", None)


class Session:
    """One table: requests in, state and event lines out; the launcher polled, never waited on for long."""

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
        return prompt_for(self.state, self.ctx)

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

    # --- typed lines ---------------------------------------------------------------------------------
    def submit(self, line: str) -> dict | None:
        """Run one typed line; InputError (nothing changed) when the line or the move is refused."""
        who = self.state.get("turn")
        pending = self.state.get("pending") or {}
        if pending.get("player") and line.split()[:1] == [pending.get("cmd")]:
            who = pending["player"]  # the edition waits for this player's choice: they make it
        command = parse_line(line, self.players, who, self.state.get("hands"), self.rules)
        return self.execute(command)

    def execute(self, command: Command) -> dict | None:
        if command.verb == "settle":
            return self.settle(command.request["fired"])
        if command.verb in ("help", "quit"):
            return None
        self.check_settled()
        if command.verb == "press":
            return self.press()
        if command.verb == "undo":
            return self.undo()
        if command.verb == "draw":
            self.draw(command.request["player"], command.request["card"])
            return None
        request = dict(command.request)
        if request["cmd"] == "deal" and "dealer" not in request:
            if self.ctx.dealer is None:
                raise InputError("choose the dealer first: draw NAME CARD for each player (S1), or deal NAME")
            request["dealer"] = self.ctx.dealer
        return self.request(request)

    def request(self, request: dict) -> dict:
        """One table-protocol request; a refusal raises InputError with the rules' own message.

        Only a request the table fires for (a draw edition's `draw`) waits for the launcher lock: the rest
        never wait on a status call hanging on a worker thread."""
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
            raise InputError(typed_reason(reply["error"]))
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
            raise InputError(f"first the count: {self.prompt().text}")

    def settle(self, fired: int) -> dict | None:
        """The cards a person counted out of the fire the table stopped in: it becomes that press (or draw),
        exactly once; nothing is fired again. 0 means it never fired: the press does not count."""
        pending = self.state.get("unsettled")
        if not pending:
            raise InputError("no fire waits to be counted: settle is only for a fire the table stopped in")
        self.catch_up()
        before = self.state
        with self._own():
            reply = self.table.handle({"cmd": "settle", "fired": fired})  # fires nothing: no launcher call
        self.state = reply["state"]
        who = pending.get("player") or "the player"
        if reply.get("ok"):
            what = f"{who}'s {pending['cmd']}"
            self.emit(f"Counted: {fired} card(s) came out for {what}; nothing was fired again.")
            settled = reply.get("settled") or {}
            request = {k: v for k, v in settled.items() if k not in ("requested", "fire_id", "fields")}
            self.emit(*describe({**request, **settled.get("fields", {})}, before, self.state))
            self._refresh(before, fired)
            return reply
        if self.state.get("unsettled"):  # the count was refused: the question stays
            raise InputError(reply["error"]["message"])
        again = {"press": "presses", "draw": "draws"}.get(pending["cmd"], f"does the {pending['cmd']}")
        self.emit(f"Counted: nothing came out for {who}'s {pending['cmd']}, so it did not count; "
                  f"{who} {again} again.")
        self._refresh(before)
        return None

    # --- S1 ------------------------------------------------------------------------------------------
    def draw(self, player: str, card: str) -> None:
        """S1: record one player's drawn card; once all have drawn, the highest number deals."""
        if self.state.get("phase") != "deal" or self.ctx.dealer is not None:
            raise InputError("the dealer is already chosen; type deal once the cards are dealt")
        drawing = self.ctx.drawing or self.players
        if player not in drawing:
            raise InputError(f"only {', '.join(drawing)} draw now (a tie for the highest card)")
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

    # --- the launcher --------------------------------------------------------------------------------
    def press(self) -> dict | None:
        """A simulated press on the sim launcher's button; real launchers are pressed by hand."""
        self.check_settled()
        if not self.ctx.sim or not hasattr(self.launcher, "press_button"):
            raise InputError("press the button on the launcher itself; only the sim launcher is pressed here")
        with self.launcher_lock:
            self.launcher.press_button()
            replies = self.poll(SIM_PRESS_TIMEOUT)
        if not replies:
            self.emit("No beep: the launcher was asleep and only woke up (L3); press again.")
            return None
        return replies[-1]

    def poll(self, timeout: float = 0.0, *, status: bool = True, blocking: bool = True) -> list[dict]:
        """Take every press the launcher reports (waiting up to `timeout` for the first), then its faults.

        `status=False` skips asking the launcher for its status unless a press came in (a fast timer);
        `blocking=False` returns at once, with nothing, while another thread talks to the launcher."""
        if self.launcher is None:
            self.catch_up()  # no launcher to ask: still show what another front end did
            return []
        if not self.launcher_lock.acquire(blocking=blocking):
            return []
        try:
            return self._poll(timeout, status)
        finally:
            self.launcher_lock.release()

    def _poll(self, timeout: float, status: bool) -> list[dict]:
        replies: list[dict] = []
        wait = timeout
        try:
            while self.launcher.wait_press(timeout=wait):
                replies.append(self.button())
                wait = 0.0
            if status or replies:
                self._check_status()
        except LauncherError as exc:  # the driver lost the port: say so, keep the table as it is
            self._link_lost(exc)
        return replies

    def wait_press(self, timeout: float = 0.0) -> bool | LauncherError:
        """Any thread: whether the launcher reports a press, waiting up to `timeout`; a lost link is
        returned, not raised. The front end then hands the answer to `take_press` on its own thread."""
        if self.launcher is None:
            return False
        with self.launcher_lock:
            try:
                return self.launcher.wait_press(timeout=timeout)
            except LauncherError as exc:
                return exc

    def take_press(self, pressed: bool | LauncherError) -> bool:
        """Book a press `wait_press` saw (the runtime fires for it), or note the lost link; True if
        anything changed."""
        if isinstance(pressed, LauncherError):
            return self._link_lost(pressed)
        if not pressed:
            return False
        with self.launcher_lock:
            try:
                self.button()
                self._check_status()
            except LauncherError as exc:
                self._link_lost(exc)
        return True

    def _link_lost(self, exc: LauncherError) -> bool:
        if self.ctx.fault == "link":
            return False
        self.ctx.fault, self.ctx.presser = "link", None
        self.emit(f"Launcher fault (link): {exc}")
        return True

    def button(self) -> dict:
        """A press the launcher took: the runtime attributes it, fires, and books the beam's count."""
        self.catch_up()
        before = self.state
        with self._own():
            reply = self.table.button()
        self.state = reply["state"]
        fault = (reply.get("launcher") or {}).get("fault")
        if not reply.get("ok") and fault is None:
            self.emit(self.refused_press(reply["error"]))
            return reply
        if reply.get("ok"):
            self.emit(*describe(self.table.entries[-1], before, self.state))
        if fault is not None:
            self.ctx.fault = fault
            # Whoever the next press belongs to presses again (a press that fired nothing did not count).
            self.ctx.presser = next_presser(self.state)
            self.emit(f"Launcher fault ({fault}): {fault_action(fault)}.")
        elif self.ctx.fault in ("jam", "stuck"):
            self._fault_cleared()
        fired = self.table.entries[-1]["fired"] if reply.get("ok") else 0
        self._refresh(before, fired)
        return reply

    def fix_launcher(self) -> None:
        """Sim only: do what the fault's help says (open and shut the lid, take a stuck card out)."""
        device = sim_device(self.launcher)
        if device is None:
            raise InputError("fix the launcher by hand as the screen says; only the sim one is fixed here")
        with self.launcher_lock:
            device.open_lid()
            device.close_lid()
            taken = device.take_stuck()
            taken_note = f", {taken} stuck card(s) taken." if taken else "."
            self.emit("Lid opened and shut, path cleared" + taken_note)
            self._check_status()
        if self.ctx.fault in ("jam", "stuck"):
            self._fault_cleared()

    def sync_hopper(self, before: dict, fired: int = 0) -> None:
        """Sim only: cards the table put into the launcher (deal, reload) go into the simulated hopper."""
        device = sim_device(self.launcher)
        if device is None:
            return
        was = (before.get("launcher") or {}).get("cards", 0) - fired
        added = (self.state.get("launcher") or {}).get("cards", 0) - was
        if added > 0 and self.hopper_given:
            self.hopper_given = False  # the deal's load: the hopper keeps the cards it was given
            return
        if added > 0:
            device.load_cards(min(added, HOPPER_CAPACITY - device.model.hopper))

    def fetch_status(self) -> LauncherStatus | None:
        """Ask the launcher for its status (any thread; the front end applies it on its own thread).

        A driver that lost its port answers as a launcher with the `link` fault, never with an error."""
        if self.launcher is None:
            return None
        with self.launcher_lock:
            try:
                return self.launcher.status()
            except LauncherError:
                return LauncherStatus(False, None, 0, None, False, ["link"])

    def fetch_news(self) -> LauncherNews:
        """Any thread: the launcher's status, and what the table took from it meanwhile (fires the firmware
        made alone while the link was down, a fire lost in flight that the device now settles)."""
        if self.launcher is None:
            return LauncherNews(None, [])
        with self.launcher_lock:
            return LauncherNews(self.fetch_status(), self.sync_table())

    def sync_table(self) -> list[str]:
        """Any thread, holding the launcher lock: `Table.sync_launcher()`, and the lines the table told while
        doing it (on this thread only: a request on another thread tells its own)."""
        me = threading.get_ident()
        told: list[str] = []

        def hear(line: str) -> None:
            if threading.get_ident() == me:
                told.append(line)

        sync = getattr(self.table, "sync_launcher", None)
        if sync is None:
            return told
        with self.launcher_lock, self._own():
            self.table.listeners.append(hear)
            try:
                sync()
            except Exception as exc:  # a failing driver must not end the poll: the status tells the link
                told.append(f"Could not read the launcher's own fires: {exc}")
            finally:
                self.table.listeners.remove(hear)
        return told

    def apply_news(self, news: LauncherNews) -> bool:
        """On the front end's thread: the table's news into the log and the state, then the status."""
        changed = self.catch_up()
        if news.told or self.table.state() != self.state:
            before = self.state
            self.state = self.table.state()
            self.emit(*news.told)
            launcher_before = (before.get("launcher") or {}).get("cards", 0)
            fired = max(0, launcher_before - (self.state.get("launcher") or {}).get("cards", 0))
            self._refresh(before, fired)  # cards that left the launcher alone are not put back in the sim
            changed = True
        return self.apply_status(news.status) or changed

    def apply_status(self, status: LauncherStatus | None) -> bool:
        """Take a status in: a fault it shows (lid, battery, a lost link) is announced, or its clearing.

        True when anything on screen may have changed."""
        if status is None:
            return False
        changed = status != self.status
        self.status = status
        faults = [f for f in status.faults if f in ("lid", "battery", "link")]
        if not status.connected and "link" not in faults:
            faults.insert(0, "link")
        if faults and self.ctx.fault != faults[0]:
            self.ctx.fault, self.ctx.presser = faults[0], None
            self.emit(f"Launcher fault ({faults[0]}): {fault_action(faults[0])}.")
            return True
        if not faults and self.ctx.fault in ("lid", "battery", "link"):
            self._fault_cleared()
            return True
        return changed

    def _check_status(self) -> None:
        self.apply_news(self.fetch_news())

    def _fault_cleared(self) -> None:
        """The fault is gone: say so, and who presses again after a jam."""
        again = f" {self.ctx.presser} presses again." if self.ctx.presser else ""
        self.emit(f"Launcher fault cleared ({self.ctx.fault}): the game goes on.{again}")
        self.ctx.fault, self.ctx.presser = None, None

    def refused_press(self, error: dict) -> str:
        """A press the rules refused, in the play screen's words (the JSON wording is `unox table`'s)."""
        if error.get("code") == "unsettled":
            return f"Press refused: {self.prompt().text}"
        if error.get("code") == "not_owed" and "nobody owes" in error.get("message", "").lower():
            return f"Press refused (not-now beep): nobody owes a press now, so nothing was fired. NEXT: " \
                   f"{self.prompt().line()}"
        return f"Press refused (not-now beep): {error['message']}"

    # --- undo ----------------------------------------------------------------------------------------
    def undo(self) -> dict:
        """Take back the last announcement, exactly, through the journal; fired cards cannot go back."""
        entries = self.entries()
        if not entries:
            raise InputError("there is nothing to undo yet")
        last = entries[-1]
        own = self.rules is not None and last.get("cmd") in self.rules.requests and "fired" not in last
        if last.get("cmd") not in UNDOABLE and not own:
            raise InputError(
                "the last event was a launcher press: its cards are already out and cannot go back; "
                "for a wrong card use penalty NAME wrong_card"
            )
        self.catch_up()
        before = self.state
        with self._own():
            reply = self.table.undo()
        self.state = reply["state"]
        if not reply.get("ok"):
            raise InputError(reply["error"]["message"])
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
