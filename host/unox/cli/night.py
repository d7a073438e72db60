"""The table night the options name: new, `--resume` or `--continue`, journalled where `--list` finds it.

`unox play`, `unox serve` and the tournament's rounds open their night here; `night=` is the class the
front end drives (the TUI's `Session`, or the table layer's `Night` for the phones).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from unox.cli.errors import CommandError
from unox.cli.table_options import check_resume_args, launcher_config, settings_from_args

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
    """`--continue FILE` or `--resume FILE` on a tournament table's journal would play its round outside the
    tournament (no seats from the schedule, no result sent): refused, naming the command that rejoins."""
    given = args.resume if args.continue_path in (None, NEWEST) else args.continue_path
    if given is None:
        return
    from unox.tournament.kept import ROUND, tournament_table

    kept = tournament_table(Path(given))
    if kept is None:
        return
    found = ROUND.match(Path(given).stem)
    what = (f"round {found['round']} of" if found else "the results journal of") + (
        f" table {kept.table} of tournament {kept.name} (id {kept.tournament})")
    how = "there is nothing left to play at that table" if kept.over or kept.done else kept.rejoin()
    option = "--resume" if args.continue_path is None else "--continue"
    raise CommandError(f"{given} is {what}, played only inside its tournament, so {option} does not take it; "
                       f"{how}")


def _create(args: argparse.Namespace, night: Any, picked_up_by: str) -> Any:
    from unox.launcher import LauncherError
    from unox.table.journal import JournalError
    from unox.table.opening import open_play_session
    from unox.table.saved import make_tables_dir, new_table_path
    from unox.table.settings import SettingsError

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


def _resume(args: argparse.Namespace, night: Any) -> Any:
    from unox.launcher import LauncherError
    from unox.table.journal import JournalError
    from unox.table.opening import resume_play_session
    from unox.table.settings import SettingsError

    path = check_resume_args(args)
    try:
        return resume_play_session(path, launcher=args.launcher, config=launcher_config(args), night=night)
    except (SettingsError, LauncherError, JournalError) as exc:
        raise CommandError(str(exc)) from exc


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
                                        config=launcher_config(args), night=night)
    except (SettingsError, LauncherError, JournalError) as exc:
        raise CommandError(str(exc)) from exc
    if unreadable:
        session.emit(skipped_line(unreadable))
    session.emit(f"Journal: {path} (every event is kept; {PICKED_UP_BY})")
    return session
