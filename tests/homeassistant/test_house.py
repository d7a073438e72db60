"""Issue 21: `--mqtt` in every mode that offers it. A tournament table (`unox play --tournament`, `unox serve
--tournament`) shows its table in Home Assistant; a refused start opens no broker session and writes no file.
A client subscribed as HA is (`HomeAssistant`, test_discovery) watches a real mosquitto with logins on."""

from __future__ import annotations

import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time

import paho.mqtt.client as mqtt
from unox.homeassistant.discovery import ENTITIES, TABLE_TOURNAMENT_ENTITIES
from unox.tournament.address import parse
from unox.tournament.broker import free_port
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.schedule import Plan
from unox.web.client import WebClient

from .test_discovery import WAIT, HomeAssistant

UNOX = [sys.executable, "-m", "unox"]
PLAYERS = ("Ann", "Bob", "Cy", "Dee")  # C-V2: one table, three rounds


def nothing_retained_under(broker, prefix: str) -> list[str]:
    """The retained topics under `prefix`: subscribe, then a sentinel published after the subscription
    comes back behind every retained message the broker had (one connection, in order)."""
    seen: list[str] = []
    arrived = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="house-check")
    client.username_pw_set("homeassistant", broker.users["homeassistant"])

    def on_subscribe(c, *args):
        c.publish("test/house-check/sentinel", "done", qos=1)

    def on_message(c, userdata, message):
        if message.topic == "test/house-check/sentinel":
            arrived.set()
        else:
            seen.append(message.topic)

    client.on_connect = lambda c, *a: c.subscribe([(prefix + "#", 1), ("test/house-check/sentinel", 1)])
    client.on_subscribe = on_subscribe
    client.on_message = on_message
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        assert arrived.wait(WAIT), "the broker never echoed the sentinel"
    finally:
        client.loop_stop()
        client.disconnect()
    return seen


def test_unox_play_with_a_tournament_shows_the_rounds_table_in_home_assistant(broker, tmp_path):
    """Before issue 21 the tournament path returned before the bridge started: HA saw nothing at all."""
    ha = HomeAssistant(broker)
    mqtt_url = f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/"
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", "club")), journal, Plan(PLAYERS),
                                  say=lambda text: None).start()
        try:
            done = subprocess.run(
                [*UNOX, "play", "--plain", "--tournament", broker.url("table1", "club"), "--table", "1",
                 "--launcher", "script", "--journal", str(tmp_path / "table1.db"), "--mqtt", mqtt_url],
                input="deal Ann\nflip\nflip G7\n", capture_output=True, text=True, timeout=WAIT * 2,
                env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")},
            )
        finally:
            coordinator.stop()
    try:
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr
        assert "round 1, table 1: Ann Bob Cy Dee" in done.stdout
        ha.wait(lambda: len(ha.configs) == len(ENTITIES) + len(TABLE_TOURNAMENT_ENTITIES), "every entity")
        # the round's table as it was left: Ann dealt and the first card turned, so it is Bob's turn
        ha.wait(lambda: ha.state("turn") == "Bob", "Bob's turn at the round's table")
        assert ha.state("cards_left") not in (None, "none")
        ha.wait(lambda: ha.available("turn") == "offline", "offline once the command ended")
    finally:
        ha.stop()


def read_until(process: subprocess.Popen, needle: str) -> None:
    """Read `process`'s stdout up to the first line holding `needle` (it must print it within WAIT)."""
    deadline, seen = time.monotonic() + WAIT, []
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while selector.select(max(deadline - time.monotonic(), 0)):
            line = process.stdout.readline()
            seen.append(line)
            if not line or needle in line:
                break
    assert seen and needle in seen[-1], "".join(seen)[-2000:]


