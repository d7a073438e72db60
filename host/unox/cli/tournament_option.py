"""`--tournament mqtt://[USER:PASS@]HOST[:PORT]/NAME --table N` on `unox table`, `play` and `serve`.

The CLI only checks the options and says which front end attends each round; the joining and the round
loops are the tournament's (`unox.tournament.join`, `unox.tournament.night_rounds`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.numbers import int_in
from unox.cli.table_options import MAX_SEED, whole_number
from unox.tournament.join import BOTS, MAX_TABLES
from unox.words import counted

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `--help` stays fast
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from unox.tournament.address import BrokerAddress
    from unox.tournament.seat import TableSeat


def add_tournament_options(parser: argparse.ArgumentParser, *, bots: bool = True) -> None:
    group = parser.add_argument_group("tournament (docs/tournament.md)")
    group.add_argument("--tournament", metavar="URL",
                       help="join a tournament: mqtt://[USER:PASS@]HOST[:PORT]/NAME")
    group.add_argument("--table", metavar="N", type=int_in(1, MAX_TABLES),
                       help=f"this table's number in the tournament, 1 to {MAX_TABLES}")
    group.add_argument("--accept-launcher", action="store_true",
                       help="a round (or a table of --continue or --journal) resumed from its journal "
                       "fires the launcher --launcher names even when it is another board than its own (it "
                       "is then bound to it); without this, another board is refused")
    if not bots:
        return
    group.add_argument("--bots", choices=BOTS,
                       help="bots play every hand (a demo, or a test of the club's setup); without it people "
                       "play each round over the table protocol")


def checked_options(args: argparse.Namespace) -> tuple[BrokerAddress, int]:
    """The tournament address and table number; the seats come from the schedule, so --players is refused."""
    from unox.tournament.address import AddressError, parse

    if args.table is None:
        raise CommandError("--tournament needs this table's number: add --table N (1 for the first table)")
    if args.accept_launcher and args.launcher is None:
        raise CommandError("--accept-launcher takes the launcher --launcher names: add --launcher "
                           "serial:PORT")
    table = whole_number("--table", args.table, 1, MAX_TABLES)
    given = [f"--{name}" for name in ("players", "resume", "variant", "rules", "target", "scoring")
             if getattr(args, name, None) is not None]
    if given:
        raise CommandError("the tournament's schedule sets the seats and the rules; "
                           f"leave out {', '.join(given)}")
    try:
        address = parse(args.tournament)
    except AddressError as exc:
        raise CommandError(str(exc)) from exc
    number = int(table or 0)
    _check_user(address, number)
    return address, number


CLUB_USERS = ("coordinator", "homeassistant")  # the ACL lets neither write a table's result or presence


def _check_user(address: BrokerAddress, number: int) -> None:
    """Table N writes `result/N` and `presence/tableN`, which the club's ACL lets only the user `tableN`
    publish: with another table's user (or the coordinator's) the broker would drop every result without a
    word, so it is refused here, before anything is written."""
    import re

    user = address.username
    other = re.fullmatch(r"table(\d+)", user or "")
    if (other is not None and int(other.group(1)) != number) or user in CLUB_USERS:
        raise CommandError(f"--table {number} needs the user table{number}, not {user}: the broker drops "
                           f"every result table {number} sends as {user}; give --tournament "
                           f"mqtt://table{number}:PASSWORD@{address.host}:{address.port}/{address.name}")


@contextmanager
def joined_seat(args: argparse.Namespace, front: str, accepted: Callable[[], None] | None = None
                ) -> Iterator[tuple[TableSeat, Path]]:
    """The table's seat and its results journal's path, every refusal one `CommandError`; `accepted` runs
    once the tournament's checks have passed, before anything is written (`unox.tournament.join`); the
    command that rejoins (`unox FRONT --tournament ...`) is kept in the journal for `unox play --list`."""
    from unox.table.journal import JournalError as TableJournalError
    from unox.table.settings import SettingsError
    from unox.tournament.join import TournamentError
    from unox.tournament.join import joined_seat as join
    from unox.tournament.journal import JournalError
    from unox.tournament.kept import pick_up
    from unox.tournament.link import LinkError

    address, number = checked_options(args)
    bots = getattr(args, "bots", None)  # a bot table replays a hand from its seed: both go in the command
    seed = () if getattr(args, "seed", None) is None else ("--seed", str(args.seed))
    more = () if bots is None else ("--bots", bots, *seed)
    try:
        with join(address, number, args.journal, say=_tell, accepted=accepted,
                  pick_up=pick_up(front, address, number, args.journal, more)) as (seat, path):
            yield seat, path
    except (TournamentError, JournalError, LinkError, TableJournalError, SettingsError) as exc:
        raise CommandError(str(exc)) from exc


def run_table(args: argparse.Namespace) -> int:
    """`unox table --tournament URL --table N [--bots NAME]`: bots play every hand, or people over the
    table protocol on stdin/stdout."""
    from unox.cli.table_options import open_table_launcher
    from unox.tournament.bot_table import play_table
    from unox.tournament.join import CONNECT_WAIT_S
    from unox.tournament.night_rounds import protocol_rounds

    seed = whole_number("--seed", args.seed, 0, MAX_SEED)
    with joined_seat(args, "table") as (seat, path):
        address, number = seat.address, seat.number
        say = _say if args.bots else _tell  # people use stdout for the table protocol
        say(f"table {number} of {address.name} (tournament {seat.tournament}): results journal {path}")
        if not seat.link.wait_connected(CONNECT_WAIT_S):
            say(f"waiting for the broker at {address.host}:{address.port} (the table keeps trying)")
        if args.bots is None:
            done = protocol_rounds(seat, path, iter(sys.stdin.buffer.readline, b""), sys.stdout, seed=seed,
                                   profile=args.profile, launcher=args.launcher,
                                   open_launcher=lambda spec: open_table_launcher(spec, args), say=_tell,
                                   accept_launcher=args.accept_launcher)
            ended = "the input ended; continue with the same command and --journal"
            if done:
                refused_results(seat)
            _tell(f"table {seat.number}: " + ("every result is in" if done else ended))
            return 0
        played = play_table(seat, bot=args.bots, seed=seed or 0, say=_say)
        refused_results(seat)
        _say(f"table {number}: every result is in ({counted(played, 'hand')} played now)")
    return 0


def refused_results(seat: TableSeat) -> None:
    """A table whose results the coordinator refused ends with that, and a non-zero exit."""
    from unox.tournament.join import refused_line

    line = refused_line(seat)
    if line is not None:
        raise CommandError(line)


def run_play(setup: Any) -> int:
    """`unox play --tournament URL --table N`: each round a play session at the terminal or `--plain`; in
    the terminal UI the round ends when its hands are scored and the players leave it (Ctrl+Q or quit), in
    `--plain` by itself after the last hand's score. `--mqtt` shows each round's table in Home Assistant."""
    from unox.tournament.night_rounds import attended_rounds

    args = setup.args
    lines = iter(sys.stdin)

    def attend(session: Any, _round_no: int, done: Callable[[], bool]) -> None:
        if setup.front == "plain":
            from unox.ui.plain import run_plain

            for line in session.log:  # what happened while opening, as `unox play --plain` prints it
                print(line)  # (resumed; another launcher board taken with --accept-launcher)
            run_plain(session, _until(done, lines), sys.stdout)
        else:
            from unox.ui.app import run_app

            run_app(session, poll_interval=0.05, poll_wait=0.0)

    opener, bridge = _bridged(setup, _round_opener(args, ui=True, front="play"))
    with joined_seat(args, "play", accepted=bridge) as (seat, path):
        _show_seat(setup, seat)
        if attended_rounds(seat, path, opener, attend, _say):
            _wait_over_for_home_assistant(setup, seat)
    return 0


def run_serve(setup: Any) -> int:
    """`unox serve --tournament URL --table N`: each round's table on the phones, served on the same
    address (a fixed `--pin` keeps the same PIN all night); the round ends when its hands are scored.
    `--mqtt` shows each round's table in Home Assistant."""
    from unox.tournament.night_rounds import attended_rounds

    args = setup.args
    gate = setup.gate  # bound by `check` before anything was written; every round is served on it

    def attend(night: Any, round_no: int, done: Callable[[], bool]) -> None:
        _serve_round(night, done, gate)
        _say(f"round {round_no} is over; its results went to the coordinator")

    opener, bridge = _bridged(setup, _round_opener(args, ui=False, front="serve"))
    try:
        with joined_seat(args, "serve", accepted=bridge) as (seat, path):
            _show_seat(setup, seat)
            if attended_rounds(seat, path, opener, attend, _say, tell=lambda _night: _say):
                _wait_over_for_home_assistant(setup, seat)
    except KeyboardInterrupt:
        return 0
    return 0


