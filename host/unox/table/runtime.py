"""The table runtime: one game, its journal and (maybe) a launcher, driven by table-protocol v1 requests.

Every request that changes the game is journalled (committed) first, then applied. A request the rules
refuse is removed from the journal again, so the journal only ever holds accepted requests; a crash between
the two steps leaves a row that the replay finds refused and drops. Launcher presses are resolved before
they are journalled (the count the beam really counted), so replaying never fires again.
"""

from __future__ import annotations

import copy
import functools
import logging
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unox.table.journal import Journal, JournalError
from unox.table.narrate import describe, fault_action, nobody_owes, undone, whats_next
from unox.table.requests import ProtocolError, check_request
from unox.table.settings import TableSettings

log = logging.getLogger(__name__)

Reply = dict[str, Any]
Listener = Callable[[str], None]


def _rule_errors() -> tuple[type[Exception], ...]:
    """The engine's refusal types: RuleError, and CardError for a card code that does not parse."""
    from unox.rules.errors import RuleError

    try:
        from unox.rules.cards import CardError
    except ImportError:  # pragma: no cover - the cards module ships with the engine
        return (RuleError,)
    return (RuleError, CardError)


def apply_request(game: Any, request: dict[str, Any]) -> None:
    """Apply one normalised, resolved request to the game; the engine raises RuleError to refuse."""
    cmd = request["cmd"]
    if cmd == "deal":
        if request.get("launcher"):
            game.deal(request["dealer"], by_launcher=True)  # DL4
        else:
            game.deal(request["dealer"])
    elif cmd == "flip":
        game.flip(request["card"], request.get("color"))
    elif cmd == "play":
        options = {key: request[key] for key in ("color", "target", "count") if key in request}
        game.play(request["player"], request["card"], **options)
    elif cmd == "press":
        game.press(request["player"], request["fired"])
    elif cmd == "draw":
        game.draw(request["player"], request["fired"])
    elif cmd == "pass":
        game.pass_turn(request["player"])
    elif cmd == "challenge":
        game.challenge(request["player"], request.get("guilty"))
    elif cmd == "uno":
        game.uno(request["player"])
    elif cmd == "catch":
        game.catch(request["player"], request["by"])
    elif cmd == "penalty":
        game.penalty(request["player"], request["kind"])
    elif cmd == "reload":
        game.reload()
    elif cmd == "score":
        game.score(dict(request["points"]))
    elif cmd in _edition_requests(game):
        game.edition_call(cmd, {k: v for k, v in request.items() if k != "cmd"})
    else:
        raise ValueError(f"request {cmd!r} does not change the game")


def _edition_requests(game: Any) -> Any:
    """The edition's own requests (`Ruleset.requests`); none for an engine without rulesets."""
    rules = getattr(game, "rules", None)
    return getattr(rules, "requests", None) or {}


def _draws(game: Any) -> bool:
    """A draw edition: the launcher deals exactly what is due (DL1) instead of a random press."""
    return bool(getattr(getattr(game, "rules", None), "draws", False))


def _locked(method: Callable[..., Reply]) -> Callable[..., Reply]:
    """One request at a time: a UI thread and a launcher-button thread may both drive the table."""

    @functools.wraps(method)
    def wrapper(self: Table, *args: Any, **kwargs: Any) -> Reply:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper


