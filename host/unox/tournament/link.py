"""One MQTT connection as unox uses it: paho-mqtt 2.x, QoS 1, a persistent session under a fixed client id.

The broker then keeps what was sent to us while we were away (`clean_session=False` and QoS 1 on both the
subscription and the publish), and paho reconnects by itself when the broker comes back.
A refused login is final: `wait_connected` raises it as a LinkError instead of retrying for ever.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from unox.tournament.address import BrokerAddress

QOS = 1
KEEPALIVE = 15  # seconds: a dead peer is noticed within 1.5 keepalives
RECONNECT = (0.01, 0.1)  # paho's reconnect back-off, in seconds: a restarted broker is back in ~50 ms

Handler = Callable[[str, Any], None]


class LinkError(RuntimeError):
    """The broker refused us or cannot be reached; the message says what to check."""


class Link:
    """Subscriptions made on every (re)connect, JSON payloads, callbacks on paho's network thread."""

    def __init__(
        self,
        address: BrokerAddress,
        client_id: str,
        subscriptions: dict[str, Handler],
        *,
        will: tuple[str, str] | None = None,
        on_connect: Callable[[], None] | None = None,
        persistent: bool = True,
        clean_first: bool = False,
        states: tuple[str, ...] = (),
        presence: tuple[str, str] | None = None,
        on_replaced: Callable[[str], None] | None = None,
        presence_gone: dict[str, Any] | None = None,
    ):
        import paho.mqtt.client as mqtt

        self.address = address
        self.subscriptions = dict(subscriptions)
        # (topic, what we are): a newcomer under our client id takes our place, and we stop, saying so
        self.presence = presence
        self._on_replaced = on_replaced  # told, on paho's thread, the line that says we were replaced
        self._token = secrets.token_hex(8)
        self._started = time.time()  # the newer of two processes in one place keeps it
        self._claimed = False  # our own presence came back: from now on another's means we were replaced
        # with `presence_gone` (fields said in our presence, e.g. the tournament id) our presence says we
        # are alive, and a clean stop or the broker's will (a crash, a lost network) says we are gone, so
        # a newcomer can tell a running holder of the place from one that ended
        self._presence_extra = presence_gone
        self._settled: dict[int, threading.Event] = {}
        self._settling = threading.Lock()
        if presence is not None:
            self.subscriptions[presence[0]] = self._on_presence
        self.states = states  # topics that carry a state: a repeat of the last payload is not news
        self._last: dict[str, bytes] = {}
        self.connected = threading.Event()
        self.refused: str | None = None
        self.connects = 0
        self._after_connect = on_connect
        self._pending: list[Any] = []  # MQTTMessageInfo of publishes the broker has not taken yet
        self.persistent = persistent
        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                                   clean_session=clean_first or not persistent, protocol=mqtt.MQTTv311)
        if address.username is not None:
            self._client.username_pw_set(address.username, address.password)
        if will is not None:
            self._client.will_set(will[0], will[1], qos=QOS, retain=True)
        elif presence is not None and presence_gone is not None:
            self._client.will_set(presence[0], json.dumps(self._presence(gone=True), sort_keys=True), qos=QOS,
                                  retain=True)
        self._client.reconnect_delay_set(*RECONNECT)
        self._client.on_socket_open = _no_delay
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_subscribe = self._on_subscribe
        self._client.on_message = self._on_message

    def start(self) -> Link:
        """Connect in the background (paho's thread retries until the broker answers)."""
        self._client.connect_async(self.address.host, self.address.port, keepalive=KEEPALIVE)
        self._client.loop_start()
        return self

    def wait_connected(self, timeout: float) -> bool:
        """True once connected; False after `timeout`; a LinkError if the broker refused the login."""
        deadline = time.monotonic() + timeout
        while not self.connected.wait(min(0.05, max(deadline - time.monotonic(), 0))):
            if self.refused is not None:
                raise LinkError(self.refused)
            if time.monotonic() >= deadline:
                return False
        return True

    def publish(self, topic: str, payload: Any, *, retain: bool = False) -> Any:
        """QoS 1; while the broker is away paho queues it and sends it on reconnect. Returns paho's
        MQTTMessageInfo (`wait_for_publish`)."""
        return self.publish_text(topic, json.dumps(payload, sort_keys=True), retain=retain)

    def publish_text(self, topic: str, text: str, *, retain: bool = False) -> Any:
        info = self._client.publish(topic, text, qos=QOS, retain=retain)
        self._pending = [i for i in self._pending if not _published(i)] + [info]
        return info

    def stop(self, flush: float = 5.0) -> None:
        """Disconnect once the broker has what we published (up to `flush` seconds), so a last receipt
        is not lost with the process."""
        deadline = time.monotonic() + flush
        if (self.presence is not None and self._presence_extra is not None and self._claimed
                and self.refused is None and self.connected.is_set()):
            # ended cleanly: the place is free (a replaced process says nothing: the place is another's)
            self.publish_text(self.presence[0], json.dumps(self._presence(gone=True), sort_keys=True),
                              retain=True)
        for info in self._pending:
            left = deadline - time.monotonic()
            if left <= 0 or not self.connected.is_set():
                break
            try:
                info.wait_for_publish(left)
            except (RuntimeError, ValueError):
                break  # paho: the message was dropped or the client is not connected
        self._client.disconnect()
        self._client.loop_stop()

    def settle(self, topic: str, timeout: float) -> bool:
        """Once connected: True when every retained message of our subscriptions has reached us.

        The broker sends a subscription's retained messages before it answers the next SUBSCRIBE on the
        same connection, so the answer to one more (`topic`, one nobody publishes) comes after them: a
        missing retained message is then known to be missing, without a guess of how long to wait."""
        done = threading.Event()
        with self._settling:  # its answer waits in _on_subscribe until the mid is known here
            result, mid = self._client.subscribe(topic, QOS)
            if result != 0:
                return False
            self._settled[mid] = done
        return done.wait(timeout)

    def abandon(self) -> None:
        """Stop the network thread without a DISCONNECT: the broker sends our will, as after a crash."""
        self._client.loop_stop()
        sock = self._client.socket()
        if sock is not None:
            sock.close()

    # -- paho's callbacks (its network thread) ----------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if self.refused is not None:
            client.disconnect()  # replaced: never take the place back (that would be a ping-pong)
            return
        if reason.is_failure:
            self.refused = (f"the broker at {self.address.host}:{self.address.port} refused "
                            f"{self.address.username or 'an anonymous client'}: {reason}; check the user and "
                            "password in the mqtt:// address (docs/tournament.md)")
            client.disconnect()
            return
        if self.subscriptions:
            client.subscribe([(topic, QOS) for topic in self.subscriptions])
        else:
            self._ready()

    def _on_subscribe(self, client: Any, userdata: Any, mid: Any, reasons: Any, properties: Any) -> None:
        with self._settling:
            settled = self._settled.pop(mid, None)
        if settled is not None:
            settled.set()
            return
        self._ready()  # connected counts from here: what is published to us from now on reaches us

    def _ready(self) -> None:
        if self.persistent:
            # a new tournament's first connection is a clean session (nothing queued for an abandoned one);
            # from then on the broker keeps what is sent to us while we are away (paho reads this flag on
            # every reconnect; MQTT 3.1.1 gives no other way to change it)
            self._client._clean_session = False
        if self.presence is not None and not self._claimed:
            self._claim()
        self.connects += 1
        try:
            if self._after_connect is not None:
                self._after_connect()
        finally:
            # connected once what on_connect publishes is queued (and so flushed by `stop`): a short command
            # that stopped at once after wait_connected cut Home Assistant's discovery in the middle
            self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        handler = self._handler_for(message.topic)
        if handler is None:
            return
        if any(_matches(pattern, message.topic) for pattern in self.states):
            # retained states come again on every resubscribe, and the coordinator republishes them on
            # every reconnect: an unchanged one is dropped before parsing (a schedule is ~150 KB of JSON)
            if self._last.get(message.topic) == message.payload:
                return
            self._last[message.topic] = bytes(message.payload)
        try:
            payload = json.loads(message.payload) if message.payload else None
        except ValueError:
            return  # not ours to read: a stray publisher's bytes are ignored, never a crash
        handler(message.topic, payload)

    def _presence(self, *, gone: bool = False) -> dict[str, Any]:
        mine = {"token": self._token, "pid": os.getpid(), "host": socket.gethostname(),
                "started": self._started}
        if self._presence_extra is not None:
            mine.update(self._presence_extra, alive=not gone)
        return mine

    def _claim(self) -> None:
        assert self.presence is not None
        self._client.publish(self.presence[0], json.dumps(self._presence(), sort_keys=True), qos=QOS,
                             retain=True)

    def _on_presence(self, topic: str, payload: Any) -> None:
        """Ours back: claimed. Another's after that: a second process took our client id (or our place).

        An older process's (it started before us) never replaces us: it is one we replaced, reconnecting
        before it heard of us and saying it again (we say ours again, so it hears), or a dead one's retained
        message. A newer one's replaces us even before our own came back."""
        if not isinstance(payload, dict) or self.presence is None:
            return
        started = payload.get("started")
        older = isinstance(started, (int, float)) and (started, str(payload.get("token"))) < (
            self._started, self._token)
        newer = isinstance(started, (int, float)) and not older
        if payload.get("token") == self._token:
            self._claimed = True
        elif older:
            if self._claimed and self.refused is None:
                self._claim()
        elif (self._claimed or newer) and self.refused is None:
            where = f"pid {payload.get('pid')} on {str(payload.get('host'))[:60]}"
            self.refused = (f"{self.presence[1]} was replaced by another process ({where}); this one stops. "
                            "Run one process per table and one coordinator")
            self.connected.clear()
            self._client.disconnect()
            if self._on_replaced is not None:
                self._on_replaced(self.refused)

    def _handler_for(self, topic: str) -> Handler | None:
        for pattern, handler in self.subscriptions.items():
            if _matches(pattern, topic):
                return handler
        return None


def _no_delay(client: Any, userdata: Any, sock: Any) -> None:
    """Nagle off: a PUBLISH held back until the last PUBACK's delayed ACK costs 40 ms on loopback, and a
    result and its receipt are exactly such small back-to-back packets (neither paho nor mosquitto turns
    it off by default)."""
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (AttributeError, OSError):
        pass  # not a TCP socket (a websocket or TLS wrapper keeps its own)


def _published(info: Any) -> bool:
    """paho's is_published, which raises for a publish made while disconnected (paho resends it itself)."""
    try:
        return bool(info.is_published())
    except (RuntimeError, ValueError):
        return False


def _matches(pattern: str, topic: str) -> bool:
    """MQTT wildcards: `+` one level, `#` the rest."""
    want, got = pattern.split("/"), topic.split("/")
    for i, level in enumerate(want):
        if level == "#":
            return True
        if i >= len(got) or (level != "+" and level != got[i]):
            return False
    return len(want) == len(got)