def test_unox_serve_with_a_tournament_shows_the_rounds_table_in_home_assistant(broker, tmp_path):
    ha = HomeAssistant(broker)
    mqtt_url = f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/"
    port = free_port()
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", "club")), journal, Plan(PLAYERS),
                                  say=lambda text: None).start()
        serve = subprocess.Popen(
            [*UNOX, "serve", "--tournament", broker.url("table1", "club"), "--table", "1", "--launcher",
             "script", "--journal", str(tmp_path / "table1.db"), "--host", "127.0.0.1", "--port", str(port),
             "--pin", "", "--operator-pin", "", "--mqtt", mqtt_url],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")},
        )
        try:
            read_until(serve, "open http://127.0.0.1")
            operator = WebClient(f"http://127.0.0.1:{port}")
            operator.join(None, "operator")
            for request in ({"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip", "card": "G7", "fired": 1}):
                status, reply = operator.request(request)
                assert status == 200 and reply["ok"], reply
            ha.wait(lambda: len(ha.configs) == len(ENTITIES) + len(TABLE_TOURNAMENT_ENTITIES)
                    and ha.available("turn") == "online", "the entities online")
            ha.wait(lambda: ha.state("turn") == "Bob", "Bob's turn at the round's table, played on a phone")
        finally:
            serve.send_signal(signal.SIGINT)
            serve.communicate(timeout=WAIT)
            coordinator.stop()
            ha.stop()


def test_a_refused_serve_opens_no_broker_session_and_writes_no_file(broker, tmp_path):
    state = tmp_path / "state"
    mqtt_url = f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/"
    done = subprocess.run(
        [*UNOX, "serve", "--players", "Ann,Bob", "--launcher", "script", "--pin", "", "--mqtt", mqtt_url],
        capture_output=True, text=True, timeout=WAIT * 2, env={**os.environ, "XDG_STATE_HOME": str(state)},
    )
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "without a PIN" in done.stderr
    assert not state.exists() or not any(p.is_file() for p in state.rglob("*"))
    assert nothing_retained_under(broker, "homeassistant/") == []


def test_the_retained_check_sees_what_a_started_bridge_leaves(broker):
    """The check above is not blind: a bridge that did start leaves its retained discovery configs."""
    from unox.homeassistant.bridge import HomeAssistantBridge
    from unox.homeassistant.snapshots import idle_snapshot

    address = parse(f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/", need_name=False)
    bridge = HomeAssistantBridge(address, "unox_housepi", idle_snapshot).start()
    try:
        assert bridge.link.wait_connected(WAIT)
    finally:
        bridge.stop()
    configs = [t for t in nothing_retained_under(broker, "homeassistant/") if t.endswith("/config")]
    assert len(configs) == len(ENTITIES)


def test_a_tournament_serve_on_a_taken_port_is_refused_before_joining(broker, tmp_path):
    """Each round's server used to bind only once the round's journal was made: a taken port left the
    seat's results journal and the round's table behind, and Home Assistant's entities on the broker."""
    state = tmp_path / "state"
    mqtt_url = f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/"
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", "club")), journal, Plan(PLAYERS),
                                  say=lambda text: None).start()
        try:
            with socket.socket() as taken:
                taken.bind(("127.0.0.1", 0))
                taken.listen(1)
                port = str(taken.getsockname()[1])
                done = subprocess.run(
                    [*UNOX, "serve", "--tournament", broker.url("table1", "club"), "--table", "1",
                     "--launcher", "script", "--journal", str(tmp_path / "table1.db"), "--host", "127.0.0.1",
                     "--port", port, "--pin", "", "--operator-pin", "", "--mqtt", mqtt_url],
                    capture_output=True, text=True, timeout=WAIT * 2,
                    env={**os.environ, "XDG_STATE_HOME": str(state)},
                )
        finally:
            coordinator.stop()
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stdout[-2000:] + done.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert sorted(p.name for p in tmp_path.glob("table1*")) == []
    assert not state.exists() or not any(p.is_file() for p in state.rglob("*"))
    assert nothing_retained_under(broker, "homeassistant/") == []


