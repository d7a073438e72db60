"""`unox tournament`: coordinate tables that play together over an MQTT broker (docs/tournament.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from unox.cli.errors import CommandError
from unox.cli.numbers import SEED_MAX, int_in

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `--help` stays fast
if TYPE_CHECKING:
    from unox.tournament.address import BrokerAddress
    from unox.tournament.journal import ResultsJournal
    from unox.tournament.schedule import Plan

EXAMPLE = """examples:
  unox tournament demo
  unox tournament start --broker mqtt://coordinator:PASS@pi.local/club \
      --players Ann,Bob,Cy,Dee,Eve,Fay,Gus,Hal --journal club.db
  unox table --tournament mqtt://table1:PASS@pi.local/club --table 1 --bots heuristic
  unox tournament status --journal club.db"""
CONNECT_S = 10.0  # a broker that does not answer within this is said, and nothing is written


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="coordinate tables that play together over an MQTT broker: the classic multi-table tournament",
        description="Coordinate a round-robin tournament of pairs (classic C-V2, C-V3): the schedule, each "
        "round's seats, every hand's result and the standings, through an MQTT broker (mosquitto).",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    start = sub.add_parser("start", help="run the coordinator until every hand's result is in",
                           description="Run the coordinator: it publishes the schedule, opens each round, "
                           "journals and acknowledges each result and keeps the standings.")
    _add_start_options(start)
    start.set_defaults(func=run_start)
    serve = sub.add_parser("serve", help="run the coordinator and show the standings on a web page (a TV)",
                           description="Run the coordinator as `start` does, and serve the standings on "
                           "a read-only page that refreshes itself; it keeps serving after the last hand, "
                           "until Ctrl-C.")
    _add_start_options(serve)
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    serve.add_argument("--port", default=8766, metavar="PORT", type=int_in(0, 65535),
                       help="port of the page (default 8766; 0: any)")
    serve.set_defaults(func=run_serve)
    status = sub.add_parser("status", help="the standings, from the journal or from the broker")
    status.add_argument("--journal", type=Path, metavar="FILE", help="the coordinator's journal")
    status.add_argument("--broker", metavar="URL", help="read the retained standings from the broker")
    status.add_argument("--json", action="store_true", help="print JSON")
    status.set_defaults(func=run_status)
    demo = sub.add_parser("demo", help="bots play a whole C-V3 tournament at two tables through a broker",
                          description="Bots play a whole C-V3 tournament (8 players, 28 hands each) "
                          "at two tables, each its own process, through a broker. Without --broker a "
                          "private mosquitto is started on a free loopback port and stopped at the end.")
    demo.add_argument("--broker", metavar="URL", action="append",
                      help="use this broker instead of a private one; on a broker set up by unox install "
                      "broker, give it three times: the coordinator's, table1's and table2's address")
    demo.add_argument("--bots", choices=("heuristic", "random"), default="heuristic", help="bot strategy")
    demo.add_argument("--seed", metavar="N", default=0, type=int_in(0, SEED_MAX),
                      help=f"the same seed plays the same tournament, 0 to {SEED_MAX} (default 0: every "
                      "demo plays the same tournament)")
    demo.add_argument("--json", action="store_true", help="print the final standings as JSON")
    demo.set_defaults(func=run_demo)


def _add_start_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", metavar="URL", help="mqtt://[USER:PASS@]HOST[:PORT]/NAME (required)")
    parser.add_argument("--players", help="4, 8, 12 ... names, e.g. Ann,Bob,Cy,Dee,Eve,Fay,Gus,Hal (C-V3)")
    parser.add_argument("--rules", default=None, metavar="EDITION", help="the edition each table plays "
                       "(default classic)")
    parser.add_argument("--cycles", default=None, metavar="N",
                        help="play the whole rotation N times (default 1; C-V2: rounds may be played again)")
    parser.add_argument("--journal", type=Path, metavar="FILE", help="SQLite journal of every result")
    parser.add_argument("--resume", type=Path, metavar="FILE", help="continue the tournament a journal holds")
    parser.add_argument("--replace", action="store_true",
                        help="take the place of a running coordinator of another tournament under the same "
                        "name (it stops, and so do its tables); without it such a start is refused")
    parser.add_argument("--json", action="store_true", help="print the final standings as JSON")
    parser.add_argument("--home-assistant", action="store_true",
                        help="show the tournament in Home Assistant (MQTT discovery on the same broker): "
                        "round, hands in, leader with everyone's points, winner")


def _address(text: str, option: str = "--broker") -> BrokerAddress:
    from unox.tournament.address import AddressError, parse

    try:
        return parse(text, option=option)
    except AddressError as exc:
        raise CommandError(str(exc)) from exc


def _plan(args: argparse.Namespace, journal: ResultsJournal, name: str, plan: Plan | None) -> Plan:
    """A new tournament's plan (and its id) stored in its journal, or the one a resumed journal holds."""
    from unox.tournament.schedule import Plan, ScheduleError

    stored = journal.get("plan")
    if args.resume is not None:
        if stored is None:
            raise CommandError(f"{journal.path} holds no tournament; start one with --players and --journal")
        if journal.get("name") != name:
            raise CommandError(f"{journal.path} is the tournament {journal.get('name')!r}, not {name!r}: "
                               "give the same name in --broker")
        try:
            return Plan.from_json(stored)
        except ScheduleError as exc:
            raise CommandError(f"{journal.path}: {exc}; it was written by an older unox") from exc
    if stored is not None:
        raise CommandError(f"{journal.path} already holds a tournament; continue it with --resume "
                           f"{journal.path}, or give a new --journal file")
    assert plan is not None
    journal.set("plan", plan.to_json())
    journal.set("name", name)
    return plan


