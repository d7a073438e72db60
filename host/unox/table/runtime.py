"""The table runtime: one game, its journal and (maybe) a launcher, driven by table-protocol v1 requests.

A request is checked, applied, journalled (committed), and only then answered: what a reply acknowledged is
in the journal, and the journal holds nothing the rules refused. A launcher press is different, because
the motor cannot be taken back: its intent is journalled before the launcher fires (see `presses`).
Every line gets one reply, whatever it holds: an unexpected failure is an `internal_error` reply and the
game is rebuilt from the accepted requests, so the table never dies of a request.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import logging
import random
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from unox.table.journal import Journal, JournalError
from unox.table.narrate import describe, nobody_owes, undone, whats_next
from unox.table.presses import JOURNAL_ERRORS, Presses
from unox.table.replay import apply_request, check_in_state, edition_terms, rule_errors, scan
from unox.table.requests import ProtocolError, check_request
from unox.table.settings import SettingsError, TableSettings
from unox.words import counted

log = logging.getLogger(__name__)

Reply = dict[str, Any]
Listener = Callable[[str], None]

__all__ = ["Journal", "JournalError", "Reply", "Table", "apply_request"]

BOARD_KEY = "launcher_board"  # journal meta: the identity (HELLO's board) of the launcher this table fires
REFUSED_PREFIX = "refused ("  # how a refusal's log line starts: a front end may keep it to the one who asked
INTERNAL_ERROR = (
    "unox failed on this request and did not apply it (a bug: please report it with the journal file); "
    "the table is as it was, so carry on or undo"
)


def _locked(method: Callable[..., Reply]) -> Callable[..., Reply]:
    """One request at a time: a UI thread and a launcher-button thread may both drive the table."""

    @functools.wraps(method)
    def wrapper(self: Table, *args: Any, **kwargs: Any) -> Reply:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper


class Table(Presses):
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
        # each looks at the game an undo would leave and says why it must not (a result sent elsewhere)
        self.undo_guards: list[Callable[[Any], str | None]] = []
        self._lock = threading.RLock()
        self.entries: list[dict[str, Any]] = []
        self.unsettled: dict[str, Any] | None = None  # a fire the table stopped in and nobody could count
        self.rebound: tuple[str, str] | None = None  # (old board, new board) when a resume took another one
        self.stopped: str | None = None  # why every request is refused from now on (`stop`)
        self._ask_device: int | None = None  # that fire's id, when the device may still tell (link lost)
        self._snapshot = None if settings is not None else copy.deepcopy(game)
        self.players: tuple[str, ...] = settings.players if settings else _seats(game)
        if launcher is not None and profile is None:
            from unox.profiles import get_profile

            self.profile = get_profile(settings.profile if settings else "measured")
        if journal is not None:
            journal.lock()
            if settings is not None and journal.settings is None:
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
        """A new table for `settings`; a journal given must be empty (resume a used one instead).

        A start that fails leaves no journal file behind that it created (a full disk, a busy journal)."""
        try:
            if journal is not None:
                journal.lock()
                if len(journal) or journal.fires():
                    raise JournalError(
                        f"{journal.path} already holds {counted(len(journal), 'request')} of another table; "
                        "resume it with --resume, or give a new journal file"
                    )
                journal.settings = settings.to_dict()
                board = getattr(launcher, "board_id", None)
                if board is not None:  # bound from the first HELLO: a stranger on a reconnect is refused
                    journal.set_meta(BOARD_KEY, board)
            if launcher is not None and profile is None:
                profile = _profile_for(settings, 0)
            game = settings.build_game()
            return cls(game, launcher=launcher, profile=profile, journal=journal, settings=settings)
        except BaseException:
            if journal is not None:
                journal.abandon()
            raise

    @classmethod
    def resume(cls, path: str | Path | Journal, *, launcher: Any = None, profile: Any = None,
               listeners: Sequence[Listener] = (), accept_launcher: bool = False,
               launcher_spec: str | None = None) -> Table:
        """The table a journal describes, in exactly the state its accepted requests left it.

        A fire the table stopped in is settled from the launcher's memory when it can tell; otherwise the
        table waits for `{"cmd":"settle","fired":N}` before anything else (state key `unsettled`).
        `listeners` hear what the table says while it resumes (how that fire was settled).
        A launcher whose board is not the one the journal is bound to is refused (a JournalError, nothing
        written, nothing asked of it) unless `accept_launcher` (the user named it): the table is then bound
        to it (`rebound`). The same board at another port is the same launcher.
        `launcher_spec` is the launcher as the user named it (`--launcher`): once the table fires it, the
        journal keeps it as the table's launcher, so the next plain `--resume` opens that one, not the old.
        """
        if not isinstance(path, Journal):
            journal = Journal(path)
            try:
                return cls.resume(journal, launcher=launcher, profile=profile, listeners=listeners,
                                  accept_launcher=accept_launcher, launcher_spec=launcher_spec)
            except BaseException:
                journal.abandon()  # ours to close: a refused resume leaves no lock (and no file) behind
                raise
        journal = path
        journal.hold()  # a table running on it is refused first; reading the settings writes nothing
        _stored_settings(journal)  # an empty file is refused before anything is written to it
        journal.lock()
        settings = _stored_settings(journal)
        rebound = _check_board(journal, launcher, accept_launcher)
        if launcher is not None and profile is None:
            try:
                profile = _profile_for(settings, len(journal))
            except ValueError as exc:  # ProfileError: the stored profile name is not one this unox has
                raise JournalError(f"{journal.path}: {exc}") from exc
        table = cls(
            settings.build_game(), launcher=launcher, profile=profile, journal=journal, settings=settings
        )
        table.listeners.extend(listeners)
        table._replay_journal()
        if rebound is not None or (launcher is not None and journal.get_meta(BOARD_KEY) is None):
            board = getattr(launcher, "board_id", None)
            if board is not None:  # a journal from before boards, or the launcher the user named instead
                journal.set_meta(BOARD_KEY, board)
            table.rebound = rebound
        if launcher_spec is not None and launcher_spec != settings.launcher:
            table._keep_launcher(launcher_spec)
        table.settle_pending()
        return table

    def _keep_launcher(self, spec: str) -> None:
        """The launcher the user named becomes the table's in the journal's settings (journalled first)."""
        assert self.journal is not None and self.settings is not None
        stored = dict(self.journal.settings)
        stored["launcher"] = spec
        self.journal.settings = stored
        self.settings = dataclasses.replace(self.settings, launcher=spec)

    def rebind_launcher(self, board: str) -> None:
        """Bind the table to launcher `board` (a person accepted it in place of the bound one): journalled
        first, so a JournalError leaves the binding as it was."""
        with self._lock:
            old = self.journal.get_meta(BOARD_KEY) if self.journal is not None else None
            if self.journal is not None:
                self.journal.set_meta(BOARD_KEY, board)
            self.rebound = (str(old) if old is not None else "unknown", board)

    def _replay_journal(self) -> None:
        journal = self.journal
        assert journal is not None
        rows = journal.raw_rows()
        found = scan(self.game, rows, self.players, journal.beam_rows())
        tail = journal.get_meta("legacy_tail_seq")
        if (
            len(found.bad) == 1
            and found.bad[0].seq == rows[-1][0]
            and tail is not None
            and found.bad[0].seq <= tail
        ):
            # unox v1 journalled first: its newest row may be a refused request it died before taking out.
            bad = found.bad[0]
            journal.drop([bad.seq], f"v1 crash window: {bad.reason}")
            log.warning(
                "journal %s: the newest v1 row was never accepted; kept in its dropped rows", journal.path
            )
            self.emit(
                f"The newest row of this v1 journal was never accepted ({bad.reason}); it is kept aside."
            )
        elif found.bad:
            raise JournalError(_damage_message(journal.path, found.bad))
        self.entries = found.entries

    def _fresh_game(self) -> Any:
        if self.settings is not None:
            return self.settings.build_game()
        return copy.deepcopy(self._snapshot)

    def _rebuild(self) -> None:
        """Replace the game by a replay of the accepted requests (undo, or recovery from an engine bug)."""
        self.game = self._replayed(self.entries)

    def _replayed(self, entries: list[dict[str, Any]]) -> Any:
        game = self._fresh_game()
        for request in entries:
            apply_request(game, request)
        return game

    # -- requests -------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        state = self.game.state()
        if self.unsettled is not None:
            state["unsettled"] = dict(self.unsettled)
        return state

    def prompt(self) -> str:
        """What the table waits for now, and from whom: for a UI's status line."""
        if self.unsettled is not None:
            return self._settle_question()
        return whats_next(self.state())

    @_locked
    def handle(self, request: Any) -> Reply:
        """One table-protocol v1 request in, one reply out; a refused request changes nothing."""
        if self.stopped is not None:
            return self.refuse("stopped", self.stopped)
        try:
            return self._handle(request)
        except Exception:
            log.exception("the table failed on %r", request)
            self._rebuild()
            return self.refuse("internal_error", INTERNAL_ERROR)

    def _handle(self, request: Any) -> Reply:
        terms = edition_terms(self.game)
        try:
            clean = check_request(request, self.players, fired_optional=self.launcher is not None, **terms)
        except ProtocolError as exc:
            return self.refuse(exc.code, exc.message)
        cmd = clean["cmd"]
        if cmd == "state":
            self.sync_launcher()
            return self.ok()
        if cmd == "settle":
            return self.settle(clean["fired"])
        if self.unsettled is not None:
            self.sync_launcher()  # a fire lost in flight is settled by the device once it answers
        if self.unsettled is not None:
            return self.refuse("unsettled", self._settle_question())
        if cmd == "undo":
            return self.undo()
        if cmd == "flip" and "fired" not in clean and terms["draws"] and self.launcher is not None:
            return self._launcher_flip(clean)  # DL3: the launcher fires the first card
        if cmd == "press" and "fired" not in clean:
            return self.button(clean.get("player"))
        if "fired" not in clean and cmd == "draw":
            return self.draw_from_launcher(clean["player"])
        if "fired" not in clean and "fired" in terms["extra"].get(cmd, {}):
            return self._edition_fire(clean)
        if cmd == "press" and "player" not in clean:
            presser = self.game.presser()  # a launcher table: attributed like a button press
            if presser is None:
                return self.refuse("not_owed", nobody_owes(self.state()))
            clean["player"] = presser
        return self._commit(clean)

    def _commit(self, request: dict[str, Any]) -> Reply:
        """Apply, journal, answer: a refusal or a failed journal write leaves the table as it was."""
        before = self.state()
        try:
            check_in_state(self.game, request)
            apply_request(self.game, request)
        except ProtocolError as exc:
            return self.refuse(exc.code, exc.message)
        except rule_errors() as exc:
            return self.refuse(getattr(exc, "code", "bad_card"), getattr(exc, "message", str(exc)))
        try:
            if self.journal is not None:
                self.journal.append(request)
        except JOURNAL_ERRORS as exc:
            self._rebuild()
            return self.refuse(
                "journal_error",
                f"the journal could not be written ({str(exc)[:120]}), so the request was not taken: "
                "free disk space or fix the file's permissions, then send it again",
            )
        return self._accepted(request, before)

    def _accepted(self, request: dict[str, Any], before: dict[str, Any]) -> Reply:
        self.entries.append(request)
        if request["cmd"] == "reload" and self.profile is not None:
            self.profile.reset()  # a reloaded launcher starts a fresh run of presses
        after = self.state()
        for line in describe(request, before, after):
            self.emit(line)
        return {"ok": True, "state": after}

    def ok(self, **extra: Any) -> Reply:
        return {"ok": True, "state": self.state(), **extra}

    def refuse(self, code: str, message: str, **extra: Any) -> Reply:
        self.emit(f"{REFUSED_PREFIX}{code}): {message}")
        return {"ok": False, "error": {"code": code, "message": message}, "state": self.state(), **extra}

    @_locked
    def undo(self) -> Reply:
        """Drop the newest accepted request and replay the rest: the table as it was before it."""
        if self.stopped is not None:
            return self.refuse("stopped", self.stopped)
        if self.unsettled is not None:
            return self.refuse("unsettled", self._settle_question())
        if not self.entries:
            return self.refuse("nothing_to_undo", "There is nothing to undo: no request was accepted yet.")
        game = self._replayed(self.entries[:-1])
        for guard in self.undo_guards:
            why = guard(game)
            if why:
                return self.refuse("result_sent", why)
        if self.journal is not None:
            self.journal.truncate_last()
        before = self.state()
        request = self.entries.pop()
        self.game = game
        self.emit(undone(request, before, self.state()))
        return self.ok(undone=request)

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

    def stop(self, why: str) -> None:
        """Refuse every request from now on, saying `why`: nothing more is fired or booked (a tournament
        seat another process replaced). A request already under way finishes first (it holds the lock)."""
        with self._lock:
            self.stopped = why

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
        if self.launcher is not None:
            self.launcher.close()


