"""Launcher presses: attributed by the rules, journalled as an intent before the motor turns, resolved after.

The window that matters is between the motor and the journal. So a press goes: the rules say whose it
is, the eject profile picks a count, the journal commits an intent (the fire's id and the count asked),
the launcher fires with that id, and one transaction writes the beam's count and the press it became.
If the table dies in between, the resumed table asks the launcher what fire `id` gave (the firmware keeps
the last results by id); when the launcher cannot tell (it rebooted, gpio), the operator is asked to count
(`settle`) before anything else happens. A pending fire is never fired again.

Fires the firmware made alone while the link was down come back through `take_standalone_fires()`; each is
attributed like a button press, journalled and told (`sync_launcher`).
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from unox.launcher.base import MAX_FIRE
from unox.table.bounds import check_fired
from unox.table.journal import JournalError
from unox.table.narrate import fault_action, nobody_owes
from unox.table.replay import apply_request, rule_errors
from unox.table.requests import ProtocolError

log = logging.getLogger(__name__)

Reply = dict[str, Any]


class Presses:
    """The launcher half of `Table` (a mixin: it uses the table's game, journal, launcher and replies)."""

    game: Any
    launcher: Any
    profile: Any
    journal: Any
    entries: list[dict[str, Any]]
    unsettled: dict[str, Any] | None

    # provided by Table
    def refuse(self, code: str, message: str, **extra: Any) -> Reply: ...  # pragma: no cover
    def emit(self, text: str) -> None: ...  # pragma: no cover
    def state(self) -> dict[str, Any]: ...  # pragma: no cover
    def ok(self, **extra: Any) -> Reply: ...  # pragma: no cover
    def _fresh_game(self) -> Any: ...  # pragma: no cover
    def _accepted(self, request: dict[str, Any], before: dict[str, Any]) -> Reply: ...  # pragma: no cover

    def button(self, player: str | None = None) -> Reply:
        """A press taken by the launcher: work out whose it is, fire, and give the rules the beam's count.

        `player` names who pressed when a front end knows it; otherwise the rules attribute the press.
        """
        with self._lock:  # type: ignore[attr-defined]
            return self._button(player)

    def _button(self, player: str | None) -> Reply:
        if self.launcher is None:
            return self.refuse(
                "no_launcher",
                'This table has no launcher: send the press with the cards that came out, "fired":N.',
            )
        if self.unsettled is not None:
            self.launcher.beep("not_owed")
            return self.refuse("unsettled", self._settle_question())
        self.sync_launcher()
        presser = self.game.presser()
        refusal = self._check_presser(presser, player)
        if refusal is not None:
            self.launcher.beep("not_owed")
            return refusal
        who = player or presser
        assert who is not None
        count = self._count_for(who)
        fire_id = self.journal.begin_fire(who, count) if self.journal is not None else None
        try:
            result = self._fire(count, fire_id)
        except Exception:
            if fire_id is None:
                raise
            # A driver bug mid-fire: nobody knows what came out, so the operator says, as after a crash.
            log.exception("the launcher failed during fire %s", fire_id)
            self.unsettled = {"player": who, "requested": count, "fire_id": fire_id}
            return self.refuse("unsettled", "unox failed while firing (a bug). " + self._settle_question())
        if fire_id is not None and _lost_in_flight(result):
            remembered = self._remembered(fire_id)
            if remembered is None:  # the device may have fired: ask it once it answers, else a person
                self.unsettled = {"player": who, "requested": count, "fire_id": fire_id}
                self._ask_device = fire_id
                self.emit(f"launcher fault (link): {fault_action('link')}")
                return self.refuse("unsettled", self._settle_question())
            result = remembered
        info: dict[str, Any] = {"requested": count, "fired": result.fired, "fault": result.fault}
        if result.fault:
            info["action"] = fault_action(result.fault)
            self.emit(f"launcher fault ({result.fault}): {info['action']}")
        reply = self._resolve(fire_id, who, count, result.fired, result.fault, "beam")
        reply["launcher"] = info
        return reply

    def _resolve(
        self, fire_id: int | None, who: str, requested: int, fired: int, fault: str | None, settled_by: str
    ) -> Reply:
        """Record a fire's outcome and the press it became (one transaction), then apply it to the game.

        A fire that gave nothing because something stopped it does not count: the player presses again.
        """
        if settled_by == "operator":  # a count of 0 for a fire that asked for cards: it never fired
            counts = fired > 0 or requested == 0
        else:
            counts = fired > 0 or fault is None
        request = {"cmd": "press", "player": who, "fired": fired} if counts else None
        if self.journal is not None and fire_id is not None:
            try:
                self.journal.resolve_fire(fire_id, fired, fault, settled_by, request)
            except (sqlite3.Error, OSError, JournalError) as exc:
                # The cards are out but not recorded: hold the table until the count is written.
                self.unsettled = {"player": who, "requested": requested, "fire_id": fire_id}
                return self.refuse(
                    "journal_error",
                    f"{fired} card(s) came out for {who} but the journal could not record it "
                    f"({str(exc)[:100]}): "
                    f'free disk space or fix the permissions, then send {{"cmd":"settle","fired":{fired}}}',
                )
        if request is None:
            why = fault_action(fault) if fault else f"No card came out for {who}."
            return self.refuse("launcher_fault", f"{why} The press did not count.")
        before = self.state()
        apply_request(self.game, request)  # checked before firing: whose press it is cannot have changed
        return self._accepted(request, before)

    def _fire(self, count: int, fire_id: int | None) -> Any:
        """Fire through the launcher; a lost device is a `link` fault with nothing fired, not a crash."""
        from unox.launcher.base import FireResult, LauncherError

        try:
            if fire_id is None:  # no journal, so no id to remember the fire by
                return self.launcher.fire(count)
            return self.launcher.fire(count, fire_id=fire_id)
        except LauncherError as exc:
            self.emit(f"launcher lost: {exc}")
            return FireResult(count, 0, "link")

    def _check_presser(self, presser: str | None, player: str | None) -> Reply | None:
        """None when `player` (or, unnamed, `presser`) may press now; otherwise the refusal."""
        if presser is None:
            return self.refuse("not_owed", nobody_owes(self.state()))
        if player is None or player == presser:
            return None
        # Someone else than the rules' first choice: let a copy of the game judge, so nothing changes.
        probe = self._fresh_game()
        for request in self.entries:
            apply_request(probe, request)
        try:
            probe.press(player, 0)
        except rule_errors() as exc:
            return self.refuse(getattr(exc, "code", "not_owed"), getattr(exc, "message", str(exc)))
        return None

    def _count_for(self, player: str) -> int:
        """The eject profile's count; Hit-Fire (A8) forces a firing while the launcher holds cards."""
        available = max(0, int(self.game.launcher_cards))
        owed = [entry for entry in self.state().get("owed", []) if entry.get("player") == player]
        until_fire = bool(owed) and bool(owed[0].get("until_fire"))
        count = int(self.profile.next_count(available, must_fire=until_fire))
        if until_fire and available > 0:
            count = max(count, 1)
        return max(0, min(count, available, MAX_FIRE))

    # -- a fire the table stopped in ------------------------------------------------------------

    def settle_pending(self) -> None:
        """After a resume: settle the journal's pending fire from the launcher, or ask the operator."""
        pending = self.journal.pending_fire() if self.journal is not None else None
        if pending is None:
            return
        presser = self.game.presser()
        if presser != pending["player"]:
            raise JournalError(
                f"{self.journal.path} is damaged: its unfinished fire {pending['fire_id']} was "
                f"{pending['player']}'s "
                f"press, but the journal's game says {presser or 'nobody'} presses now; unox changed nothing"
            )
        result = self._remembered(pending["fire_id"]) if self.launcher is not None else None
        if result is not None:
            self.emit(
                f"The table stopped during {pending['player']}'s press; the launcher remembers it: "
                f"{result.fired} card(s) came out. Nothing was fired again."
            )
            self._resolve(
                pending["fire_id"],
                pending["player"],
                pending["requested"],
                result.fired,
                result.fault,
                "device",
            )
            return
        self.unsettled = {
            "player": pending["player"],
            "requested": pending["requested"],
            "fire_id": pending["fire_id"],
        }
        self._ask_device = pending["fire_id"]  # a launcher that is only unplugged may still tell, later
        self.emit(self._settle_question())

    def _remembered(self, fire_id: int) -> Any:
        """The launcher's memory of fire `fire_id`, or None: any failure to ask leaves it to the operator."""
        try:
            result = self.launcher.fire_result(fire_id)
        except Exception as exc:
            log.warning("the launcher could not say what fire %s gave: %s", fire_id, exc)
            return None
        fired = getattr(result, "fired", None)
        believable = isinstance(fired, int) and not isinstance(fired, bool) and 0 <= fired <= MAX_FIRE + 1
        return result if believable else None  # nothing remembered, or nothing believable: ask a person

    def _settle_question(self) -> str:
        pending = self.unsettled or {}
        player, asked = pending.get("player"), pending.get("requested")
        if getattr(self, "_ask_device", None) is not None and self.launcher is not None:
            return (
                f"The launcher did not answer while firing {asked} card(s) for {player}. Once it is back "
                "the table asks it how many came out; if it cannot tell, count the cards "
                f'{player} got from that press and send {{"cmd":"settle","fired":N}}. Nothing else is '
                "taken until then, and nothing is fired again."
            )
        return (
            f"The table stopped while firing {asked} card(s) for {player}, and the launcher cannot say how "
            "many "
            f"came out. Count the cards {player} got from that press and send "
            '{"cmd":"settle","fired":N}; nothing else is taken until then, and nothing is fired again.'
        )

    def settle(self, fired: int) -> Reply:
        """The operator's count for the pending fire: it becomes that press, exactly once."""
        with self._lock:  # type: ignore[attr-defined]
            pending = self.unsettled
            if pending is None:
                return self.refuse(
                    "nothing_to_settle",
                    "No press waits to be settled: settle is only for a fire the table stopped in.",
                )
            try:
                check_fired(self.game.state(), fired, pending["player"])
            except ProtocolError as exc:
                return self.refuse(exc.code, exc.message)
            self.unsettled = None
            self._ask_device = None
            reply = self._resolve(
                pending["fire_id"], pending["player"], pending["requested"], fired, None, "operator"
            )
            reply["settled"] = {**pending, "fired": fired}
            return reply

    # -- fires the launcher made alone ----------------------------------------------------------

    def sync_launcher(self) -> list[str]:
        """Take the fires the firmware made alone while the link was down: each is attributed like a button
        press, journalled and told. Returns the lines told (none while a fire waits to be settled)."""
        with self._lock:  # type: ignore[attr-defined]
            return self._sync_launcher()

    def _sync_launcher(self) -> list[str]:
        if self.launcher is not None and self.unsettled is not None:
            self._settle_from_device()
        if self.launcher is None or self.unsettled is not None:
            return []
        try:
            fires = self.launcher.take_standalone_fires()
        except Exception as exc:  # a driver failing here must not take the table down
            log.warning("could not read the launcher's standalone fires: %s", exc)
            return []
        told: list[str] = []
        for result in fires:
            told.append(self._standalone(result))
        return told

    def _settle_from_device(self) -> None:
        """A fire whose link was lost in flight: once the device answers again, its memory settles it."""
        fire_id = getattr(self, "_ask_device", None)
        pending = self.unsettled
        if fire_id is None or pending is None or pending.get("fire_id") != fire_id:
            return
        try:
            if not self.launcher.status().connected:
                return
        except Exception:  # a driver failing here leaves it to a later try, or to the operator
            return
        result = self._remembered(fire_id)
        if result is None:
            return
        self.unsettled = None
        self._ask_device = None
        self.emit(
            f"The launcher is back and remembers {pending['player']}'s press: {result.fired} card(s) came "
            "out. Nothing was fired again."
        )
        self._resolve(fire_id, pending["player"], pending["requested"], result.fired, result.fault, "device")

    def _standalone(self, result: Any) -> str:
        presser = self.game.presser()
        fired, fault = int(result.fired), result.fault
        counts = presser is not None and (fired > 0 or fault is None)
        request = {"cmd": "press", "player": presser, "fired": fired} if counts else None
        if self.journal is not None:
            self.journal.record_standalone(presser, fired, fault, request)
        if request is None:
            who = "nobody owed a press" if presser is None else f"the launcher stopped ({fault})"
            line = (
                f"While the link was down the launcher fired alone: {fired} card(s), but {who}; "
                "nothing changed at the table."
            )
        else:
            before = self.state()
            apply_request(self.game, request)
            self._accepted(request, before)
            line = f"While the link was down {presser} pressed: {fired} card(s) came out, now counted."
        self.emit(line)
        return line


def _lost_in_flight(result: Any) -> bool:
    """A `link` fault after the FIRE went out (`lost`, `reboot`): the device may have fired; `down` means
    nothing was sent, so nothing fired."""
    details = getattr(result, "details", None) or {}
    return result.fault == "link" and details.get("detail") not in (None, "down")
