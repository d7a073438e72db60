"""`--mqtt mqtt://[USER:PASS@]HOST[:PORT]/` on `unox serve`, `unox play` and `unox press`: the launcher in
Home Assistant by MQTT discovery (docs/install.md). One option, one helper per kind of command."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from unox.cli.errors import CommandError

Stop = Callable[[], None]


def add_mqtt_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mqtt", metavar="URL",
                        help="announce the launcher to Home Assistant through this broker: "
                        "mqtt://USER:PASS@HOST[:PORT]/ (docs/install.md)")


def checked_address(args: argparse.Namespace) -> Any:
    """`--mqtt`'s broker, checked before anything is opened (None without the option)."""
    if getattr(args, "mqtt", None) is None:
        return None
    from unox.tournament.address import AddressError, parse

    try:
        return parse(args.mqtt, option="--mqtt", need_name=False)
    except AddressError as exc:
        raise CommandError(str(exc)) from exc


CONNECT_S = 5.0  # then an absent broker is said on screen, and the bridge goes on trying


def start_bridge(address: Any, snapshot: Callable[[], dict[str, str]], *, wait: float = CONNECT_S,
                 say: Callable[[str], None] | None = None, entities: tuple[Any, ...] = (),
                 subscriptions: dict[str, Any] | None = None) -> Stop:
    """The bridge to Home Assistant, started (it connects in the background); a refused login is one line,
    a broker that does not answer is said (never silent) and retried."""
    import sys

    from unox.homeassistant.bridge import HomeAssistantBridge
    from unox.homeassistant.discovery import node_id
    from unox.tournament.link import LinkError

    tell = say or (lambda text: print(text, file=sys.stderr, flush=True))
    from unox.homeassistant.discovery import ENTITIES

    bridge = HomeAssistantBridge(address, node_id(), snapshot, entities=(*ENTITIES, *entities),
                                 subscriptions=subscriptions).start()
    try:
        if not bridge.link.wait_connected(wait):
            tell(f"Home Assistant: no broker answered at {address.host}:{address.port} within {wait:g} s; "
                 "unox goes on without it and keeps trying (is mosquitto running there?)")
    except LinkError as exc:
        bridge.stop()
        raise CommandError(str(exc)) from exc
    return bridge.stop


def start_for_tournament(address: Any, coordinator: Any) -> Stop:
    """The tournament as a Home Assistant device of its own, through the coordinator's broker and user:
    round, hands in, leader (everyone's points as attributes) and winner; unavailable when it stops."""
    from unox.homeassistant.bridge import HomeAssistantBridge
    from unox.homeassistant.discovery import TOURNAMENT_ENTITIES, tournament_node
    from unox.homeassistant.snapshots import tournament_snapshot

    bridge = HomeAssistantBridge(address, tournament_node(address.name),
                                 lambda: tournament_snapshot(*coordinator.progress()), interval=0.5,
                                 entities=TOURNAMENT_ENTITIES).start()
    return bridge.stop
