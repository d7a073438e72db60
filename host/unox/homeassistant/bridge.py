"""The link to Home Assistant: discovery and "online" on every connect, a last will of "offline", and each
entity's state published (retained) when it changes, looked at every `interval` seconds."""

from __future__ import annotations

import threading
from collections.abc import Callable

from unox.homeassistant.discovery import (
    ENTITIES,
    OFFLINE,
    ONLINE,
    Entity,
    announcements,
    availability_topic,
    state_topic,
)
from unox.tournament.address import BrokerAddress
from unox.tournament.link import Handler, Link

INTERVAL_S = 1.0


class HomeAssistantBridge:
    """Publishes `snapshot()` (object id -> state text) for the device `node`."""

    def __init__(self, address: BrokerAddress, node: str, snapshot: Callable[[], dict[str, str]],
                 interval: float = INTERVAL_S, entities: tuple[Entity, ...] = ENTITIES,
                 subscriptions: dict[str, Handler] | None = None):
        """`subscriptions`: what the snapshot also reads from the broker (a tournament table: standings)."""
        self.node, self.snapshot, self.interval, self.entities = node, snapshot, interval, entities
        self._sent: dict[str, str] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.link = Link(address, f"{node}-ha", dict(subscriptions or {}),
                         will=(availability_topic(node), OFFLINE), on_connect=self._announce,
                         persistent=False)
        self._thread = threading.Thread(target=self._watch, name="unox-home-assistant", daemon=True)

    def start(self) -> HomeAssistantBridge:
        self.link.start()
        self._thread.start()
        return self

    def _announce(self) -> None:
        for topic, payload in announcements(self.node, self.entities):
            self.link.publish(topic, payload, retain=True)
        with self._lock:
            self._sent = {}  # the broker may have lost them: send every state again
        self.publish_changes()
        self.link.publish_text(availability_topic(self.node), ONLINE, retain=True)

    def publish_changes(self) -> None:
        try:
            now = self.snapshot()
        except Exception:  # a table closing under us: the next look will tell
            return
        with self._lock:
            for object_id, value in now.items():
                if self._sent.get(object_id) != value:
                    self.link.publish_text(state_topic(self.node, object_id), value, retain=True)
                    self._sent[object_id] = value

    def _watch(self) -> None:
        while not self._stop.wait(self.interval):
            if self.link.connected.is_set():
                self.publish_changes()

    def stop(self) -> None:
        """A clean stop sends the last states and says "offline" itself (a crash leaves it to the will)."""
        self._stop.set()
        self._thread.join(timeout=5)
        if self.link.connected.is_set():
            self.publish_changes()  # what happened since the last look: a night's final tally
            self.link.publish_text(availability_topic(self.node), OFFLINE, retain=True)
        self.link.stop()