def _resumed_id(path: Path) -> str | None:
    """The tournament id a journal holds, read without writing (None when it holds none: _plan says so)."""
    from unox.tournament.journal import JournalError, read_only

    try:
        stored, _ = read_only(path)
    except JournalError as exc:
        raise CommandError(str(exc)) from exc
    return stored.get("id") if isinstance(stored, dict) else None


def _broker_accepts(address: BrokerAddress) -> dict | None:
    """Asked before anything is written: a broker that refuses us or does not answer is one line. Returns
    the retained presence of the name's coordinator when it says it is alive (None when there is none, it
    ended cleanly, or its will said it is gone)."""
    from unox.tournament import topics
    from unox.tournament.link import Link, LinkError

    seen: dict = {}

    def on_presence(topic: str, payload: object) -> None:
        if isinstance(payload, dict):
            seen.update(presence=payload)

    link = Link(address, "", {topics.presence(address.name, "coordinator"): on_presence},
                persistent=False).start()
    try:
        if not link.wait_connected(CONNECT_S) or not link.settle(topics.settle(address.name), CONNECT_S):
            raise CommandError(f"no broker answered at {address.host}:{address.port} within {CONNECT_S:g} s; "
                               "is mosquitto running there? Nothing was written")
    except LinkError as exc:
        raise CommandError(f"{exc}. Nothing was written") from exc
    finally:
        link.stop(flush=0)
    presence = seen.get("presence")
    return presence if isinstance(presence, dict) and presence.get("alive") is True else None


def _refuse_a_second(name: str, running: dict | None, tournament: str | None) -> None:
    """A new tournament (or another one's journal resumed) under the name of a coordinator that says it is
    alive would stop that tournament's night: refused in one line unless `--replace`. The same tournament's
    `--resume` goes ahead: its old coordinator was killed (its will may not be out yet) or is the one to
    take over from, as before."""
    if running is None or (tournament is not None and running.get("tournament") == tournament):
        return
    import time

    started = running.get("started")
    since = (time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(started))
             if isinstance(started, (int, float)) else "an unknown time")
    raise CommandError(
        f"the coordinator of {name} runs tournament {str(running.get('tournament'))[:16]} (pid "
        f"{str(running.get('pid'))[:12]} on {str(running.get('host'))[:60]}, since {since}); nothing was "
        "written. Continue it with --resume JOURNAL on that machine, stop it first, or add --replace to take "
        "its place on purpose (its tables stop)")