def _bridged(setup: Any, open_round: Callable[[int, Path, list[str], str], Any]
             ) -> tuple[Callable[[int, Path, list[str], str], Any], Callable[[], None]]:
    """With `--mqtt`: the round opener that shows the table of the round being played to Home Assistant,
    and the check of Home Assistant's login, handed to the seat's joining (run once the tournament's name
    and table number are accepted, before anything is written: a refused login is one line). The one
    bridge for the whole night (stopped by `setup.close()`) starts only once the first round's table has
    opened, its launcher accepted: a start refused before that (a wrong name, another launcher board) leaves
    Home Assistant no retained device and no state."""
    if setup.mqtt is None:
        return open_round, lambda: None
    from unox.homeassistant.snapshots import CurrentTable

    current = CurrentTable()
    setup.ha_table = current  # told the seat once it joined (`_show_seat`)
    answered: list[bool] = []  # the login check's: did the broker answer (else the bridge says so at once)
    started: list[bool] = []  # the bridge, once

    def check() -> None:
        answered.append(_login_answers(setup.mqtt))

    def start() -> None:
        from unox.cli.mqtt_option import CONNECT_S, start_bridge
        from unox.homeassistant.discovery import TABLE_TOURNAMENT_ENTITIES
        from unox.tournament import topics

        name = (setup.tournament or checked_options(setup.args))[0].name
        wait = CONNECT_S if all(answered) else 0.0  # not answering is said once, not waited for twice
        setup.stops.append(start_bridge(setup.mqtt, current.snapshot, entities=TABLE_TOURNAMENT_ENTITIES,
                                        subscriptions={topics.standings(name): current.on_standings},
                                        wait=wait))

    def opened(round_no: int, journal: Path, seated: list[str], rules: str) -> Any:
        night = open_round(round_no, journal, seated, rules)
        current.table = night.table
        if not started:  # the first round's table is open: its launcher was accepted
            try:
                start()
            except BaseException:
                night.close()
                raise
            started.append(True)
        return night

    return opened, check