def test_a_refused_login_on_continue_puts_the_finished_game_back(broker, tmp_path):
    """`--continue FILE` with a finished game moves it aside for a new table; the broker then refusing the
    login removed the new FILE but left the old game as FILE.1.done."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    journal = tmp_path / "g.db"
    greens = "\n".join(["G5", *(["G3", "G2", "G4", "G6", "G8", "G9", "G1"] * 2)])  # Bob goes out
    hand = f"deal Ann\nflip G7\n{greens}\nscore Ann=40 Bob=0\n"
    made = subprocess.run([*UNOX, "play", "--plain", "--players", "Ann,Bob", "--launcher", "script",
                           "--target", "10", "--journal", str(journal)], input=hand, capture_output=True,
                          text=True, timeout=WAIT, env=env)
    assert made.returncode == 0 and "Game over" in made.stdout, made.stderr
    before = journal.read_bytes()
    done = subprocess.run([*UNOX, "play", "--plain", "--continue", str(journal), "--players", "Ann,Bob",
                           "--launcher", "script", "--mqtt", f"mqtt://ha:wrong@127.0.0.1:{broker.port}/"],
                          input="", capture_output=True, text=True, timeout=WAIT * 2, env=env)
    assert done.returncode == 1 and "refused ha" in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.glob("g.db*")) == ["g.db"]
    assert journal.read_bytes() == before


def test_a_wrong_tournament_name_with_mqtt_leaves_home_assistant_no_device(broker, tmp_path):
    """Issue 21: with `--mqtt --tournament`, Home Assistant's bridge came online before the tournament's
    name was checked: a table started under a wrong name was refused, but HA had seen its device (retained
    discovery, availability). Now the bridge starts only once the name and table are accepted."""
    from unox.homeassistant.discovery import node_id

    state = tmp_path / "state"
    mqtt_url = f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/"
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", "club")), journal, Plan(PLAYERS),
                                  say=lambda text: None).start()
        try:
            # Both front ends at once: each waits out the seat's name deadline before it refuses, and
            # neither writes anything before that, so side by side they prove what one after the other did.
            serve = ["serve", "--host", "127.0.0.1", "--port", "0", "--pin", "", "--operator-pin", ""]
            started = [
                subprocess.Popen(
                    [*UNOX, *command, "--tournament", broker.url("table1", "clubb"), "--table", "1",
                     "--launcher", "script", "--journal", str(tmp_path / "table1.db"), "--mqtt", mqtt_url],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                    env={**os.environ, "XDG_STATE_HOME": str(state)},
                )
                for command in (["play", "--plain"], serve)
            ]
            try:
                said = [proc.communicate(timeout=WAIT * 2) for proc in started]
            finally:
                for proc in started:
                    proc.kill()
                    proc.wait()
            for proc, (out, err) in zip(started, said, strict=True):
                assert proc.returncode == 1 and err.count("\n") == 1, out[-2000:] + err
                assert "no tournament named 'clubb'" in err, err
        finally:
            coordinator.stop()
    assert sorted(p.name for p in tmp_path.glob("table1*")) == []
    assert not state.exists() or not any(p.is_file() for p in state.rglob("*"))
    assert nothing_retained_under(broker, "homeassistant/") == []  # no discovery config: no device
    assert nothing_retained_under(broker, f"unox/{node_id()}/") == []  # and never online


def test_a_seat_refused_for_another_launcher_board_leaves_home_assistant_nothing(broker, tmp_path):
    """The round's table is bound to its launcher's board; continued with `--mqtt` while another board
    answers, the seat is refused in one line. Before, the bridge had started at the joining, before the
    round's launcher was checked: 14 retained discovery configs and the device's states were left behind."""
    from unox.homeassistant.discovery import node_id

    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    mqtt_url = f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/"
    seat = [*UNOX, "play", "--plain", "--tournament", broker.url("table1", "club"), "--table", "1",
            "--journal", str(tmp_path / "table1.db"), "--launcher"]
    with ResultsJournal(tmp_path / "club.db") as journal:
        coordinator = Coordinator(parse(broker.url("coordinator", "club")), journal, Plan(PLAYERS),
                                  say=lambda text: None).start()
        try:
            first = subprocess.run([*seat, "sim:?seed=5&cards=60&jam=0&double=0&stuck=0"], input="deal Ann\n",
                                   capture_output=True, text=True, timeout=WAIT * 2, env=env)
            assert first.returncode == 0, first.stdout[-2000:] + first.stderr
            kept = (tmp_path / "table1.round1.db").read_bytes()
            other = subprocess.run([*seat, "sim:?seed=6&cards=60&jam=0&double=0&stuck=0", "--mqtt", mqtt_url],
                                   capture_output=True, text=True, timeout=WAIT * 2, env=env,
                                   stdin=subprocess.DEVNULL)
        finally:
            coordinator.stop()
    assert other.returncode == 1 and "bound to launcher board" in other.stderr, other.stdout + other.stderr
    assert (tmp_path / "table1.round1.db").read_bytes() == kept
    assert nothing_retained_under(broker, "homeassistant/") == []  # no discovery config: no device
    assert nothing_retained_under(broker, f"unox/{node_id()}/") == []  # and no state
