"""Issue 16: the launcher in Home Assistant by MQTT discovery (`--mqtt` on serve, play, press).

The payloads are checked against HA's documented discovery schema (topics and fields of the MQTT sensor and
binary sensor, the device registry's fields); a client subscribed as HA is sees the entities appear, update,
and go unavailable, through a real mosquitto with authentication on.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import paho.mqtt.client as mqtt
from unox.homeassistant.bridge import HomeAssistantBridge
from unox.homeassistant.discovery import ENTITIES, announcements, node_id
from unox.launcher.base import FAULTS
from unox.table.runtime import Table
from unox.table.settings import TableSettings
from unox.tournament.address import parse

UNOX = [sys.executable, "-m", "unox"]
WAIT = 30.0
# HA's MQTT discovery: <discovery_prefix>/<component>/[<node_id>/]<object_id>/config, ids [a-zA-Z0-9_-]
TOPIC = re.compile(r"^homeassistant/(sensor|binary_sensor)/[a-zA-Z0-9_-]+/[a-zA-Z0-9_-]+/config$")
COMMON = {
    "name",
    "unique_id",
    "state_topic",
    "availability_topic",
    "payload_available",
    "payload_not_available",
    "device",
    "device_class",
    "icon",
    "value_template",
    "qos",
    "entity_category",
    "enabled_by_default",
    "expire_after",
    "force_update",
    "json_attributes_topic",
}
DOCUMENTED = {
    "sensor": COMMON | {"unit_of_measurement", "state_class", "suggested_display_precision", "options"},
    "binary_sensor": COMMON | {"payload_on", "payload_off", "off_delay"},
}
DEVICE_FIELDS = {
    "identifiers",
    "connections",
    "name",
    "manufacturer",
    "model",
    "sw_version",
    "hw_version",
    "configuration_url",
    "suggested_area",
    "via_device",
    "serial_number",
}
BINARY_CLASSES = {"connectivity", "opening", "door", "problem", "battery", "lock", "plug", "power", "running"}
STATE_CLASSES = {"measurement", "total", "total_increasing"}


def test_every_discovery_payload_fits_home_assistants_documented_schema():
    node = node_id("unox-pi.local")
    assert node == "unox_unox-pi"
    found = announcements(node)
    assert [t.split("/")[-2] for t, _ in found] == [
        "cards_left",
        "link",
        "last_fault",
        "lid",
        "presses",
        "cards_fired",
        "turn",
        "battery",
        "battery_low",
        "hand",
        "winner",
    ]
    assert len({p["unique_id"] for _, p in found}) == len(found) == len(ENTITIES)
    for topic, payload in found:
        component = TOPIC.match(topic).group(1)
        assert set(payload) <= DOCUMENTED[component], set(payload) - DOCUMENTED[component]
        assert {"name", "unique_id", "state_topic", "availability_topic", "device"} <= set(payload)
        device = payload["device"]
        assert set(device) <= DEVICE_FIELDS and isinstance(device["identifiers"], list) and device["name"]
        assert device["identifiers"] == [node] and device["manufacturer"] == "unox" and device["model"]
        assert (payload["payload_available"], payload["payload_not_available"]) == ("online", "offline")
        if component == "binary_sensor":
            assert payload["device_class"] in BINARY_CLASSES
            assert (payload["payload_on"], payload["payload_off"]) == ("ON", "OFF")
        if "state_class" in payload:
            assert payload["state_class"] in STATE_CLASSES and payload.get("unit_of_measurement")
        assert "/" not in payload["unique_id"] and not payload["state_topic"].startswith("homeassistant/")
    by_id = {topic.split("/")[-2]: payload for topic, payload in found}
    # issue 24: Link and Last fault are diagnostics; Last fault is an enum of every fault the launcher names
    assert by_id["link"]["entity_category"] == by_id["last_fault"]["entity_category"] == "diagnostic"
    fault = by_id["last_fault"]
    assert fault["device_class"] == "enum"
    assert "unit_of_measurement" not in fault and "state_class" not in fault  # HA refuses them on an enum
    assert set(FAULTS) | {"none"} <= set(fault["options"])
    assert all("entity_category" not in p for k, p in by_id.items() if k not in ("link", "last_fault"))


def test_a_fault_the_enum_does_not_know_is_other_never_an_unknown_state():
    from types import SimpleNamespace

    from unox.homeassistant.discovery import FAULT_STATES
    from unox.homeassistant.snapshots import launcher_view

    link = SimpleNamespace(alive=lambda: True)
    for fault, shown in [(None, "none"), ("jam", "jam"), ("battery", "battery"), ("smoke", "other")]:
        launcher = SimpleNamespace(state=SimpleNamespace(lid_open=False, last_fault=fault), link=link)
        assert launcher_view(launcher)["last_fault"] == shown and shown in FAULT_STATES


def test_an_unreachable_broker_is_said_on_screen_never_silent(tmp_path):
    """Issue 24, failure 8: before, `--mqtt` with no broker waited 5 s and then went on silently."""
    from unox.cli.mqtt_option import start_bridge
    from unox.tournament.broker import free_port

    said: list[str] = []
    port = free_port()  # nothing listens there
    stop = start_bridge(parse(f"mqtt://table1:x@127.0.0.1:{port}/", need_name=False), lambda: {},
                        wait=0.3, say=said.append)
    try:
        assert said == [f"Home Assistant: no broker answered at 127.0.0.1:{port} within 0.3 s; unox goes on "
                        "without it and keeps trying (is mosquitto running there?)"]
    finally:
        stop()


class HomeAssistant:
    """Subscribes as HA does: the discovery prefix, then each config's state and availability topics."""

    def __init__(self, broker):
        self.values: dict[str, str] = {}
        self.configs: dict[str, dict] = {}
        self.changed = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="homeassistant-test")
        self.client.username_pw_set("homeassistant", broker.users["homeassistant"])
        self.client.on_connect = lambda c, *a: c.subscribe("homeassistant/#", qos=1)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()

    def _on_message(self, client, userdata, message):
        text = message.payload.decode()
        with self.changed:
            if message.topic.startswith("homeassistant/"):
                config = json.loads(text)
                self.configs[message.topic.split("/")[-2]] = config
                for topic in (config["state_topic"], config["availability_topic"]):
                    client.subscribe(topic, qos=1)
            else:
                self.values[message.topic] = text
            self.changed.notify_all()

    def state(self, object_id: str) -> str | None:
        config = self.configs.get(object_id)
        return None if config is None else self.values.get(config["state_topic"])

    def available(self, object_id: str) -> str | None:
        config = self.configs.get(object_id)
        return None if config is None else self.values.get(config["availability_topic"])

    def wait(self, check, what: str) -> None:
        deadline = time.monotonic() + WAIT
        with self.changed:
            while not check():
                if not self.changed.wait(max(deadline - time.monotonic(), 0)) and time.monotonic() > deadline:
                    raise AssertionError(f"Home Assistant never saw {what}: {self.values}")

    def stop(self):
        self.client.loop_stop()
        self.client.disconnect()