class Table:
    """One table's game, journal and launcher; `handle()` answers one protocol request.

    `game` must be fresh (nothing applied yet) when `settings` is given, since undo rebuilds from
    `settings.build_game()`; without settings, undo replays onto a copy of `game` taken here.
    """

    def __init__(
        self,
        game: Any,
        *,
        launcher: Any = None,
        profile: Any = None,
        journal: Journal | None = None,
        settings: TableSettings | None = None,
    ):
        self.game = game
        self.launcher = launcher
        self.profile = profile
        self.journal = journal
        self.settings = settings
        self.listeners: list[Listener] = []
        self._lock = threading.RLock()
        self.entries: list[dict[str, Any]] = []
        self._snapshot = None if settings is not None else copy.deepcopy(game)
        self.players: tuple[str, ...] = settings.players if settings else _seats(game)
        if launcher is not None and profile is None:
            from unox.profiles import get_profile

            self.profile = get_profile(settings.profile if settings else "measured")
        if journal is not None and settings is not None and journal.settings is None:
            journal.settings = settings.to_dict()

    # -- building -------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        settings: TableSettings,
        *,
        launcher: Any = None,
        profile: Any = None,
        journal: Journal | None = None,
    ) -> Table:
        """A new table for `settings`; a journal given must be empty (resume a used one instead)."""
        if journal is not None and len(journal):
            raise JournalError(
                f"{journal.path} already holds {len(journal)} requests of another table; resume it with "
                "--resume, or give a new journal file"
            )
        if journal is not None:
            journal.settings = settings.to_dict()
        if launcher is not None and profile is None:
            profile = _profile_for(settings, 0)
        game = settings.build_game()
        return cls(game, launcher=launcher, profile=profile, journal=journal, settings=settings)

    @classmethod
    def resume(
        cls, path: str | Path | Journal, *, launcher: Any = None, profile: Any = None
    ) -> Table:
        """The table a journal describes, in exactly the state its accepted requests left it."""
        journal = path if isinstance(path, Journal) else Journal(path)
        data = journal.settings
        if data is None:
            raise JournalError(f"{journal.path} holds no table; start one with `unox table --journal FILE`")
        settings = TableSettings.from_dict(data)
        if launcher is not None and profile is None:
            profile = _profile_for(settings, len(journal))
        game = settings.build_game()
        table = cls(game, launcher=launcher, profile=profile, journal=journal, settings=settings)
        table._replay_journal()
        return table

    def _replay_journal(self) -> None:
        assert self.journal is not None
        refusals = _rule_errors()
        for seq, request in self.journal.rows():
            try:
                apply_request(self.game, request)
            except refusals as exc:
                # Journalled, then refused, then the process died before the row was removed.
                log.warning("dropping journal row %s refused on replay: %s", seq, exc)
                self.journal.discard(seq)
                continue
            self.entries.append(request)

    def _fresh_game(self) -> Any:
        if self.settings is not None:
            return self.settings.build_game()
        return copy.deepcopy(self._snapshot)

    def _rebuild(self) -> None:
        """Replace the game by a replay of the accepted requests (undo, or recovery from an engine bug)."""
        game = self._fresh_game()
        for request in self.entries:
            apply_request(game, request)
        self.game = game

    # -- requests -------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        return self.game.state()

    def prompt(self) -> str:
        """What the table waits for now, and from whom: for a UI's status line."""
        return whats_next(self.state())

    @_locked
    def handle(self, request: Any) -> Reply:
        """One table-protocol v1 request in, one reply out; a refused request changes nothing."""
        try:
            clean = check_request(request, self.players, fired_optional=self.launcher is not None,
                                  draws=_draws(self.game), extra=_edition_requests(self.game))
        except ProtocolError as exc:
            return self.refuse(exc.code, exc.message)
        cmd = clean["cmd"]
        if cmd == "state":
            return self.ok()
        if cmd == "undo":
            return self.undo()
        if cmd == "press" and "fired" not in clean:
            return self.button(clean.get("player"))
        if cmd == "draw" and "fired" not in clean:
            return self.draw_from_launcher(clean["player"])
        if "fired" not in clean and "fired" in _edition_requests(self.game).get(cmd, {}):
            return self._edition_fire(clean)
        return self._commit(clean)

    def _commit(self, request: dict[str, Any]) -> Reply:
        before = self.state()
        seq = self.journal.append(request) if self.journal is not None else None
        try:
            apply_request(self.game, request)
        except _rule_errors() as exc:
            self._unjournal(seq)
            code = getattr(exc, "code", "bad_card")
            return self.refuse(code, getattr(exc, "message", str(exc)))
        except Exception:
            log.exception("the rules engine failed on %r", request)
            self._unjournal(seq)
            self._rebuild()
            return self.refuse(
                "internal_error",
                "unox failed on this request and did not apply it (a bug: please report it with the "
                "journal file); the table is as it was, so carry on or undo",
            )
        self.entries.append(request)
        if request["cmd"] == "reload" and self.profile is not None:
            self.profile.reset()  # a reloaded launcher starts a fresh run of presses
        after = self.state()
        for line in describe(request, before, after):
            self.emit(line)
        return {"ok": True, "state": after}

    def _unjournal(self, seq: int | None) -> None:
        if self.journal is not None and seq is not None:
            self.journal.discard(seq)

    def ok(self, **extra: Any) -> Reply:
        return {"ok": True, "state": self.state(), **extra}

    def refuse(self, code: str, message: str, **extra: Any) -> Reply:
        self.emit(f"refused ({code}): {message}")
        return {"ok": False, "error": {"code": code, "message": message}, "state": self.state(), **extra}

    @_locked
    def undo(self) -> Reply:
        """Drop the newest accepted request and replay the rest: the table as it was before it."""
        if not self.entries:
            return self.refuse("nothing_to_undo", "There is nothing to undo: no request was accepted yet.")
        if self.journal is not None:
            self.journal.truncate_last()
        before = self.state()
        request = self.entries.pop()
        self._rebuild()
        self.emit(undone(request, before, self.state()))
        return self.ok(undone=request)

    # -- the launcher ---------------------------------------------------------------------------

    @_locked
    def button(self, player: str | None = None) -> Reply:
        """A press taken by the launcher: work out whose it is, fire, and give the rules the beam's count.

        `player` names who pressed when a front end knows it; otherwise the rules attribute the press.
        """
        if self.launcher is None:
            return self.refuse(
                "no_launcher",
                'This table has no launcher: send the press with the cards that came out, "fired":N.',
            )
        presser = self.game.presser()
        if _draws(self.game) and presser is not None:
            return self.draw_from_launcher(player or presser)  # a draw edition's button deals what is due
        refusal = self._check_presser(presser, player)
        if refusal is not None:
            self.launcher.beep("not_owed")
            return refusal
        who = player or presser
        return self._fire_and_commit("press", who, self._count_for(who))

    @_locked
    def draw_from_launcher(self, player: str) -> Reply:
        """DL1/DL2: a draw edition's launcher fires exactly what `player` is due, counted by the beam; a
        shortfall stays owed. Nothing is fired when nothing is due: the rules say why."""
        if self.launcher is None:  # pragma: no cover - check_request requires fired without a launcher
            return self.refuse("no_launcher", 'This table has no launcher: send the draw with "fired":N.')
        due = self.game.draw_due(player)
        if getattr(self.game.cards, "dealt", False):
            due = min(due, self.game.launcher_cards)  # dealt mode knows what is inside: fire no more (DL2)
        if due == 0:
            return self._commit({"cmd": "draw", "player": player, "fired": 0})
        return self._fire_and_commit("draw", player, due)

    def _edition_fire(self, request: dict[str, Any]) -> Reply:
        """DL3: an edition's request that turns cards up from the launcher (`fired` left out): the launcher
        fires what the edition says is due (`Ruleset.fire_due`), and the beam's count becomes `fired`."""
        due = int(self.game.rules.fire_due(self.game, request["cmd"], request))
        fields = {k: v for k, v in request.items() if k not in ("cmd", "player")}
        if due <= 0:
            return self._commit({**request, "fired": 0})  # the rules say why nothing is due
        return self._fire_and_commit(request["cmd"], request.get("player"), due, fields)

    def _fire_and_commit(self, cmd: str, who: str | None, count: int, fields: dict | None = None) -> Reply:
        """Fire `count` cards and give the rules the beam's count as `cmd` (press, draw or an edition's
        request, with its other `fields`) by `who`.

        The one path from a launcher firing to the journal, for presses, draws and turned cards alike."""
        result = self._fire(count)
        info: dict[str, Any] = {"requested": count, "fired": result.fired, "fault": result.fault}
        if result.fault:
            info["action"] = fault_action(result.fault)
            self.emit(f"launcher fault ({result.fault}): {info['action']}")
            if result.fired == 0:
                return self.refuse(
                    "launcher_fault", f"{info['action']} The {cmd} did not count.", launcher=info
                )
        request = {"cmd": cmd, "player": who, **(fields or {}), "fired": result.fired}
        reply = self._commit({k: v for k, v in request.items() if v is not None})
        reply["launcher"] = info
        return reply

    def _fire(self, count: int) -> Any:
        """Fire through the launcher; a lost device is a `link` fault with nothing fired, not a crash."""
        from unox.launcher.base import FireResult, LauncherError

        try:
            return self.launcher.fire(count)
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
        except _rule_errors() as exc:
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
        return min(count, available)

    # -- events ---------------------------------------------------------------------------------

    def emit(self, text: str) -> None:
        """Send one human-readable line to every listener (a UI log, a transcript).

        A failing listener is logged and skipped: a display bug must not break the table.
        """
        for listener in list(self.listeners):
            try:
                listener(text)
            except Exception:
                log.exception("table event listener %r failed", listener)

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
        if self.launcher is not None:
            self.launcher.close()


def _seats(game: Any) -> tuple[str, ...]:
    """Every seat of a game, including players already out (G3): the engine says they are out."""
    seats = getattr(game, "players", None) or game.state().get("players") or game.state()["hands"]
    return tuple(seats)


def _profile_for(settings: TableSettings, resumed_at: int) -> Any:
    """The eject profile; seeded tables get a stream that differs after each resume point."""
    from unox.profiles import get_profile

    if settings.seed is None:
        return get_profile(settings.profile)
    seed: int | str = settings.seed if resumed_at == 0 else f"{settings.seed}/resume/{resumed_at}"
    return get_profile(settings.profile, rng=random.Random(seed))
