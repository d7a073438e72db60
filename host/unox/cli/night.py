"""The night the options name, for each command's preset of the one assembly (`unox.cli.assemble`).

`unox play`, `unox serve` and the tournament's rounds open a table night here (new, `--resume` or
`--continue`, journalled where `--list` finds it; `night=` is the class the front end drives: the TUI's
`Session`, or the table layer's `Night` for the phones); `unox table` opens the protocol's night
(`open_protocol_night`), `unox press` its press-button mode (`open_press_mode`) and `unox demo` the bots'
night (`open_demo_night`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from unox.cli.errors import CommandError
from unox.cli.table_options import (
    check_resume_args,
    launcher_config,
    open_table_launcher,
    settings_from_args,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the table's modules load on use
if TYPE_CHECKING:
    from unox.table.journal import Journal
    from unox.table.runtime import Table

NEWEST = Path("<newest>")  # `--continue` without a file
PICKED_UP_BY = "`unox play --continue` picks it up"


def open_session(args: argparse.Namespace, night: Any = None, *, picked_up_by: str | None = None) -> Any:
    """The table the options name: new, `--resume` or `--continue`, as a `night` (default: `Night`).

    `picked_up_by` ("`CMD` picks it up") is for a table that `unox play --continue` must not take, a
    tournament's round: its journal line and its leave-taking say that instead."""
    if night is None:
        from unox.table.night import Night

        night = Night
    if args.no_journal and (args.journal or args.resume or args.continue_path):
        raise CommandError(
            "--no-journal starts a table without one; leave out --journal, --resume and --continue"
        )
    if picked_up_by is None:
        _refuse_a_tournaments(args)
    if args.continue_path is not None:
        session = _continue(args, night)
    elif args.resume is not None:
        session = _resume(args, night)
    else:
        session = _create(args, night, picked_up_by or PICKED_UP_BY)
    session.picked_up_by = picked_up_by
    return session


def _refuse_a_tournaments(args: argparse.Namespace) -> None:
    """`--continue FILE`, `--resume FILE` or `--journal FILE` (the same command run again) on a tournament
    table's journal would play its round outside the tournament (no seats from the schedule, no result
    sent): refused before anything is opened, naming the command that rejoins."""
    from unox.tournament.kept import ROUND, tournament_table

    continued = getattr(args, "continue_path", None)
    named = [("--continue", continued), ("--resume", getattr(args, "resume", None)),
             ("--journal", getattr(args, "journal", None))]
    tables = [(option, Path(path), tournament_table(Path(path))) for option, path in named
              if path not in (None, NEWEST)]
    refused = next(((option, given, kept) for option, given, kept in tables if kept is not None), None)
    if refused is None:
        return
    option, given, kept = refused
    found = ROUND.match(given.stem)
    what = (f"round {found['round']} of" if found else "the results journal of") + (
        f" table {kept.table} of tournament {kept.name} (id {kept.tournament})")
    how = "there is nothing left to play at that table" if kept.over or kept.done else kept.rejoin()
    raise CommandError(f"{given} is {what}, played only inside its tournament, so {option} does not take it; "
                       f"{how}")


def _create(args: argparse.Namespace, night: Any, picked_up_by: str) -> Any:
    from unox.launcher import LauncherError
    from unox.table.journal import JournalError
    from unox.table.opening import open_play_session
    from unox.table.saved import make_tables_dir, new_table_path
    from unox.table.settings import SettingsError

    if args.journal is not None and _holds_table(args.journal):
        return _again(args, night)  # the same command run again on its journal: that table goes on
    settings = settings_from_args(args, default_launcher="sim")
    try:
        journal = args.journal
        if journal is None and not args.no_journal:
            make_tables_dir()
            journal = new_table_path(settings.players)
        session = open_play_session(settings, journal=journal, config=launcher_config(args), night=night)
    except (SettingsError, LauncherError, JournalError) as exc:
        raise CommandError(str(exc)) from exc
    if journal is None:
        session.emit("No journal (--no-journal): if this program stops, the game is gone.")
    else:
        session.emit(f"Journal: {journal} (every event is kept; {picked_up_by})")
    return session


NEW_TABLE = ("players", "rules", "variant", "target", "scoring", "profile", "seed")


