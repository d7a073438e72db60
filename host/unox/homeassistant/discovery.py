"""Home Assistant's MQTT discovery messages for one launcher: a device with seven entities.

Each entity is announced, retained, on `homeassistant/<component>/<node_id>/<object_id>/config`, with a
`unique_id`, a `state_topic`, the device it belongs to and the availability topic whose "offline" (our MQTT
last will) makes it unavailable when the host stops (HA's documented discovery schema; tests check the
fields against it).
"""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass
from typing import Any

from unox import __version__
from unox.launcher.base import FAULTS

PREFIX = "homeassistant"  # HA's default discovery prefix
ONLINE, OFFLINE = "online", "offline"
ON, OFF = "ON", "OFF"  # binary sensors' default payload_on / payload_off
NO_FAULT, OTHER_FAULT = "none", "other"
# Last fault is an enum sensor: HA offers exactly these states in automations and history
FAULT_STATES = (NO_FAULT, *FAULTS, "abort", OTHER_FAULT)
DIAGNOSTIC = ("entity_category", "diagnostic")  # shown under the device's diagnostics, not its controls


@dataclass(frozen=True)
class Entity:
    object_id: str
    component: str  # sensor or binary_sensor
    name: str
    extra: tuple[tuple[str, Any], ...] = ()


ENTITIES = (
    Entity("cards_left", "sensor", "Cards left (estimate)",
           (("unit_of_measurement", "cards"), ("state_class", "measurement"), ("icon", "mdi:cards"))),
    Entity("link", "binary_sensor", "Link", (("device_class", "connectivity"), DIAGNOSTIC)),
    Entity("last_fault", "sensor", "Last fault", (("icon", "mdi:alert-circle-outline"),
                                                  ("device_class", "enum"), ("options", list(FAULT_STATES)),
                                                  DIAGNOSTIC)),
    Entity("lid", "binary_sensor", "Lid", (("device_class", "opening"),)),
    Entity("presses", "sensor", "Presses tonight", (("unit_of_measurement", "presses"),
                                                    ("state_class", "total_increasing"),
                                                    ("icon", "mdi:gesture-tap"))),
    Entity("cards_fired", "sensor", "Cards fired tonight", (("unit_of_measurement", "cards"),
                                                            ("state_class", "total_increasing"),
                                                            ("icon", "mdi:cards-outline"))),
    Entity("turn", "sensor", "Whose turn", (("icon", "mdi:account-arrow-right"),)),
    # issue 24: the battery the firmware reports, and the night's hands and scores
    Entity("battery", "sensor", "Battery", (("device_class", "voltage"), ("unit_of_measurement", "mV"),
                                            ("state_class", "measurement"))),
    Entity("battery_low", "binary_sensor", "Battery low", (("device_class", "battery"),)),
    Entity("hand", "sensor", "Hand", (("icon", "mdi:cards-playing-outline"),
                                      ("json_attributes_topic", "ATTRIBUTES"))),
    Entity("winner", "sensor", "Winner", (("icon", "mdi:trophy"),)),
)


def node_id(host: str | None = None) -> str:
    """`unox_<hostname>`: one device per launcher (each launcher has its own Pi)."""
    name = re.sub(r"[^a-zA-Z0-9_-]", "_", (host or socket.gethostname()).split(".")[0])
    return f"unox_{name}"[:64]


def state_topic(node: str, object_id: str) -> str:
    return f"unox/{node}/{object_id}"


def availability_topic(node: str) -> str:
    return f"unox/{node}/availability"


def config_topic(node: str, entity: Entity) -> str:
    return f"{PREFIX}/{entity.component}/{node}/{entity.object_id}/config"


# A tournament is a device of its own, announced by its coordinator (`tournament start --home-assistant`):
# the open round, the leader with every player's points (and points with each partner) as attributes, the
# winner once every hand is in.
TOURNAMENT_ENTITIES = (
    Entity("round", "sensor", "Round", (("icon", "mdi:numeric"),)),
    Entity("hands", "sensor", "Hands in", (("unit_of_measurement", "hands"), ("state_class", "measurement"),
                                            ("icon", "mdi:cards-playing-outline"))),
    Entity("standings", "sensor", "Leader", (("icon", "mdi:podium"),
                                             ("json_attributes_topic", "ATTRIBUTES"))),
    Entity("winner", "sensor", "Winner", (("icon", "mdi:trophy"),)),
)


# A tournament table with `--mqtt` shows the tournament on its launcher's device too (a club may run Home
# Assistant on a table and nowhere else): the round open now (this table's), the leader with everyone's points
# as attributes, and the winner once every hand is in, from the coordinator's retained standings.
TABLE_TOURNAMENT_ENTITIES = (
    Entity("tournament_round", "sensor", "Tournament round", (("icon", "mdi:numeric"),)),
    Entity("tournament_leader", "sensor", "Tournament leader", (("icon", "mdi:podium"),
                                                                 ("json_attributes_topic", "ATTRIBUTES"))),
    Entity("tournament_winner", "sensor", "Tournament winner", (("icon", "mdi:trophy"),)),
)


def tournament_node(name: str) -> str:
    """`unox_tournament_<name>`: one device per tournament name (the club's, every week)."""
    return f"unox_tournament_{re.sub(r'[^a-zA-Z0-9_-]', '_', name)}"[:64]


def config_payload(node: str, entity: Entity) -> dict[str, Any]:
    tournament = node.startswith("unox_tournament_")
    payload: dict[str, Any] = {
        "name": entity.name,
        "unique_id": f"{node}_{entity.object_id}",
        "state_topic": state_topic(node, entity.object_id),
        "availability_topic": availability_topic(node),
        "payload_available": ONLINE,
        "payload_not_available": OFFLINE,
        "device": {
            "identifiers": [node],
            "name": (f"UNO tournament ({node.removeprefix('unox_tournament_')})" if tournament else
                     f"UNO launcher ({node.removeprefix('unox_')})"),
            "manufacturer": "unox",
            "model": "UNO tournament" if tournament else "UNO Extreme card launcher",
            "sw_version": __version__,
        },
        **dict(entity.extra),
    }
    if payload.get("json_attributes_topic") == "ATTRIBUTES":
        payload["json_attributes_topic"] = state_topic(node, f"{entity.object_id}_attributes")
    if entity.component == "binary_sensor":
        payload.update(payload_on=ON, payload_off=OFF)
    return payload


def announcements(node: str, entities: tuple[Entity, ...] = ENTITIES) -> list[tuple[str, dict[str, Any]]]:
    """(config topic, payload) for every entity."""
    return [(config_topic(node, entity), config_payload(node, entity)) for entity in entities]