def _login_answers(address: BrokerAddress) -> bool:
    """Home Assistant's broker takes our login (a refusal is one `CommandError`); publishes nothing. False
    when no broker answered in time: the bridge says so when it starts, and keeps trying."""
    from unox.cli.mqtt_option import CONNECT_S
    from unox.tournament.link import Link, LinkError

    probe = Link(address, "", {}, persistent=False).start()
    try:
        return probe.wait_connected(CONNECT_S)
    except LinkError as exc:
        raise CommandError(str(exc)) from exc
    finally:
        probe.stop(flush=0)


def _show_seat(setup: Any, seat: TableSeat) -> None:
    """With `--mqtt`: Home Assistant shows this seat's tournament (its id, its round)."""
    current = setup.ha_table
    if current is None:
        return
    from unox.tournament.seat import ROUND_KEY

    current.round_state = lambda: seat.journal.get(ROUND_KEY)
    current.tournament = seat.tournament


OVER_WAIT_S = 2.0  # the last table's `over` follows its last receipt within milliseconds


def _wait_over_for_home_assistant(setup: Any, seat: TableSeat) -> None:
    """With `--mqtt`, a table whose results are all in waits a moment for the coordinator's `over`, so Home
    Assistant's last look shows the tournament over and its winner (the coordinator sends the receipt of
    the last hand before the final standings). Without it, or when other tables still play, it goes on."""
    if setup.ha_table is None:
        return
    from unox.tournament.link import LinkError

    plan = seat.plan()
    try:
        seat.wait_round(len(plan.rounds) + 1 if plan is not None else 1, OVER_WAIT_S)
    except (TimeoutError, LinkError):
        pass  # another table still plays: this one's part is done all the same


