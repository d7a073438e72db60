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


def open_session(args: argparse.Namespace, night: Any = None) -> Any:
    """The table the options name: new, `--resume` or `--continue`, as a `night` (default: `Night`)."""
    if night is None:
        from unox.table.night import Night

        night = Night
    if args.no_journal and (args.journal or args.resume or args.continue_path):
        raise CommandError(
            "--no-journal starts a table without one; leave out --journal, --resume and --continue"
        )
    if args.continue_path is not None:
        return _continue(args, night)
    if args.resume is not None:
        return _resume(args, night)
    return _create(args, night)


def _create(args: argparse.Namespace, night: Any) -> Any:
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
        session.emit(f"Journal: {journal} (every event is kept; `unox play --continue` picks it up)")
    return session


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
    session.emit(f"Journal: {path} (every event is kept; `unox play --continue` picks it up)")
    return session
