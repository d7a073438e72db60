"""Issue 21: every option works in every command that offers it, or is refused in one line before anything
is written. For each of `play`, `serve`, `table`, `press`, `demo` and each pair of `--mqtt`, `--web`,
`--tournament`, `--journal`, `--continue`, `--resume`, `--launcher`, `--rules`, `--variant`, the real parser
and the one assembly (`unox.cli.assemble`) either refuse the pair (argparse, or one `CommandError` line) with
the folders exactly as they were and no broker session, or open the night with every attachment really
there: the journal where it was asked, the launcher, the edition and variant, a phone that joins getting the
table's state (`/api/state` and the WebSocket's hello; `demo --web` run whole, its bots' moves pushed),
Home Assistant seeing the table online (a real mosquitto), the tournament seat connected.
"""

from __future__ import annotations

import argparse
import importlib
import io
import itertools
import sys
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from unox.cli.errors import CommandError
from unox.homeassistant.discovery import availability_topic, node_id, state_topic
from unox.table.journal import Journal
from unox.table.runtime import Table
from unox.table.settings import TableSettings

WAIT = 30.0
OPTIONS = ("mqtt", "web", "tournament", "journal", "continue", "resume", "launcher", "rules", "variant")
OFFERS = {
    "play": set(OPTIONS),
    "serve": set(OPTIONS) - {"web"},  # serve is the phones: --web is not one of its options
    "table": {"tournament", "journal", "resume", "launcher", "rules", "variant"},
    "press": {"mqtt", "launcher"},
    "demo": {"web", "rules", "variant"},
}
# The pairs refused whatever the command (docs/architecture.md, "Every option in every command").
REFUSED = [{"continue", "journal"}, {"continue", "resume"}, {"resume", "journal"}, {"resume", "rules"},
           {"resume", "variant"}, {"tournament", "continue"}, {"tournament", "resume"},
           {"tournament", "rules"}, {"tournament", "variant"}]
WEB = ["--host", "127.0.0.1", "--port", "0", "--pin", "", "--operator-pin", ""]


def expected_refused(command: str, pair: set[str]) -> bool:
    if not pair <= OFFERS[command]:
        return True
    return pair in REFUSED or (command == "play" and pair == {"tournament", "web"})


class Watcher:
    """Home Assistant's side of the broker: each availability message counted, the states kept."""

    def __init__(self, broker):
        self.node = node_id()
        self.values: dict[str, str] = {}
        self.online = 0
        self.changed = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="matrix-ha")
        self.client.username_pw_set("homeassistant", broker.users["homeassistant"])
        self.client.on_connect = lambda c, *a: c.subscribe(f"unox/{self.node}/#", qos=1)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()

    def _on_message(self, client, userdata, message):
        with self.changed:
            text = message.payload.decode()
            self.values[message.topic] = text
            if message.topic == availability_topic(self.node) and text == "online":
                self.online += 1
            self.changed.notify_all()

    def wait(self, check, what: str) -> None:
        deadline = time.monotonic() + WAIT
        with self.changed:
            while not check():
                left = deadline - time.monotonic()
                assert left > 0, f"Home Assistant never saw {what}: {self.values}"
                self.changed.wait(left)

    def state(self, object_id: str) -> str | None:
        return self.values.get(state_topic(self.node, object_id))

    def stop(self):
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def world(broker, tmp_path, monkeypatch):
    announce_a_tournament(broker, "club")
    watcher = Watcher(broker)
    yield broker, watcher
    watcher.stop()


def announce_a_tournament(broker, name: str) -> None:
    """A table joins the tournament open under its name (issue 24): its schedule, retained, as the
    coordinator publishes it."""
    from unox.tournament import topics
    from unox.tournament.address import parse as parse_url
    from unox.tournament.link import Link
    from unox.tournament.schedule import Plan

    link = Link(parse_url(broker.url("coordinator", name)), "", {}, persistent=False).start()
    try:
        assert link.wait_connected(WAIT)
        plan = Plan(("Ann", "Bob", "Cy", "Dee"))
        link.publish(topics.schedule(name), plan.to_json(), retain=True).wait_for_publish(WAIT)
    finally:
        link.stop()


def parse(command: str, argv: list[str]) -> argparse.Namespace:
    """The command's real parser (`register`), as `unox COMMAND ...` builds it."""
    parser = argparse.ArgumentParser(prog="unox")
    module = importlib.import_module(f"unox.cli.commands.{command}")
    module.register(parser.add_subparsers(dest="command"))
    return parser.parse_args([command, *argv])