def test_home_assistant_sees_the_entities_appear_update_and_go_unavailable_by_the_last_will(broker):
    table = Table.create(TableSettings(players=("Ann", "Bob", "Cy"), launcher="script", seed=1))
    from unox.homeassistant.snapshots import table_snapshot

    ha = HomeAssistant(broker)
    address = parse(f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/", need_name=False)
    bridge = HomeAssistantBridge(address, "unox_testpi", lambda: table_snapshot(table), interval=0.05).start()
    try:
        ha.wait(lambda: len(ha.configs) == len(ENTITIES) and ha.available("turn") == "online",
                "every entity online")
        ha.wait(lambda: ha.state("turn") == "nobody" and ha.state("link") == "OFF", "the first states")
        assert ha.state("presses") == "0" and ha.state("last_fault") == "none"
        table.handle({"cmd": "deal", "dealer": "Ann"})
        table.handle({"cmd": "flip", "card": "R5"})
        ha.wait(lambda: ha.state("turn") == "Bob", "Bob's turn")
        table.handle({"cmd": "press", "player": "Bob", "fired": 3})
        ha.wait(lambda: ha.state("presses") == "1" and ha.state("cards_fired") == "3", "the press")
        assert int(ha.state("cards_left")) == table.state()["launcher"]["cards"]
        bridge.link.abandon()  # the host dies: no DISCONNECT, so the broker sends the will
        ha.wait(lambda: ha.available("turn") == "offline", "the entities go unavailable")
    finally:
        bridge._stop.set()
        ha.stop()
        table.close()


def test_unox_press_with_mqtt_shows_its_presses_and_says_offline_when_it_stops(broker):
    ha = HomeAssistant(broker)
    url = f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/"
    try:
        done = subprocess.run(
            [*UNOX, "press", "--launcher", "sim", "--presses", "3", "--seed", "2", "--mqtt", url, "--json"],
            capture_output=True,
            text=True,
            timeout=WAIT * 2,
        )
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout.splitlines()[-1])["summary"]
        # Each entity's state topic is subscribed when its config arrives, so states land one by one: wait
        # for the whole set rather than the first.
        want = {"presses": "3", "cards_fired": str(summary["cards_fired"]), "turn": "nobody", "link": "ON"}
        want["lid"] = "OFF"
        ha.wait(lambda: all(ha.state(k) == v for k, v in want.items()), str(want))
        ha.wait(lambda: ha.available("presses") == "offline", "offline after the command ended")
    finally:
        ha.stop()