def _serve_round(night: Any, done: Callable[[], bool], gate: Any) -> None:
    """The round's table on the night's gate: the same socket and PINs every round (a copy of the socket
    per server, so the next round's phones queue on it while the round changes)."""
    import threading
    from dataclasses import replace

    from unox.cli.web_option import detach_script
    from unox.web.launch import WebError, WebServer, announce, check_names

    table, launcher = night.table, detach_script(night)
    over = threading.Event()
    table.listeners.append(lambda _line: over.set() if done() else None)
    if done():
        over.set()
    try:
        check_names(table.players)
        round_gate = replace(gate, sock=gate.sock.dup(), players_unchecked=False)
        server = WebServer(table, gate.options, launcher=launcher, button_loop=True, gate=round_gate,
                           night=night)
    except WebError as exc:
        raise CommandError(str(exc)) from exc
    announce(server.url, server.pin, sys.stdout, server.operator_pin)
    server.thread = threading.Thread(target=server.run, name="unox-web", daemon=True)
    server.thread.start()
    try:
        while not over.wait(0.5) and not done():  # done() also once the seat was replaced
            pass
    finally:
        server.stop()


def _round_opener(args: argparse.Namespace, *, ui: bool, front: str
                  ) -> Callable[[int, Path, list[str], str], Any]:
    """Each round's night, opened as `unox play` opens a table: resumed from its journal, else new on the
    round's seats (`partners`, no target); the transcript of a served round is printed as `unox serve`
    prints it. Its journal line and its leave-taking name the command that picks the round up (this one,
    not `unox play --continue`)."""
    import copy

    from unox.cli.night import open_session
    from unox.tournament.address import parse
    from unox.tournament.bot_table import NO_TARGET
    from unox.tournament.kept import pick_up, told

    picked_up_by = told(pick_up(front, parse(args.tournament), args.table, args.journal))

    def open_round(round_no: int, journal: Path, seated: list[str], rules: str) -> Any:
        round_args = copy.copy(args)
        for name in ("players", "rules", "variant", "target", "scoring", "journal", "resume", "profile",
                     "seed"):
            setattr(round_args, name, None)
        if journal.exists() and journal.stat().st_size:
            round_args.resume = journal
            # --launcher is in every tournament command line: only --accept-launcher takes another board
            round_args.round_accepts_launcher = args.accept_launcher
        else:
            round_args.players, round_args.rules, round_args.variant = ",".join(seated), rules, "partners"
            round_args.target, round_args.journal = str(NO_TARGET), journal
            round_args.profile, round_args.seed = args.profile, args.seed
        if not ui:
            night = open_session(round_args, picked_up_by=picked_up_by)
            night.table.listeners.append(_say)  # a transcript, as unox serve prints
            return night
        from unox.ui.session import Session

        return open_session(round_args, Session, picked_up_by=picked_up_by)

    return open_round


def _until(done: Callable[[], bool], lines: Iterator[str]) -> Iterator[str]:
    """The typed lines, until the round's hands are all scored (or the seat was replaced)."""
    for line in lines:
        if done():
            return
        yield line
        if done():
            return


def _say(text: str) -> None:
    print(text, flush=True)


def _tell(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
