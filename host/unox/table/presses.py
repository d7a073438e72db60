"""Launcher fires: journalled as an intent before the motor turns, resolved with the beam's count after.

Every fire at a table takes one path, `_fire_and_commit`: an Extreme press (the rules say whose it is, the
eject profile picks a count), a draw edition's draw (exactly what is due: voluntary, owed, penalty, or the
launcher's deal of the hands, DL1/DL4) and an edition's turned cards (`Ruleset.fire_due`, DL3). The window
that matters is between the motor and the journal. So a fire goes: the journal commits an intent (the fire's
id, the count asked and the request it is for), the launcher fires with that id, and one transaction writes
the beam's count and the request it became. If the table dies in between, the resumed table asks the
launcher what fire `id` gave (the firmware keeps the last results by id); when the launcher cannot tell (it
rebooted, gpio), the operator is asked to count (`settle`) before anything else happens (`settling`). A
pending fire is never fired again.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from unox.launcher.base import MAX_FIRE
from unox.table.bounds import check_fired, deck_size
from unox.table.journal import JournalError
from unox.table.narrate import fault_action, nobody_owes
from unox.table.replay import apply_request, rule_errors
from unox.table.requests import ProtocolError
from unox.table.settling import Settling, fire_name, fire_record, fire_request, request_of
from unox.words import counted

log = logging.getLogger(__name__)

Reply = dict[str, Any]
JOURNAL_ERRORS = (sqlite3.Error, OSError, JournalError)


class Presses(Settling):
    """The launcher half of `Table` (a mixin: it uses the table's game, journal, launcher and replies)."""

    game: Any
    launcher: Any
    profile: Any
    journal: Any
    entries: list[dict[str, Any]]
    unsettled: dict[str, Any] | None
    stopped: str | None

    # provided by Table
    def refuse(self, code: str, message: str, **extra: Any) -> Reply: ...  # pragma: no cover
    def emit(self, text: str) -> None: ...  # pragma: no cover
    def state(self) -> dict[str, Any]: ...  # pragma: no cover
    def ok(self, **extra: Any) -> Reply: ...  # pragma: no cover
    def _fresh_game(self) -> Any: ...  # pragma: no cover
    def _rebuild(self) -> None: ...  # pragma: no cover
    def _commit(self, request: dict[str, Any]) -> Reply: ...  # pragma: no cover
    def _accepted(self, request: dict[str, Any], before: dict[str, Any]) -> Reply: ...  # pragma: no cover

    # -- what is fired, and for what ------------------------------------------------------------

    def button(self, player: str | None = None) -> Reply:
        """A press taken by the launcher: work out whose it is, fire, and give the rules the beam's count.

        `player` names who pressed when a front end knows it; otherwise the rules attribute the press. At a
        draw edition's table the button deals what the presser is due (`draw_from_launcher`).
        """
        with self._lock:  # type: ignore[attr-defined]
            if self.stopped is not None:
                return self.refuse("stopped", self.stopped)
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
        aimed = self._button_request()
        if aimed is not None:
            # DL3: the button turns up the first card, or the cards a special card turns up (Mario Kart)
            return self._fire_and_commit(aimed["cmd"], aimed.get("player"), min(aimed["due"], MAX_FIRE))
        presser = self.game.presser()
        if getattr(self.game.rules, "draws", False) and presser is not None:
            return self._draw_from_launcher(player or presser)
        refusal = self._check_presser(presser, player)
        if refusal is not None:
            self.launcher.beep("not_owed")
            return refusal
        who = player or presser
        assert who is not None
        return self._fire_and_commit("press", who, self._count_for(who))

    def draw_from_launcher(self, player: str) -> Reply:
        """DL1/DL2: a draw edition's launcher fires exactly what `player` is due, counted by the beam; a
        shortfall stays owed. Nothing is fired when nothing is due: the rules say why."""
        with self._lock:  # type: ignore[attr-defined]
            if self.stopped is not None:
                return self.refuse("stopped", self.stopped)
            return self._draw_from_launcher(player)

    def _draw_from_launcher(self, player: str) -> Reply:
        if self.launcher is None:  # pragma: no cover - check_request requires fired without a launcher
            return self.refuse("no_launcher", 'This table has no launcher: send the draw with "fired":N.')
        due = self.game.draw_due(player)
        if getattr(self.game.cards, "dealt", False):
            due = min(due, self.game.launcher_cards)  # dealt mode knows what is inside: fire no more (DL2)
        if due == 0:
            return self._commit({"cmd": "draw", "player": player, "fired": 0})  # refused: the rules say why
        return self._fire_and_commit("draw", player, min(due, MAX_FIRE))

    def _launcher_flip(self, request: dict[str, Any]) -> Reply:
        """DL3 at a launcher table: a flip without a card fires the first card (1, counted by the beam,
        through the journal's intent like any fire); the table then reports which it is. A card reported
        before the launcher fired one is refused."""
        due = self._first_card_due()
        if "card" not in request:
            if not due:
                return self._commit(request)  # the rules say why no card is turned up now
            return self._fire_and_commit("flip", None, 1, {k: v for k, v in request.items() if k != "cmd"})
        if due:
            return self.refuse("fire_first", "The launcher turns up the first card (DL3): send "
                               '{"cmd":"flip"} to fire it, then flip with the card it shows.')
        return self._commit(request)

    def _edition_fire(self, request: dict[str, Any]) -> Reply:
        """DL3: an edition's request that turns cards up from the launcher (`fired` left out): the launcher
        fires what the edition says is due (`Ruleset.fire_due`), and the beam's count becomes `fired`."""
        due = int(self.game.rules.fire_due(self.game, request["cmd"], request))
        if due <= 0:
            return self._commit({**request, "fired": 0})  # the rules say why nothing is due
        fields = {k: v for k, v in request.items() if k not in ("cmd", "player")}
        return self._fire_and_commit(request["cmd"], request.get("player"), min(due, MAX_FIRE), fields)

    # -- the one path from a fire to the journal ------------------------------------------------

    def _fire_and_commit(
        self, cmd: str, who: str | None, count: int, fields: dict[str, Any] | None = None
    ) -> Reply:
        """Fire `count` cards for request `cmd` by `who` (with its other `fields`): intent, fire, resolve.

        The one path from a launcher firing to the journal, for presses, draws and turned cards alike: the
        intent is committed before the motor turns, and the beam's count is written with the request it
        became in one transaction (`_resolve`). A fire nobody can count holds the table (`unsettled`).
        """
        template = fire_request(cmd, who, fields)
        fire_id = None
        if self.journal is not None:
            try:
                fire_id = self.journal.begin_fire(who, count, template)
            except JOURNAL_ERRORS as exc:
                return self.refuse(
                    "journal_error",
                    f"the journal could not be written ({str(exc)[:120]}), so nothing was fired: free disk "
                    "space or fix the file's permissions, then send it again",
                )
        record = fire_record(fire_id, template, count)
        try:
            result = self._fire(count, fire_id)
        except Exception:
            if fire_id is None:
                raise
            # A driver bug mid-fire: nobody knows what came out, so the operator says, as after a crash.
            log.exception("the launcher failed during fire %s", fire_id)
            self.unsettled = record
            return self.refuse("unsettled", "unox failed while firing (a bug). " + self._settle_question())
        if fire_id is not None and _lost_in_flight(result):
            remembered = self._remembered(fire_id)
            if remembered is None:  # the device may have fired: ask it once it answers, else a person
                self.unsettled = record
                self._ask_device = fire_id
                self.emit(f"launcher fault (link): {fault_action('link')}")
                return self.refuse("unsettled", self._settle_question())
            result = remembered
        info: dict[str, Any] = {"requested": count, "fired": result.fired, "fault": result.fault}
        if result.fault:
            info["action"] = fault_action(result.fault)
            self.emit(f"launcher fault ({result.fault}): {info['action']}")
        reply = self._resolve(record, result.fired, result.fault, "beam")
        reply["launcher"] = info
        return reply

    def _resolve(self, record: dict[str, Any], fired: int, fault: str | None, settled_by: str) -> Reply:
        """Record a fire's outcome and the request it became (one transaction), with the rules' consent.

        A fire that gave nothing because something stopped it does not count: the player fires again. A
        draw (or an edition's turned cards) takes at most what was due; a card more (a double feed) goes
        back into the launcher. The rules see the request first, so the journal never holds one they refuse.
        """
        template, requested = request_of(record), record["requested"]
        if settled_by == "operator":  # a count of 0 for a fire that asked for cards: it never fired
            counts = fired > 0 or requested == 0
        else:
            counts = fired > 0 or fault is None
        taken = fired if template["cmd"] == "press" else min(fired, requested)
        request = {**template, "fired": taken} if counts else None
        before = self.state()
        refused: Exception | None = None
        if request is not None:
            try:
                apply_request(self.game, request)
            except rule_errors() as exc:  # the rules changed nothing
                if settled_by == "operator":
                    self.unsettled = record  # the operator's count is refused: ask again
                    return self.refuse(getattr(exc, "code", "bad_fired"), getattr(exc, "message", str(exc)))
                request, refused = None, exc
        if self.journal is not None and record["fire_id"] is not None:
            try:
                self.journal.resolve_fire(record["fire_id"], fired, fault, settled_by, request)
            except JOURNAL_ERRORS as exc:
                # The cards are out but not recorded: hold the table until the count is written.
                if request is not None:
                    self._rebuild()
                self.unsettled = record
                return self.refuse(
                    "journal_error",
                    f"{counted(fired, 'card')} came out for {fire_name(record)} but the journal could not "
                    f"record it ({str(exc)[:100]}): "
                    f'free disk space or fix the permissions, then send {{"cmd":"settle","fired":{fired}}}',
                )
        if refused is not None:
            return self.refuse(
                getattr(refused, "code", "bad_fired"),
                f"{counted(fired, 'card')} came out for {fire_name(record)}, but the rules refused them "
                f"({getattr(refused, 'message', refused)}): put them back in the launcher",
            )
        if request is None:
            why = fault_action(fault) if fault else f"No card came out for {fire_name(record)}."
            return self.refuse("launcher_fault", f"{why} The {template['cmd']} did not count.")
        if taken < fired:
            self.emit(
                f"The launcher gave {counted(fired - taken, 'card')} more than {fire_name(record)} was due: "
                "put them back in the launcher."
            )
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

    # -- who may press, and how many --------------------------------------------------------------

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

    # -- the operator's count -----------------------------------------------------------------------

    def settle(self, fired: int) -> Reply:
        """The operator's count for the pending fire: it becomes that press (or draw), exactly once."""
        with self._lock:  # type: ignore[attr-defined]
            pending = self.unsettled
            if pending is None:
                return self.refuse(
                    "nothing_to_settle",
                    "No fire waits to be settled: settle is only for a fire the table stopped in.",
                )
            due = pending["requested"] if pending["cmd"] != "press" else None
            try:
                check_fired(self.game.state(), fired, pending["player"], deck_size(self.game), due=due)
            except ProtocolError as exc:
                return self.refuse(exc.code, exc.message)
            self.unsettled = None
            self._ask_device = None
            reply = self._resolve(pending, fired, None, "operator")
            if reply["ok"]:
                reply["settled"] = {**pending, "fired": fired}
            return reply


def _lost_in_flight(result: Any) -> bool:
    """A `link` fault after the FIRE went out (`lost`, `reboot`): the device may have fired; `down` means
    nothing was sent, so nothing fired."""
    details = getattr(result, "details", None) or {}
    return result.fault == "link" and details.get("detail") not in (None, "down")
