"""The table night's launcher side: presses taken, faults followed until they clear, the simulated hopper.

A mixin of `unox.table.night.Night` (its state, context, table and log are the night's): every launcher
call holds `launcher_lock`, so a status request on a worker thread never interleaves with a press.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, NamedTuple

from unox.launcher.base import LauncherError, LauncherStatus, StrangerLauncher
from unox.launcher.faults import fault_action
from unox.table.narrate import describe
from unox.table.night_context import Refused, next_presser
from unox.words import counted

if TYPE_CHECKING:
    from unox.table.night_context import Context, Prompt

SIM_PRESS_TIMEOUT = 2.0  # virtual seconds for a simulated press to reach the host
HOPPER_CAPACITY = 112


class LauncherNews(NamedTuple):
    """What one poll of the launcher brought: its status, and the lines the table told while syncing."""

    status: LauncherStatus | None
    told: list[str]



def sim_device(launcher: Any) -> Any:
    """The virtual device behind a `sim` launcher (its port's device), or None for real hardware."""
    return getattr(getattr(launcher, "port", None), "device", None)



class LauncherSide:
    """The launcher half of a night: what it fires, what it says, and what the table learns from it."""

    launcher: Any
    table: Any
    state: dict
    ctx: Context
    status: Any
    hopper_given: bool
    launcher_lock: threading.RLock

    if TYPE_CHECKING:
        def emit(self, *lines: str) -> None: ...
        def catch_up(self) -> bool: ...
        def check_settled(self) -> None: ...
        def prompt(self) -> Prompt: ...
        def _own(self) -> Any: ...
        def _refresh(self, before: dict | None = None, fired: int = 0, *, hopper: bool = True) -> None: ...

    def press(self) -> dict | None:
        """A simulated press on the sim launcher's button; real launchers are pressed by hand."""
        self.check_settled()
        if not self.ctx.sim or not hasattr(self.launcher, "press_button"):
            raise Refused("press the button on the launcher itself; only the sim launcher is pressed here")
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
        # told once; another launcher answering at the port is told too, even while the link was down
        stranger = exc.found if isinstance(exc, StrangerLauncher) else None
        if self.ctx.fault == "link" and (stranger is None or stranger == getattr(self, "_stranger", None)):
            return False
        self._stranger = stranger
        self.ctx.fault, self.ctx.presser = "link", None
        accept = "" if stranger in (None, "unknown") else \
            f" To fire board {stranger} at this table from now on, accept it: `launcher accept`."
        self.emit(f"Launcher fault (link): {exc}{accept}")
        return True

    def accept_launcher(self) -> str:
        """The operator takes the launcher now answering at the port (another board than this table's, which
        is refused until then: nothing fired on it, none of its presses booked) as the table's: the journal,
        then the driver, are bound to its board, and the table fires it from now on. Returns its board;
        Refused, with nothing changed, when no other launcher answers there."""
        from unox.table.presses import JOURNAL_ERRORS

        if self.launcher is None or not hasattr(self.launcher, "accept_stranger"):
            raise Refused("this table's launcher has no board id, so there is no other launcher to accept")
        with self.launcher_lock:
            found = self.launcher.stranger_id
            if found is None:
                raise Refused(f"no other launcher answers at the port: this table's launcher is board "
                              f"{self.launcher.board_id or 'unknown'}, nothing to accept (`launcher accept` "
                              "takes the launcher a link fault names as 'board X, not Y')")
            if found == "unknown":
                raise Refused("the launcher at the port names no board (a firmware older than board ids): "
                              "update it with `unox firmware flash`, then `launcher accept`; nothing changed")
            try:
                with self._own():
                    self.table.rebind_launcher(found)
            except JOURNAL_ERRORS as exc:
                why = str(exc)[:120]
                raise Refused(f"the journal could not record the new launcher ({why}): nothing changed; free "
                              "disk space or fix the permissions, then `launcher accept` again") from exc
            self.launcher.accept_stranger(found)
            self._stranger = None
            old = self.table.rebound[0]
            self.emit(f"Launcher board {found} accepted in place of board {old}: this table fires it from "
                      "now on (its journal is bound to it).")
            self._check_status()  # greets it: the link fault clears once it answers
        return found

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
        self._launcher_outcome(reply, pressed=True)
        fired = self.table.entries[-1]["fired"] if reply.get("ok") else 0
        self._refresh(before, fired)
        return reply

    def _launcher_outcome(self, reply: dict, *, pressed: bool = False) -> None:
        """What a fire's reply says of the launcher: a fault is followed until it clears (whoever the next
        press belongs to presses again: a press that fired nothing did not count); a fire without one
        clears a jam or a stuck card (`pressed`: the launcher's own button, which always fires)."""
        if not pressed and "launcher" not in reply:
            return  # nothing was fired
        fault = (reply.get("launcher") or {}).get("fault")
        if fault is not None:
            self.ctx.fault = fault
            self.ctx.presser = next_presser(self.state)
            self.emit(f"Launcher fault ({fault}): {fault_action(fault)}.")
        elif self.ctx.fault in ("jam", "stuck"):
            self._fault_cleared()

    def fix_launcher(self) -> None:
        """Sim only: do what the fault's help says (open and shut the lid, take a stuck card out)."""
        device = sim_device(self.launcher)
        if device is None:
            raise Refused("fix the launcher by hand as the screen says; only the sim one is fixed here")
        with self.launcher_lock:
            device.open_lid()
            device.close_lid()
            taken = device.take_stuck()
            taken_note = f", {counted(taken, 'stuck card')} taken." if taken else "."
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
        if error.get("code") == "launcher_fault":  # the motor ran: no beep refused it, a fault stopped it
            return f"Press not counted, the launcher faulted: {error['message']}"
        if error.get("code") == "not_owed" and "nobody owes" in error.get("message", "").lower():
            return f"Press refused (not-now beep): nobody owes a press now, so nothing was fired. NEXT: " \
                   f"{self.prompt().line()}"
        return f"Press refused (not-now beep): {error['message']}"

