"""A fire the table stopped in, and fires the launcher made alone: settled exactly once, never fired again.

A fire is held as a record: its id, the count asked and the request it is for (`cmd`, `player`, and an
edition's other `fields`), so a press, a draw and an edition's turned card settle the same way. After a
resume the launcher's memory settles it (`fire_result(id)`); a link lost in flight is settled by the device
once it answers again; otherwise the operator counts (`settle`, in `presses`). Fires the firmware made alone
while the link was down come back through `take_standalone_fires()`; each is attributed like a button press
(at a draw edition: a draw of what the presser is due), journalled and told (`sync_launcher`).
"""

from __future__ import annotations

import logging
from typing import Any

from unox.launcher.base import MAX_FIRE
from unox.table.journal import JournalError
from unox.table.replay import apply_request, edition_terms, rule_errors
from unox.table.requests import ProtocolError, check_request, table_requests
from unox.words import counted

log = logging.getLogger(__name__)

Reply = dict[str, Any]


def fire_request(cmd: str, who: str | None, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    """The request a fire is for, without `fired`: e.g. {"cmd": "draw", "player": "Bob"}."""
    return {"cmd": cmd, **({"player": who} if who is not None else {}), **(fields or {})}


def fire_record(fire_id: int | None, request: dict[str, Any], requested: int) -> dict[str, Any]:
    """A fire as the table holds it while it is unsettled (the state's `unsettled`)."""
    record = {"cmd": request["cmd"], "player": request.get("player")}
    record.update(requested=requested, fire_id=fire_id)
    fields = {k: v for k, v in request.items() if k not in ("cmd", "player")}
    if fields:
        record["fields"] = fields
    return record


def request_of(record: dict[str, Any]) -> dict[str, Any]:
    """The request a fire record is for, without `fired`."""
    return fire_request(record["cmd"], record.get("player"), record.get("fields"))


def fire_name(record: dict[str, Any]) -> str:
    """For people: "Bob's press", "Bob's draw", "the turn"."""
    who, cmd = record.get("player"), record["cmd"]
    return f"{who}'s {cmd}" if who is not None else f"the {cmd}"


def standalone_key(result: Any) -> str | None:
    """The device's name for a fire it made alone (its boot and number), or None when it gives none."""
    details = getattr(result, "details", None) or {}
    if "boot" not in details or "standalone" not in details:
        return None
    return f"{int(details['boot']):04X}:{int(details['standalone'])}"


class Settling:
    """The settling half of `Presses` (a mixin of `Table`)."""

    game: Any
    launcher: Any
    journal: Any
    players: tuple[str, ...]
    unsettled: dict[str, Any] | None
    _ask_device: int | None

    # provided by Table and Presses
    def emit(self, text: str) -> None: ...  # pragma: no cover
    def state(self) -> dict[str, Any]: ...  # pragma: no cover
    def _rebuild(self) -> None: ...  # pragma: no cover
    def _accepted(self, request: dict[str, Any], before: dict[str, Any]) -> Reply: ...  # pragma: no cover
    def _resolve(
        self, record: dict[str, Any], fired: int, fault: str | None, settled_by: str
    ) -> Reply: ...  # pragma: no cover

    # -- after a resume -------------------------------------------------------------------------

    def settle_pending(self) -> None:
        """After a resume: settle the journal's pending fire from the launcher, or ask the operator."""
        pending = self.journal.pending_fire() if self.journal is not None else None
        if pending is None:
            return
        record = self._stored_record(pending)
        if not self._still_due(record):
            raise JournalError(
                f"{self.journal.path} is damaged: its unfinished fire {pending['fire_id']} was "
                f"{fire_name(record)}, but the journal's game says {self.game.presser() or 'nobody'} fires "
                "now; unox changed nothing"
            )
        result = self._remembered(pending["fire_id"]) if self.launcher is not None else None
        if result is not None:
            self.emit(
                f"The table stopped during {fire_name(record)}; the launcher remembers it: "
                f"{counted(result.fired, 'card')} came out. Nothing was fired again."
            )
            self._resolve(record, result.fired, result.fault, "device")
            return
        self.unsettled = record
        self._ask_device = pending["fire_id"]  # a launcher that is only unplugged may still tell, later
        self.emit(self._settle_question())

    def _stored_record(self, pending: dict[str, Any]) -> dict[str, Any]:
        """The pending fire's record; a stored request that is not one this table could fire is damage."""
        stored, terms = pending.get("request"), edition_terms(self.game)
        try:
            if not isinstance(stored, dict) or stored.get("player") != pending["player"]:
                raise ProtocolError("bad_request", "it does not name the fire's player")
            clean = check_request(stored, self.players, fired_optional=True, **terms)
            if "fired" in clean or "fired" not in table_requests(**terms)[clean["cmd"]]:
                raise ProtocolError("bad_request", f"a {clean['cmd']} is never fired by the launcher")
        except ProtocolError as exc:
            raise JournalError(
                f"{self.journal.path} is damaged: its unfinished fire {pending['fire_id']} is for a request "
                f"this table cannot fire ({exc.message}); unox changed nothing"
            ) from exc
        return fire_record(pending["fire_id"], clean, pending["requested"])

    def _first_card_due(self) -> bool:
        """DL3: a draw edition's launcher fires the first card: the flip phase, nothing owed, none fired
        (one fired waits for the table to say which it is)."""
        if not getattr(self.game.rules, "draws", False):
            return False
        state = self.game.state()
        return state["phase"] == "flip" and not state["owed"] and not state.get("first_fired")

    def _button_request(self) -> dict[str, Any] | None:
        """What the launcher's button fires for besides a press or draw, with the cards `due`: the first card
        (DL3), or the turned card a pending edition request waits for (Mario Kart's item); else None."""
        if not getattr(self.game.rules, "draws", False):
            return None
        if self._first_card_due():
            return {"cmd": "flip", "due": 1}
        pending = getattr(self.game, "pending", None)
        if pending and "fired" in edition_terms(self.game)["extra"].get(pending["cmd"], {}):
            aimed = {"cmd": pending["cmd"], "player": pending["player"]}
            due = int(self.game.rules.fire_due(self.game, pending["cmd"], aimed))
            return {**aimed, "due": due} if due > 0 else None
        return None

    def _still_due(self, record: dict[str, Any]) -> bool:
        """The journal's game still waits for the fire it stopped in (nothing else happened since)."""
        cmd, player = record["cmd"], record.get("player")
        if cmd == "press":
            return bool(self.game.presser() == player)
        if cmd == "draw":
            return bool(self.game.draw_due(player) > 0)
        if cmd == "flip":
            return self._first_card_due()
        return bool(self.game.rules.fire_due(self.game, cmd, request_of(record)) > 0)

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
        pending = self.unsettled or {"cmd": "press", "player": None}
        name, asked = fire_name(pending), pending.get("requested")
        if getattr(self, "_ask_device", None) is not None and self.launcher is not None:
            return (
                f"The launcher did not answer while firing {counted(asked, 'card')} for {name}. Once it is "
                "back the table asks it how many came out; if it cannot tell, count the cards that came out "
                f'for {name} and send {{"cmd":"settle","fired":N}}. Nothing else is taken until then, and '
                "nothing is fired again."
            )
        return (
            f"The table stopped while firing {counted(asked, 'card')} for {name}, and the launcher cannot "
            f"say how many came out. Count the cards that came out for {name} and send "
            '{"cmd":"settle","fired":N}; nothing else is taken until then, and nothing is fired again.'
        )

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
        # The launcher keeps each fire until it is journalled (issue 13 item 9): a table that dies before
        # the commit gets it again from the device when it resumes; the journal knows one it already has.
        launcher = self.launcher
        taken = getattr(launcher, "standalone_taken", None)
        try:
            fires = (getattr(launcher, "pending_standalone_fires", None) or launcher.take_standalone_fires)()
        except Exception as exc:  # a driver failing here must not take the table down
            log.warning("could not read the launcher's standalone fires: %s", exc)
            return []
        told: list[str] = []
        for result in fires:
            line = self._standalone(result)
            if line is not None:
                told.append(line)
            if taken is not None:
                taken(result)  # committed (or already in the journal): the device may forget it
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
            f"The launcher is back and remembers {fire_name(pending)}: {counted(result.fired, 'card')} came "
            "out. Nothing was fired again."
        )
        self._resolve(pending, result.fired, result.fault, "device")

    def _standalone(self, result: Any) -> str | None:
        """One fire the launcher made alone, taken as its button would have been: the first card (DL3), a
        pending request's turned card (`fire_due`), else the presser's press (at a draw edition, their draw
        of at most what is due); applied when the rules take it and journalled either way. None: the journal
        has it already (the table stopped after its commit, before the device heard TAKEN)."""
        key = standalone_key(result)
        if key is not None and self.journal is not None and self.journal.has_standalone(key):
            log.info("standalone fire %s is in the journal already: not taken twice", key)
            return None
        presser = self.game.presser()
        fired, fault = int(result.fired), result.fault
        request = None
        aimed = self._button_request()
        if aimed is not None:
            presser = aimed.get("player")
        if (aimed is not None or presser is not None) and (fired > 0 or fault is None):
            if aimed is not None:
                request = {**aimed, "fired": min(fired, aimed["due"])}
                del request["due"]
            elif getattr(self.game.rules, "draws", False):
                request = {"cmd": "draw", "player": presser, "fired": min(fired, self.game.draw_due(presser))}
            else:
                request = {"cmd": "press", "player": presser, "fired": fired}
        before = self.state()
        owed = presser is not None or aimed is not None
        why = f"the launcher stopped ({fault})" if owed else "nobody owed a press"
        if request is not None:
            try:
                apply_request(self.game, request)
            except rule_errors() as exc:
                request, why = None, f"the rules refused it ({getattr(exc, 'message', exc)})"
        if self.journal is not None:
            try:
                self.journal.record_standalone(presser, fired, fault, request, key=key)
            except BaseException:
                if request is not None:
                    self._rebuild()  # not recorded, so not taken: the table is as it was
                raise
        if request is None:
            line = (
                f"While the link was down the launcher fired alone: {counted(fired, 'card')}, but {why}; "
                "nothing changed at the table."
            )
        else:
            self._accepted(request, before)
            who = presser if presser is not None else "the dealer"
            line = f"While the link was down {who} pressed: {counted(fired, 'card')} came out, now counted."
        self.emit(line)
        return line