def test_unox_serve_killed_goes_unavailable_by_the_last_will(broker, tmp_path):
    ha = HomeAssistant(broker)
    url = f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/"
    serve = subprocess.Popen(
        [
            *UNOX,
            "serve",
            "--players",
            "Ann,Bob,Cy",
            "--launcher",
            "script",
            "--no-journal",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--pin",
            "",
            "--mqtt",
            url,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path)},
    )
    try:
        ha.wait(lambda: ha.available("turn") == "online" and ha.state("turn") == "nobody", "serve online")
        os.kill(serve.pid, signal.SIGKILL)
        serve.wait(WAIT)
        ha.wait(lambda: ha.available("turn") == "offline", "serve's entities unavailable")
    finally:
        if serve.poll() is None:
            serve.kill()
        ha.stop()


def test_a_wrong_mqtt_password_is_one_clear_line(broker):
    url = f"mqtt://table1:wrong@127.0.0.1:{broker.port}/"
    done = subprocess.run(
        [*UNOX, "press", "--launcher", "sim", "--presses", "1", "--mqtt", url],
        capture_output=True,
        text=True,
        timeout=WAIT * 2,
    )
    assert done.returncode == 1 and "refused table1" in done.stderr and "Traceback" not in done.stderr


def test_the_battery_the_firmware_reports_and_the_nights_hands_and_scores_are_entities():
    from types import SimpleNamespace

    from unox.homeassistant.snapshots import idle_snapshot, launcher_view, table_snapshot

    link = SimpleNamespace(alive=lambda: True)
    state = SimpleNamespace(lid_open=False, last_fault=None, battery_mv=None, battery_low=False)
    launcher = SimpleNamespace(state=state, link=link)
    assert (launcher_view(launcher)["battery"], launcher_view(launcher)["battery_low"]) == ("None", "OFF")
    state.battery_mv, state.battery_low = 3512, True  # a BATTERY report: 3512 mV, low
    assert (launcher_view(launcher)["battery"], launcher_view(launcher)["battery_low"]) == ("3512", "ON")
    table = Table.create(TableSettings(players=("Ann", "Bob"), launcher="script", seed=3))
    try:
        seen = table_snapshot(table)
        now = table.state()
    finally:
        table.close()
    attributes = json.loads(seen["hand_attributes"])
    assert seen["hand"] == str(now.get("hand") or 0) and seen["winner"] == "nobody"
    assert attributes == {"cards_held": now.get("hands") or {}, "scores": now.get("scores") or {}}
    assert set(idle_snapshot()) == set(seen)  # a tournament table between rounds publishes the same entities
