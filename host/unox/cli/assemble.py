"""One place assembles a table night from the command line's options: checks, the night, its attachments.

Every command that runs a table is a preset of one `Setup` (`play`: the TUI or `--plain`, phones with
`--web`; `serve`: the phones; `table`: the table protocol; `press`: the press-button mode; `demo`: the
bots' night), made in this order:

1. `check(command, args)`: every check that can refuse, before anything is written: the option pairs that
   cannot go together (one line each), the new table's settings, the MQTT and tournament addresses, the web
   gate (the seats' names, both PINs, the port bound);
2. `open_night(setup)`: the journal (new, `--resume`, `--continue`, the tables folder), its lock, the
   launcher, the profile: the table night (`unox.table.night`);
3. `attach(setup, night)`: the attachments asked for: Home Assistant (`--mqtt`), the phones (`--web`,
   `serve`); the front end then drives the night. A tournament (`--tournament`) opens a night per round
   through the same three steps, with the seat and the Home Assistant bridge kept for the whole night.

A start refused after the journal was made (the broker refuses the login) removes the file it made.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unox.cli.errors import CommandError

Stop = Callable[[], None]
WEB_FRONTS = ("web",)


@dataclass
class Setup:
    """The one settings object a night is assembled from; made by `check`, nothing opened but the gate."""

    command: str  # play, serve, table, press, demo
    args: argparse.Namespace
    front: str  # "tui", "plain", "web" (serve), "protocol" (table), "press", "watch" (demo)
    web: Any = None  # WebOptions when phones are attached
    gate: Any = None  # the web gate: names, PINs, the socket bound (unox.web.launch.Gate)
    mqtt: Any = None  # Home Assistant's broker (a checked BrokerAddress)
    tournament: tuple[Any, int] | None = None  # (the tournament's BrokerAddress, this table's number)
    autoplay: Callable[[], Any] | None = None  # `demo`: the bots' next move
    default_cards: int = 0  # `press`: the cards a launcher is taken to hold when neither it nor --cards says
    stops: list[Stop] = field(default_factory=list)  # the attachments, stopped in reverse
    ha_table: Any = None  # a tournament table's Home Assistant view (CurrentTable), with --mqtt

    def close(self) -> None:
        """Stop every attachment (newest first) and release the gate if no server took it."""
        while self.stops:
            self.stops.pop()()
        if self.gate is not None:
            self.gate.close()
            self.gate = None


def front_of(command: str, args: argparse.Namespace) -> str:
    import sys

    if command == "serve":
        return "web"
    if command == "table":
        return "protocol"
    if command == "press":
        return "press"
    if command == "demo":
        return "web" if getattr(args, "web", False) else "watch"
    plain = getattr(args, "plain", False) or not (sys.stdin.isatty() and sys.stdout.isatty())
    return "plain" if plain else "tui"


def refuse_orphans(command: str, args: argparse.Namespace) -> None:
    """An option that means something only beside another (the phones' `--port` beside `--web`, a
    tournament's `--table` beside `--tournament`) is refused without it, as a usage error: run as typed, it
    would be silently ignored. `serve` is the phones, so its web options need nothing."""
    from unox.cli.errors import UsageError
    from unox.cli.web_option import given_web_options

    orphans: list[tuple[list[str], str, str]] = []  # (the options given, what they need, what they are)
    if command in ("play", "demo") and not getattr(args, "web", False):
        orphans.append((given_web_options(args), "--web", "the phones' server"))
    if getattr(args, "tournament", None) is None:
        lone = [f"--{name}" for name in ("table", "bots") if getattr(args, name, None) is not None]
        orphans.append((lone, "--tournament URL", "a tournament table"))
    if getattr(args, "bots", None) is not None:  # the bots play in the engine: no launcher fires
        fired = [f"--{name}" for name in ("launcher", "profile", "config") if getattr(args, name, None)]
        if fired:
            raise UsageError(f"--bots plays every hand in the engine, with no launcher and the measured "
                             f"profile; leave out {' and '.join(fired)}")
    if command == "demo" and getattr(args, "plain", False):
        clash = [f"--{name}" for name in ("web", "pace") if getattr(args, name, None) not in (None, False)]
        if clash:
            raise UsageError(f"--plain prints the transcript at once, with no pace and no phones; leave out "
                             f"{' and '.join(clash)}")
    for given, needs, what in orphans:
        if given:
            them = "it" if len(given) == 1 else "them"
            raise UsageError(f"{' and '.join(given)} {'is' if len(given) == 1 else 'are'} for {what}: add "
                             f"{needs}, or leave {them} out")


def refuse_pairs(command: str, args: argparse.Namespace) -> None:
    """The options that cannot go together, refused in one line before anything is written."""
    from unox.cli.table_options import check_resume_args

    refuse_orphans(command, args)
    given = {name for name in ("journal", "resume", "continue_path", "players", "rules", "variant", "target",
                               "scoring", "tournament", "mqtt") if getattr(args, name, None) is not None}
    no_journal = getattr(args, "no_journal", False)
    if getattr(args, "accept_launcher", False) and not given & {"tournament", "continue_path", "journal"}:
        raise CommandError("--accept-launcher goes with --continue, --journal or --tournament (their command "
                           "lines name --launcher every time); --resume FILE --launcher serial:PORT takes "
                           "another launcher by itself, and `launcher accept` typed while a table runs")
    if getattr(args, "accept_launcher", False) and getattr(args, "launcher", None) is None:
        raise CommandError("--accept-launcher takes the launcher --launcher names: add --launcher "
                           "serial:PORT")
    if no_journal and given & {"journal", "resume", "continue_path"}:
        raise CommandError("--no-journal starts a table without one; leave out --journal, --resume and "
                           "--continue")
    if "continue_path" in given:
        clash = [f"--{name}" for name in ("journal", "resume") if name in given]
        if clash:
            clashing = " and ".join(clash)
            raise CommandError(f"give one of --journal, --resume or --continue, not {clashing} too")
    if "tournament" in given:
        if command == "play" and (getattr(args, "web", False) or "continue_path" in given or no_journal):
            raise CommandError("--tournament keeps a journal per round and no phones yet; leave out --web, "
                               "--continue and --no-journal")
        if "continue_path" in given or no_journal:
            raise CommandError("--tournament keeps a journal per round; leave out --continue and "
                               "--no-journal")
        return  # the tournament's own checks follow (seats and rules come from its schedule)
    if "resume" in given:
        check_resume_args(args)


def check(command: str, args: argparse.Namespace) -> Setup:
    """Every check that can refuse, in one place, before any journal, lock or broker session exists."""
    from unox.cli.mqtt_option import checked_address
    from unox.cli.table_options import settings_from_args

    refuse_pairs(command, args)
    setup = Setup(command, args, front_of(command, args))
    if getattr(args, "tournament", None) is not None:
        from unox.cli.tournament_option import checked_options

        setup.tournament = checked_options(args)
    elif command in ("play", "serve") and args.players and args.resume is None:
        settings_from_args(args, default_launcher="sim")  # a bad seat, seed or edition: refused now
    setup.mqtt = checked_address(args)
    if command == "serve" or (command in ("play", "demo") and getattr(args, "web", False)):
        from unox.cli.web_option import web_options

        setup.web = web_options(args, read_only=command == "demo")  # the bots' game is watched, not played
        # a tournament's rounds are served on this one socket, their seats checked as each round opens
        setup.gate = _open_gate(setup.web, args, seated=command != "demo")
    return setup


def _open_gate(options: Any, args: argparse.Namespace, *, seated: bool = True) -> Any:
    from unox.table.settings import SettingsError, parse_players
    from unox.web.launch import WebError, open_gate

    try:
        if not seated:  # the demo's bots are named by the demo itself: no seat of theirs can clash
            return open_gate(options, ())
        players = parse_players(args.players) if args.players and args.resume is None else None
        gate = open_gate(options, players)
    except (WebError, SettingsError) as exc:
        raise CommandError(str(exc)) from exc
    if getattr(args, "continue_path", None) is not None:
        gate.players_unchecked = True  # a game FILE goes on with keeps its own seats, whatever --players says
    return gate


def open_night(setup: Setup, night: Any = None) -> Any:
    """The night the options name, opened for the command's front end: a table night (new, `--resume`,
    `--continue`) as `night` (default: `Night`) for `play` and `serve`; the protocol's night for `table`;
    the press-button mode for `press`; the bots' night for `demo` (its driver kept as `setup.autoplay`)."""
    from unox.cli import night as nights

    try:
        if setup.front == "protocol":
            return nights.open_protocol_night(setup.args)
        if setup.front == "press":
            return nights.open_press_mode(setup.args, default_cards=setup.default_cards)
        if setup.command == "demo":
            opened, driver = nights.open_demo_night(setup.args, night)
            setup.autoplay = driver.step
            return opened
        opened = nights.open_session(setup.args, night)
    except BaseException:
        setup.close()
        raise
    if setup.gate is not None and setup.gate.players_unchecked:
        _check_names(setup, opened)
    return opened