def _holds_table(path: Path) -> bool:
    """`path` is a unox journal with a table's settings in it (anything else takes the new table's path,
    which says what is wrong with the file)."""
    from unox.table.journal import Journal, JournalError

    if not path.is_file() or path.stat().st_size == 0:
        return False
    try:
        with Journal(path) as journal:
            return journal.settings is not None
    except JournalError:
        return False


def _again(args: argparse.Namespace, night: Any) -> Any:
    """`--journal FILE` on a file that holds a table: that table continues (as `--resume FILE`) when the
    new-table options given are its own; options of another table, or a finished game, are refused in one
    line saying what to type. Nothing is written before that."""
    from unox.launcher import LauncherError
    from unox.table.journal import JournalError
    from unox.table.opening import resume_play_session
    from unox.table.settings import SettingsError

    path = _check_again(args, "play")
    try:
        # the same command line again names the same --launcher: only --accept-launcher takes another board
        return resume_play_session(path, launcher=args.launcher, config=launcher_config(args), night=night,
                                   accept=bool(getattr(args, "accept_launcher", False)))
    except (SettingsError, LauncherError, JournalError) as exc:
        raise CommandError(refusal(exc, "continue", args.launcher)) from exc


def _check_again(args: argparse.Namespace, command: str) -> Path:
    """The journal `--journal FILE` names, when its table may go on: its own new-table options only (none
    of another table's), and a game not over; else a CommandError saying what to type. Reads only."""
    from unox.table.journal import Journal, JournalError
    from unox.table.journal_lock import JournalBusy, JournalLock
    from unox.table.opening import journal_status
    from unox.table.settings import SettingsError, TableSettings

    path = args.journal
    lock = JournalLock(path)
    try:
        lock.acquire(create=False)  # a table running on it in another unox is said first, whatever was typed
    except JournalBusy as exc:
        raise CommandError(str(exc)) from exc
    except JournalError:
        pass  # unreadable or locked out: said by the read below, in its own words
    finally:
        lock.release()
    try:
        with Journal(path) as journal:
            stored = TableSettings.from_dict(journal.settings)
        status = journal_status(path)
    except (JournalError, SettingsError) as exc:
        raise CommandError(f"{path} cannot be continued: {exc}") from exc
    seats = ", ".join(stored.players)
    other = _other_table(args, stored)
    if other:
        raise CommandError(f"{path} holds the table of {seats} ({_described(stored)}), not one with "
                           f"{' '.join(other)}; continue that table with the same command without those "
                           f"options (or `unox {command} --resume {path}`), or give a new --journal file")
    if status == "over":
        players = ",".join(stored.players)
        raise CommandError(f"{path} holds a finished game of {seats}; start a new table there with "
                           f"`unox play --continue {path} --players {players}` (the finished game is kept "
                           f"as {path}.N.done), or give a new --journal file")
    return path


def refusal(exc: Exception, command: str, typed: str | None) -> str:
    """A refused start in one line; another board at the launcher is said for the command typed."""
    from unox.table.runtime import BoardRefused

    return exc.worded(command, typed) if isinstance(exc, BoardRefused) else str(exc)


def _other_table(args: argparse.Namespace, stored: Any) -> list[str]:
    """The new-table options given that are not the stored table's, as typed (`--players Ann,Cy`)."""
    given = settings_from_args(args, default_launcher=stored.launcher) if args.players else None
    other = []
    for name in NEW_TABLE:
        typed = getattr(args, name, None)
        if typed is None:
            continue
        if given is not None:
            same = getattr(given, name) == getattr(stored, name)
        else:  # no seats given: the stored table's settings with this one option as typed
            same = str(typed) == str(getattr(stored, name))
        if not same:
            other.append(f"--{name} {typed}")
    return other


def _described(settings: Any) -> str:
    """A table's edition and goal, as its options would set them."""
    edition = settings.rules + (f" {settings.variant}" if settings.variant else "")
    return f"{edition}, {settings.scoring} to {settings.target}"


def _resume(args: argparse.Namespace, night: Any) -> Any:
    from unox.launcher import LauncherError
    from unox.table.journal import JournalError
    from unox.table.opening import resume_play_session
    from unox.table.settings import SettingsError

    path = check_resume_args(args)
    try:
        return resume_play_session(path, launcher=args.launcher, config=launcher_config(args), night=night,
                                   accept=getattr(args, "round_accepts_launcher", None))
    except (SettingsError, LauncherError, JournalError) as exc:
        # a tournament seat names its launcher every time, as --continue does: --accept-launcher takes another
        seat = getattr(args, "round_accepts_launcher", None) is not None
        raise CommandError(refusal(exc, "continue" if seat else "resume", args.launcher)) from exc