def _damage_message(path: Path, bad: list[Any]) -> str:
    more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
    return (
        f"{path} is damaged: {bad[0].describe()}{more}; unox changed nothing. List the bad rows with "
        f"`unox journal check {path}`; `unox journal repair {path}` sets them aside and keeps a backup"
    )


def _check_board(journal: Journal, launcher: Any, accept: bool) -> tuple[str, str] | None:
    """(bound board, found board) when the launcher is another than the journal's and `accept`; None when
    it is the same board (at any port), or there is no launcher, or the journal is bound to none; a
    JournalError when it is another (one naming no board included), not accepted."""
    bound = journal.get_meta(BOARD_KEY)
    if launcher is None or bound is None:
        return None
    found = getattr(launcher, "board_id", None) or "unknown"
    if found == bound:
        return None
    if accept:
        return (str(bound), found)
    where = getattr(getattr(launcher, "link", None), "name", None) or "the launcher port"
    stored = journal.settings if isinstance(journal.settings, dict) else {}
    raise BoardRefused(journal.path, str(bound), found, where, str(stored.get("launcher", "")))


class BoardRefused(JournalError):
    """A resume refused: the launcher is another board than the one the journal is bound to. Its message
    suits any command; `worded` says it for the command the user typed, naming the launcher as typed."""

    def __init__(self, path: Path, bound: str, found: str, where: str, spec: str):
        self.path, self.bound, self.found, self.spec = path, bound, found, spec
        super().__init__(
            f"{path} is bound to launcher board {bound}, but the launcher on {where} is board {found}: "
            f"nothing was fired or booked. Plug board {bound} in and resume again (at another port: add "
            f"--launcher serial:PORT), or, to go on with board {found} instead, name it: add --launcher to "
            "--resume (e.g. --launcher serial:PORT; with --continue or --journal, or at a tournament seat: "
            "add --accept-launcher to the command)"
        )

    def worded(self, command: str, typed: str | None) -> str:
        """The refusal for `command` ('resume', or 'continue' for --continue and --journal run again, which
        name their launcher every time), naming the launcher as typed (`typed`, else the journal's)."""
        launcher = typed or self.spec or "the launcher port"
        head = (f"{self.path} is bound to launcher board {self.bound}, but the launcher {launcher} is board "
                f"{self.found}: nothing was fired or booked. Plug board {self.bound} in and ")
        if command == "resume":
            return head + (f"resume again (at another port: add --launcher serial:PORT), or, to go on with "
                           f"board {self.found} instead, name it: add --launcher {launcher} to --resume")
        return head + (f"run the same command again (at another port: give --launcher serial:PORT), or, to "
                       f"go on with board {self.found} instead, add --accept-launcher to the command")


def _stored_settings(journal: Journal) -> TableSettings:
    data = journal.settings
    if data is None:
        raise JournalError(f"{journal.path} holds no table; start one with `unox table --journal FILE`")
    try:
        return TableSettings.from_dict(data)  # a SettingsError for anything but an object of settings
    except (SettingsError, TypeError, ValueError) as exc:
        raise JournalError(
            f"{journal.path} is damaged: its table settings are unusable ({str(exc)[:160]}); unox changed "
            "nothing: restore the file from a backup, or start a new table with a new journal file"
        ) from exc


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