def argv_for(command: str, pair: set[str], folder: Path, broker) -> list[str]:
    seats = "tournament" not in pair and "resume" not in pair
    argv = {"play": ["--plain"], "serve": list(WEB), "table": [], "press": ["--presses", "1", "--seed", "1"],
            "demo": ["--players", "2"] + ([] if "web" in pair else ["--plain"])}[command]  # --plain: no --web
    if seats and command in ("play", "serve", "table"):
        argv += ["--players", "Ann,Bob"]
    if command == "press" and "launcher" not in pair:
        argv += ["--launcher", "sim"]
    values = {
        "mqtt": ["--mqtt", f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/"],
        "web": ["--web"] if command == "serve" else ["--web", *WEB],
        "tournament": ["--tournament", broker.url("table1", "club"), "--table", "1"],
        "journal": ["--journal", str(folder / "asked.db")],
        "continue": ["--continue", str(folder / "going.db")],
        "resume": ["--resume", str(folder / "kept.db")],
        "launcher": ["--launcher", "sim" if command == "press" else "script"],
        "rules": ["--rules", "classic"],
        "variant": ["--variant", "two-player"],
    }
    for option in sorted(pair):
        argv += values[option]
    return argv


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def kept_journal(path: Path) -> None:
    """A journal a table was started on and left (seats taken, nothing played): what --resume opens."""
    settings = TableSettings(players=("Ann", "Bob"), launcher="script", seed=1)
    Table.create(settings, journal=Journal(path)).close()


def works(command: str, pair: set[str], args: argparse.Namespace, folder: Path, watcher: Watcher,
          capsys) -> None:
    """Open the night as the command does and check that every attachment asked for is really there."""
    from unox.cli.assemble import attach, check, open_night

    if command == "press":
        from unox.cli.main import main

        assert main(["press", *sys_argv_of(args)]) == 0
        watcher.wait(lambda: watcher.state("presses") == "1", "the press mode's one press")
        return
    setup = check(command, args)
    try:
        if "tournament" in pair:
            return seat_joins(setup, pair, args, folder, watcher)
        if command == "table":
            return protocol_answers(args, pair, folder, capsys)
        if command == "demo":
            return demo_opens(setup, pair, args)
        night = open_night(setup)
        try:
            attach(setup, night)
            table = night.table
            journal = getattr(table, "journal", None)
            asked = {"journal": "asked.db", "continue": "going.db", "resume": "kept.db"}
            given = [name for option, name in asked.items() if option in pair]
            if given:
                assert journal is not None and Path(journal.path).name == given[0]
            else:  # journalled by default where `unox play --list` finds it
                assert journal is not None and "tables" in Path(journal.path).parts
            if "launcher" in pair:
                assert type(night.launcher).__name__ == "ScriptLauncher"
            if "rules" in pair:
                assert table.game.rules.name == "classic"
            if "variant" in pair:
                assert table.settings.variant == "two-player"
            if "mqtt" in pair:
                turn = str(night.state.get("turn") or "nobody")
                watcher.wait(lambda: watcher.values.get(availability_topic(watcher.node)) == "online"
                             and watcher.state("turn") == turn, "the table online")
            if setup.web is not None:
                phones_see(setup, night, args, command)
        finally:
            setup.close()
            night.close()
    finally:
        setup.close()


def sys_argv_of(args: argparse.Namespace) -> list[str]:
    return args._argv  # set by the caller: the press mode runs whole, as `unox press` does


def phones_see(setup, night, args, command: str) -> None:
    from unox.web.client import WebClient
    from unox.web.launch import WebServer

    gate, setup.gate = setup.gate, None
    if command == "play":
        from unox.cli.web_option import start_beside

        stop = start_beside(night, args, gate=gate)
        url = night.log[-1].split("open ")[1].split(" ")[0]
    else:
        server = WebServer(night.table, setup.web, gate=gate)
        server.thread = threading.Thread(target=server.run, daemon=True)
        server.thread.start()
        stop, url = server.stop, server.url
    try:
        client = WebClient(url)  # the socket listens from the gate on: the join waits in its backlog
        client.join(None, "table")
        assert client.state()["state"] == night.table.state()
        phone = client.socket()  # and the page's WebSocket: the hello carries the table's state
        try:
            assert phone.receive_until("hello")["state"] == night.table.state()
        finally:
            phone.close()
    finally:
        stop()


def seat_joins(setup, pair, args, folder: Path, watcher: Watcher) -> None:
    from types import SimpleNamespace

    from unox.cli.tournament_option import _bridged, joined_seat

    night = SimpleNamespace(table=None, close=lambda: None)  # a round's night before its first deal
    opened, bridge = _bridged(setup, lambda *a: night)
    with joined_seat(args, setup.command, accepted=bridge) as (seat, path):  # as `unox play --tournament`
        assert seat.link.wait_connected(WAIT)
        if "journal" in pair:
            assert path == folder / "asked.db" and path.exists()
        # Home Assistant's bridge starts once the first round's table opened (its launcher accepted)
        assert opened(1, folder / "round1.db", ["Ann", "Bob", "Cy", "Dee"], "extreme") is night
    if "mqtt" in pair:
        watcher.wait(lambda: watcher.values.get(availability_topic(watcher.node)) == "online"
                     and watcher.state("turn") == "nobody", "the tournament table online before its round")


def protocol_answers(args, pair, folder: Path, capsys) -> None:
    import json

    from unox.cli.commands.table import run

    stdin = io.TextIOWrapper(io.BytesIO(b'{"cmd":"state"}\n'))
    real = sys.stdin
    sys.stdin = stdin
    try:
        assert run(args) == 0
    finally:
        sys.stdin = real
    reply = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert reply["ok"] and reply["state"]["players"] == ["Ann", "Bob"]
    if "journal" in pair:
        assert (folder / "asked.db").exists()
    if "rules" in pair:
        assert reply["state"].get("rules") == "classic"


def demo_opens(setup, pair, args) -> None:
    """`unox demo`'s preset: the bots' night from the one assembly, with the edition asked for."""
    from unox.cli.assemble import open_night

    session = open_night(setup)
    try:
        assert setup.autoplay is not None and setup.autoplay()  # the bots' driver makes a move
        if "rules" in pair:
            assert session.table.game.rules.name == "classic"
        if "variant" in pair:
            assert session.table.game.variant == "two-player"
        if "web" in pair:
            assert setup.gate is not None and setup.web.read_only  # the phones' socket, bound by `check`
    finally:
        setup.close()
        session.close()
    if "web" in pair:
        phones_watch_the_demo(pair, args)


def phones_watch_the_demo(pair, args) -> None:
    """`unox demo --web` as it runs (it serves until Ctrl-C): a phone joins the table view, gets the bots'
    table in the WebSocket's hello, and the bots' moves pushed as they play; Ctrl-C ends it with 0."""
    import os
    import re
    import signal
    import subprocess

    from unox.web.client import WebClient

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "unox", "demo", *args._argv], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        said = []
        for line in proc.stdout:  # the announcement comes once the socket listens
            said.append(line)
            found = re.search(r"open (http://\S+) on each phone", line)
            if found:
                break
        else:
            raise AssertionError("unox demo --web served nothing:\n" + "".join(said))
        phone = WebClient(found.group(1).rstrip("/"))
        phone.join(None, "table")
        welcome = phone.state()
        assert welcome["read_only"] and welcome["state"]["players"] == ["Ada", "Ben"], welcome
        if "rules" in pair:
            assert welcome["state"]["rules"] == "classic"
        socket = phone.socket()
        try:
            hello = socket.receive_until("hello")
            assert hello["state"]["players"] == ["Ada", "Ben"]
            moved = socket.receive_until("state")  # a bot's move, pushed to the phone
            assert moved["state"] != hello["state"]
        finally:
            socket.close()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=WAIT)
        proc.stdout.close()