def _continue(args: argparse.Namespace, night: Any) -> Any:
    from unox.launcher import LauncherError
    from unox.table.journal import JournalError
    from unox.table.opening import continue_play_session
    from unox.table.saved import make_tables_dir, new_table_path, newest_game, no_game_message, skipped_line
    from unox.table.settings import SettingsError

    clash = [f"--{name}" for name in ("journal", "resume") if getattr(args, name) is not None]
    if clash:
        raise CommandError(f"give one of --journal, --resume or --continue, not {' and '.join(clash)} too")
    # The new-table options only matter when a new table starts; a game in progress keeps its own.
    settings = settings_from_args(args, default_launcher="sim") if args.players else None
    unreadable = []
    try:
        path = args.continue_path
        if path == NEWEST:  # the newest game dealt and not over; files that cannot be read are named
            path, unreadable = newest_game()
            if path is None:
                if settings is None:
                    raise JournalError(no_game_message(unreadable))
                make_tables_dir()
                path = new_table_path(settings.players)
        session = continue_play_session(path, settings, launcher=args.launcher,
                                        config=launcher_config(args), night=night,
                                        accept=bool(getattr(args, "accept_launcher", False)))
    except (SettingsError, LauncherError, JournalError) as exc:
        raise CommandError(refusal(exc, "continue", args.launcher)) from exc
    if unreadable:
        session.emit(skipped_line(unreadable))
    session.emit(f"Journal: {path} (every event is kept; {PICKED_UP_BY})")
    return session


# --- `unox table`: the table protocol's night ----------------------------------------------------------
def open_protocol_night(args: argparse.Namespace) -> Any:
    """`unox table`'s night: a new table (its `--journal` must hold none) or `--resume`; the launcher is
    `script` unless named. What the protocol's peers must know goes to stderr: stdout is the protocol's."""
    from unox.table.night import Night

    _refuse_a_tournaments(args)
    if args.resume is None and args.journal is not None and _holds_table(args.journal):
        # the same command run again on its journal: that table goes on, as under `play` and `serve`
        return Night(_resume_protocol(args, _check_again(args, "table")))
    return Night(_resume_protocol(args) if args.resume is not None else _create_protocol(args))


def _create_protocol(args: argparse.Namespace) -> Table:
    from unox.table.journal import JournalError
    from unox.table.opening import sim_spec
    from unox.table.runtime import Table

    settings = settings_from_args(args, default_launcher="script")
    journal = _open_journal(args.journal) if args.journal is not None else None
    try:
        if journal is not None:
            journal.lock()  # a table already running on this file is refused first, whatever it holds
        if journal is not None and len(journal):
            raise CommandError(
                f"{journal.path} already holds a table; continue it with --resume {journal.path}, "
                "or give a new --journal file"
            )
        # the simulated launcher seeded as `unox play` seeds it: the same board, whichever command resumes
        spec = sim_spec(settings.launcher, seed=settings.seed, cards=None)
        return Table.create(settings, launcher=open_table_launcher(spec, args), journal=journal)
    except JournalError as exc:
        if journal is not None:
            journal.abandon()  # a start that fails leaves the folder as it was
        raise CommandError(str(exc)) from exc
    except CommandError:
        if journal is not None:
            journal.abandon()
        raise