def new_plan(args: argparse.Namespace) -> Plan:
    """The schedule for `--players` and `--rules`, checked before any file is written."""
    from unox.rules.editions import get_rules, rule_names
    from unox.tournament.schedule import Plan, ScheduleError

    if not args.players:
        raise CommandError("give the players with --players Ann,Bob,..., or continue with --resume FILE")
    rules = args.rules or "classic"
    paired = [name for name in rule_names() if "partners" in get_rules(name).variants]
    if rules not in paired:
        raise CommandError(f"--rules {rules!r} has no partners variant for a tournament of pairs; use one of "
                           f"{', '.join(paired)}")
    from unox.cli.table_options import whole_number
    from unox.tournament.schedule import MAX_CYCLES

    cycles = whole_number("--cycles", args.cycles, 1, MAX_CYCLES) if args.cycles is not None else 1
    try:
        plan = Plan(tuple(p.strip() for p in args.players.split(",")), rules, cycles=int(cycles or 1))
        plan.rounds  # noqa: B018 - checks the players make a schedule
    except ScheduleError as exc:
        raise CommandError(str(exc)) from exc
    return plan


def run_start(args: argparse.Namespace, page: tuple[str, int] | None = None) -> int:
    from unox.tournament.coordinator import Coordinator
    from unox.tournament.journal import JournalError, ResultsJournal
    from unox.tournament.link import LinkError

    if args.broker is None:
        raise CommandError("give the broker with --broker mqtt://USER:PASS@HOST/NAME (docs/tournament.md)")
    address = _address(args.broker)
    if (args.journal is None) == (args.resume is None):
        raise CommandError("give --journal FILE for a new tournament, or --resume FILE to continue one")
    if args.resume is not None and (args.players or args.rules or args.cycles):
        raise CommandError("--resume takes the players, rules and cycles from the journal; "
                           "leave out --players, --rules and --cycles")
    if args.resume is not None and not args.resume.is_file():
        raise CommandError(f"no journal at {args.resume}; give the file written by --journal")
    fresh = new_plan(args) if args.resume is None else None
    running = _broker_accepts(address)
    if not args.replace:
        _refuse_a_second(address.name, running, _resumed_id(args.resume) if args.resume is not None else None)
    try:
        journal = ResultsJournal(args.journal or args.resume, durable="process")
    except JournalError as exc:
        raise CommandError(str(exc)) from exc
    try:
        plan = _plan(args, journal, address.name, fresh)
        coordinator = Coordinator(address, journal, plan)
        server = _standings_server(address.name, coordinator, page) if page is not None else None
        print(f"tournament {address.name}: id {plan.tournament} (the tables learn it from the broker)",
              file=sys.stderr, flush=True)
        coordinator.start()
        unbridge = None
        if args.home_assistant:
            from unox.cli.mqtt_option import start_for_tournament

            unbridge = start_for_tournament(address, coordinator)
        try:
            if not coordinator.link.wait_connected(10):
                print(f"waiting for the broker at {address.host}:{address.port}", file=sys.stderr, flush=True)
            if server is not None:
                _stop_when_replaced(coordinator, server)
                server.run()  # until Ctrl-C; the coordinator works on its own thread meanwhile
            while server is None and not coordinator.over.wait(0.5):
                if coordinator.link.refused is not None:
                    raise CommandError(coordinator.link.refused)
            if server is not None and coordinator.link.refused is not None:
                raise CommandError(coordinator.link.refused)
        except LinkError as exc:
            raise CommandError(str(exc)) from exc
        finally:
            if unbridge is not None:
                unbridge()  # its last states (the winner), then "offline": the entities go unavailable
            coordinator.stop()
        _print_standings(coordinator.standings(), as_json=args.json)
    finally:
        journal.close()
    return 0


