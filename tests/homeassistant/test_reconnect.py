"""Issue 24: `--mqtt` with the broker down says so on the screen and keeps trying; once the broker comes up,
the launcher's entities appear in Home Assistant without a restart of unox. A real mosquitto, started late
on the port the bridge was given; every wait is on an event, bounded."""

from __future__ import annotations

from unox.cli.mqtt_option import start_bridge
from unox.homeassistant.discovery import ENTITIES
from unox.homeassistant.snapshots import idle_snapshot
from unox.tournament.address import parse
from unox.tournament.broker import PrivateBroker, free_port

from .conftest import TEST_TOPICS, USERS
from .test_discovery import HomeAssistant


def test_a_broker_that_comes_up_later_gets_the_entities_without_a_restart(tmp_path):
    import secrets

    port = free_port()  # nothing listens there yet
    passwords = {user: secrets.token_urlsafe(12) for user in USERS}
    broker = PrivateBroker(tmp_path / "broker", passwords, port=port, acl=TEST_TOPICS)
    said: list[str] = []
    stop = start_bridge(parse(broker.url("table1"), need_name=False), idle_snapshot, wait=0.3,
                        say=said.append)
    ha = None
    try:
        assert said == [f"Home Assistant: no broker answered at 127.0.0.1:{port} within 0.3 s; unox goes on "
                        "without it and keeps trying (is mosquitto running there?)"]
        broker.start()  # the club's broker comes up after the launcher
        ha = HomeAssistant(broker)
        ha.wait(lambda: len(ha.configs) == len(ENTITIES)
                and all(ha.state(e.object_id) is not None for e in ENTITIES)
                and all(ha.available(e.object_id) == "online" for e in ENTITIES), "every entity appear")
        assert ha.state("presses") == "0" and ha.state("link") == "OFF" and ha.state("last_fault") == "none"
        assert len(said) == 1  # said once, never again once it connected
        stop()
        stop = None
        ha.wait(lambda: all(ha.available(e.object_id) == "offline" for e in ENTITIES), "the entities go away")
    finally:
        if stop is not None:
            stop()
        if ha is not None:
            ha.stop()
        broker.stop()