def _check_names(setup: Setup, night: Any) -> None:
    """A resumed or continued table's seats, checked for the phones once the journal names them."""
    from unox.web.launch import WebError, check_names

    try:
        check_names(night.table.players)
    except WebError as exc:
        night.close()
        setup.close()
        raise CommandError(str(exc)) from exc


def attach(setup: Setup, night: Any) -> None:
    """The attachments that need the night: Home Assistant's bridge (a table's, or the press-button mode's).
    A refused login leaves the folder as it was: a journal file this start made is removed again (one that
    was there before is kept)."""
    from unox.cli.mqtt_option import start_bridge

    if setup.mqtt is None:
        return
    if setup.front == "press":
        setup.stops.append(start_bridge(setup.mqtt, lambda: _press_snapshot(night)))
        return
    table = night.table
    try:
        setup.stops.append(start_bridge(setup.mqtt, lambda: _table_snapshot(table)))
    except CommandError:
        journal = getattr(table, "journal", None)
        if journal is not None:
            journal.abandon()
        night.close()
        kept = getattr(night, "kept_aside", None)
        if kept is not None:  # `--continue` moved a finished game aside for the new table: put it back
            from unox.table.opening import put_back

            put_back(*kept)
        setup.close()
        raise


def _press_snapshot(mode: Any) -> dict[str, str]:
    from unox.homeassistant.snapshots import press_snapshot

    return press_snapshot(mode)


def _table_snapshot(table: Any) -> dict[str, str]:
    from unox.homeassistant.snapshots import table_snapshot

    return table_snapshot(table)