@pytest.mark.parametrize("command", sorted(OFFERS))
def test_every_pair_of_options_works_or_is_refused_before_anything_is_written(command, world, tmp_path,
                                                                            monkeypatch, capsys):
    broker, watcher = world
    outcomes = {}
    for a, b in itertools.combinations(OPTIONS, 2):
        pair = {a, b}
        folder = tmp_path / f"{command}-{a}-{b}"
        folder.mkdir()
        monkeypatch.setenv("XDG_STATE_HOME", str(folder / "state"))
        kept_journal(folder / "kept.db")
        argv = argv_for(command, pair, folder, broker)
        before, online = files(folder), watcher.online
        try:
            args = parse(command, argv)
            args._argv = argv
            works(command, pair, args, folder, watcher, capsys)
            outcomes[(a, b)] = "works"
        except SystemExit as exc:  # argparse: an option this command does not offer
            assert exc.code == 2, (a, b)
            outcomes[(a, b)] = "refused"
        except CommandError as exc:
            assert "\n" not in str(exc), (a, b, str(exc))
            outcomes[(a, b)] = "refused"
        if outcomes[(a, b)] == "refused":
            assert files(folder) == before, (a, b)  # nothing written, nothing removed
            assert watcher.online == online, (a, b)  # and no broker session was opened
        capsys.readouterr()
    expected = {(a, b): "refused" if expected_refused(command, {a, b}) else "works"
                for a, b in itertools.combinations(OPTIONS, 2)}
    assert outcomes == expected