def _stop_when_replaced(coordinator: object, server: object) -> None:
    """A page whose coordinator was replaced would show standings nobody keeps any more: it stops too."""
    import threading

    def watch() -> None:
        link = coordinator.link  # type: ignore[attr-defined]
        while link.refused is None:
            if server.server.should_exit:  # type: ignore[attr-defined]
                return
            threading.Event().wait(0.5)
        server.server.should_exit = True  # type: ignore[attr-defined]

    threading.Thread(target=watch, name="unox-standings-watch", daemon=True).start()


def run_serve(args: argparse.Namespace) -> int:
    return run_start(args, page=(args.host, args.port))


def _standings_server(name: str, coordinator: object, page: tuple[str, int]) -> object:
    from unox.web.launch import WebError
    from unox.web.standings import StandingsServer

    try:
        standings = coordinator.standings  # type: ignore[attr-defined]
        return StandingsServer(f"unox tournament {name}", standings, *page)
    except WebError as exc:
        raise CommandError(str(exc)) from exc


def run_status(args: argparse.Namespace) -> int:
    from unox.tournament.journal import JournalError, read_only
    from unox.tournament.schedule import Plan
    from unox.tournament.standings import checked, standings

    if (args.journal is None) == (args.broker is None):
        raise CommandError("give --journal FILE (the coordinator's) or --broker URL")
    if args.broker is not None:
        table = _retained_standings(_address(args.broker))
    else:
        try:
            stored, results = read_only(args.journal)
        except JournalError as exc:
            raise CommandError(str(exc)) from exc
        if stored is None:
            raise CommandError(f"{args.journal} holds no tournament yet")
        plan = Plan.from_json(stored)
        table = standings(plan, [checked(plan, r) for r in results])
    _print_standings(table, as_json=args.json)
    return 0


def _retained_standings(address: BrokerAddress) -> dict:
    import threading

    from unox.tournament import topics
    from unox.tournament.link import Link, LinkError

    got: dict = {}
    arrived = threading.Event()

    def on(topic: str, payload: object) -> None:
        if isinstance(payload, dict):
            got.update(payload)
            arrived.set()

    link = Link(address, "", {topics.standings(address.name): on}, persistent=False).start()
    try:
        if not link.wait_connected(10):
            raise CommandError(f"no broker answered at {address.host}:{address.port}; is mosquitto running?")
        if not arrived.wait(5):
            raise CommandError(f"the broker has no standings for {address.name!r}: "
                               "is its coordinator started?")
    except LinkError as exc:
        raise CommandError(str(exc)) from exc
    finally:
        link.stop()
    return got


def _print_standings(table: dict, *, as_json: bool) -> None:
    from unox.tournament.standings import table_text

    print(json.dumps(table, sort_keys=True) if as_json else table_text(table), flush=True)


def run_demo(args: argparse.Namespace) -> int:
    """Bots play the demo tournament (`unox.tournament.demo`); the standings are printed here."""
    from unox.tournament.demo import TABLES, run_demo
    from unox.tournament.join import TournamentError

    seed = args.seed  # 0 to SEED_MAX, checked by argparse (default 0)
    for url in args.broker or ():
        _address(url)

    def report(standings: dict) -> None:
        _print_standings(standings, as_json=args.json)
        if not args.json:
            print(f"{standings['hands_per_player']} hands per player: {standings['results']} hands in all at "
                  f"{TABLES} tables, each result counted once", flush=True)

    try:
        run_demo(args.broker, args.bots, seed, _say, report)
    except TournamentError as exc:
        raise CommandError(str(exc)) from exc
    return 0


def _say(text: str) -> None:
    print(text, flush=True)