def _resume_protocol(args: argparse.Namespace, again: Path | None = None) -> Table:
    """`--resume FILE`, or `again`: the journal the same `--journal FILE` command names again, whose
    launcher (named every time) takes another board only with --accept-launcher."""
    import sys

    from unox.table.journal import JournalError
    from unox.table.opening import sim_spec
    from unox.table.runtime import Table
    from unox.table.settings import SettingsError

    journal = _open_journal(check_resume_args(args) if again is None else again)
    accept = args.launcher is not None if again is None else bool(getattr(args, "accept_launcher", False))
    try:
        journal.hold()  # before the launcher opens: a table already running on this journal is refused
        if journal.settings is None:  # an empty file holds no table: refused before anything is written
            raise JournalError(f"{journal.path} holds no table; start one with `unox table --journal FILE`")
        journal.lock()  # before the launcher opens: a table already running on this journal is refused
        stored = journal.settings if isinstance(journal.settings, dict) else {}
        spec = args.launcher or str(stored.get("launcher", "script"))
        seed = stored.get("seed") if isinstance(stored.get("seed"), int) else None
        launcher = open_table_launcher(sim_spec(spec, seed=seed, cards=None), args)
        try:  # another board than the journal's is refused, unless --launcher named it
            table = Table.resume(journal, launcher=launcher, accept_launcher=accept,
                                 launcher_spec=args.launcher)
        except BaseException:
            if launcher is not None:
                launcher.close()
            raise
        if table.rebound is not None:  # stderr: stdout is the protocol's
            named = "--launcher named it" if again is None else "--accept-launcher said"
            print(f"unox: this table now fires launcher board {table.rebound[1]} (it was bound to board "
                  f"{table.rebound[0]}), as {named}", file=sys.stderr)
        return table
    except (JournalError, SettingsError) as exc:
        journal.abandon()
        raise CommandError(refusal(exc, "resume" if again is None else "continue", args.launcher)) from exc


def _open_journal(path: Path) -> Journal:
    from unox.table.journal import Journal, JournalError

    try:
        return Journal(path)
    except JournalError as exc:
        raise CommandError(str(exc)) from exc


# --- `unox press`: the press-button mode ---------------------------------------------------------------
def open_press_mode(args: argparse.Namespace, *, default_cards: int) -> Any:
    """`unox press`'s night: the configured launcher, the eject profile and the mode's options, as a
    `PressMode`; a simulated launcher without `--presses` is refused (and let go) before anything starts."""
    import random

    from unox import config as config_file
    from unox.launcher import LauncherError
    from unox.launcher.configured import resolve
    from unox.launcher.options import open_checked
    from unox.press_mode import PressMode
    from unox.profiles import ProfileError

    try:
        settings = config_file.load(args.config)
        options = _press_options(args, settings)
        spec = resolve(args.launcher, settings)
        profile = _press_profile(args, settings)
        launcher = open_checked(spec, config=settings)
    except (config_file.ConfigError, ProfileError, LauncherError) as exc:
        raise CommandError(str(exc)) from exc
    if args.presses is None and hasattr(launcher, "press_button"):
        launcher.close()
        raise CommandError("the simulated launcher has no button to press here: add --presses N for N "
                           "virtual presses, or serve it with `unox simulate-device --pty` and press its "
                           "button there")
    rng = random.Random(args.seed + 1) if args.seed is not None else None  # suspense: repeatable too
    cards = _start_cards(args, spec, default_cards)
    return PressMode(launcher, profile, cards=cards, options=options, rng=rng)


def _press_profile(args: argparse.Namespace, settings: dict) -> Any:
    import random

    from unox.profiles import get_profile

    custom = {"profiles": settings["profiles"]} if "profiles" in settings else None
    rng = random.Random(args.seed) if args.seed is not None else None
    return get_profile(args.profile, rng=rng, config=custom)


def _press_options(args: argparse.Namespace, settings: dict) -> Any:
    from unox.press_mode import PressOptions

    section = settings.get("press", {})
    gap = args.min_gap if args.min_gap is not None else section.get("min_gap_ms", 0) / 1000
    suspense = args.suspense if args.suspense is not None else section.get("suspense_ms", 0) / 1000
    return PressOptions(min_gap_s=gap, suspense_s=suspense)


def _start_cards(args: argparse.Namespace, spec: str, default: int) -> int:
    from unox.launcher.spec import parse_spec

    if args.cards is not None:
        return args.cards
    cards = parse_spec(spec)[2].get("cards", "")
    return int(cards) if cards.isdigit() else default


# --- `unox demo`: the bots' night ---------------------------------------------------------------------
def open_demo_night(args: argparse.Namespace, night: Any) -> tuple[Any, Any]:
    """`unox demo`'s night and its bots' driver (whose `step` plays the next move)."""
    from unox.table.demo import DemoError, open_demo
    from unox.table.night import Night

    try:
        return open_demo(players=args.players, seed=args.seed, bot=args.bot, target=args.target,
                         scoring=args.scoring, profile=args.profile, rules=args.rules, variant=args.variant,
                         night=night or Night)
    except DemoError as exc:
        raise CommandError(str(exc)) from exc
