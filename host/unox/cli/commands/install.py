"""`unox install service|udev|broker`: print (or with --write, install) the Pi's systemd unit, udev rule and
the tournament's MQTT broker config.

The file text goes to stdout, so `unox install udev > 99-unox.rules` works; what to run next goes to
stderr, as comments.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from unox import install
from unox.cli.errors import CommandError
from unox.cli.numbers import float_in, int_in

MAX_BROKER_TABLES = 20  # unox.install_broker.MAX_TABLES (not imported: fast help; tests/cli checks)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "install",
        help="print or write the Raspberry Pi's systemd unit, udev rule and tournament broker config",
        description="Start unox at boot (service), give the Pico a stable name (udev), set up mosquitto "
        "for a tournament and Home Assistant (broker), and take a launcher out of Home Assistant "
        "(homeassistant --remove).",
    )
    sub = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    service = sub.add_parser(
        "service",
        help=f"systemd unit that runs `unox press` or `unox play` at boot (/{install.SERVICE_PATH})",
        epilog="example: sudo ~/unox/bin/unox install service --mode press --write",
    )
    service.add_argument("--mode", choices=install.MODES, default="press", help="what runs at boot")
    service.add_argument("--launcher", default=install.DEFAULT_LAUNCHER, help="default: %(default)s")
    service.add_argument("--user", help="user the service runs as (default: the one who ran sudo)")
    service.add_argument("--players", help="for --mode play: the seats, e.g. Ann,Bob,Cy")
    service.add_argument("--config", help="config file for unox (default: ~/.config/unox/config.toml)")
    service.add_argument("--web", metavar="PIN", dest="web_pin",
                         help="for --mode play: also serve the table to phones on port 8765, joined with PIN")
    service.add_argument("--unox", help="absolute path of the unox command (default: this installation's)")
    service.add_argument("--min-gap", type=float_in(0, 10, "seconds"), metavar="SECONDS",
                         help="--mode press: anti-mash gap between presses (default: the config's, else off)")
    service.add_argument("--suspense", type=float_in(0, 10, "seconds"), metavar="SECONDS",
                         help="--mode press: longest random wait before the motor (default: the config's, "
                         "else off)")
    _add_write_options(service)
    service.set_defaults(func=run_service)

    udev = sub.add_parser(
        "udev",
        help=f"udev rule naming the Pico /dev/{install.DEVICE_NAME} (/{install.UDEV_PATH})",
        epilog="example: sudo ~/unox/bin/unox install udev --write",
    )
    udev.add_argument("--serial", help="match only the Pico with this USB serial number (for several Picos; "
                      "it is the board id `unox firmware version` prints)")
    udev.add_argument("--per-board", action="store_true",
                      help=f"name each Pico /dev/{install.DEVICE_NAME}-SERIAL instead (several launchers)")
    _add_write_options(udev)
    udev.set_defaults(func=run_udev)

    broker = sub.add_parser(
        "broker",
        help="mosquitto for a tournament and Home Assistant: no anonymous clients, one user per table "
        "(/etc/mosquitto/conf.d/unox.conf)",
        epilog="example: sudo ~/unox/bin/unox install broker --tables 2 --write",
    )
    broker.add_argument("--tables", type=int_in(1, MAX_BROKER_TABLES), default=2,
                        help=f"one user per table, 1 to {MAX_BROKER_TABLES} (default 2)")
    broker.add_argument("--host", default=None, help="the broker's name in the printed addresses "
                        "(default: this machine's name + .local)")
    broker.add_argument("--name", default="club", help="the tournament's name in the printed addresses")
    broker.add_argument("--acl", action="store_true", help="print the ACL (who may publish what) instead of "
                        "the config; --write writes both")
    _add_write_options(broker)
    broker.set_defaults(func=run_broker)

    home = sub.add_parser(
        "homeassistant",
        help="take this launcher out of Home Assistant: clear its retained discovery configs on the broker",
        epilog="example: unox install homeassistant --remove --mqtt mqtt://table1:PASS@homeassistant.local/",
    )
    home.add_argument("--remove", action="store_true", help="clear the device's retained configs and states")
    home.add_argument("--mqtt", metavar="URL", help="the broker Home Assistant uses: mqtt://USER:PASS@HOST[:PORT]/")
    home.add_argument("--node", help="the device to remove (default: this machine's, unox_HOSTNAME)")
    home.set_defaults(func=run_homeassistant)


def _add_write_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--write", action="store_true", help="write the file instead of printing it")
    parser.add_argument("--root", default="/", help="install under this directory instead of / (default: /)")
    parser.add_argument("--force", action="store_true", help="replace a different file (kept as .bak)")


def run_service(args: argparse.Namespace) -> int:
    if args.players is not None and args.mode == "play":  # the service's `unox play` would refuse them
        from unox.cli.table_options import check_names
        from unox.table.settings import SettingsError, parse_players

        try:
            check_names(parse_players(args.players))
        except SettingsError as exc:
            raise CommandError(str(exc)) from exc
    try:
        user = install.check_user(args.user or install.default_user())
        text = install.service_unit(
            args.mode, args.launcher, user=user, unox=args.unox, players=args.players, config=args.config,
            min_gap=args.min_gap, suspense=args.suspense,
            web_pin=args.web_pin,
        )
        return _emit(args, text, install.SERVICE_PATH, install.service_next_steps(install.SERVICE_PATH, user))
    except install.InstallError as exc:
        raise CommandError(str(exc)) from exc


def run_udev(args: argparse.Namespace) -> int:
    try:
        text = install.udev_rule(args.serial, per_board=args.per_board)
        return _emit(args, text, install.UDEV_PATH, install.udev_next_steps(args.per_board))
    except install.InstallError as exc:
        raise CommandError(str(exc)) from exc


def run_broker(args: argparse.Namespace) -> int:
    import socket

    from unox import install_broker as broker

    try:
        users = broker.broker_users(args.tables)
        passwords = install.target(args.root, broker.BROKER_PASSWORDS_PATH)
        acl_path = Path("/") / broker.BROKER_ACL_PATH
        text = broker.broker_config(Path("/") / broker.BROKER_PASSWORDS_PATH, acl_path)
        acl = broker.broker_acl()
        if not args.write and args.acl:
            return _emit(args, acl, broker.BROKER_ACL_PATH, broker.broker_next_steps())
        if not args.write:
            return _emit(args, text, broker.BROKER_CONF_PATH, [
                f"mosquitto_passwd -b /{broker.BROKER_PASSWORDS_PATH} USER PASSWORD   # {', '.join(users)}",
                f"unox install broker --acl > {acl_path}   # who may publish what",
                *broker.broker_next_steps()])
        host = args.host or f"{socket.gethostname()}.local"
        broker.client_urls({}, host, args.name)  # the name is checked before anything is written
        state = install.write_file(install.target(args.root, broker.BROKER_ACL_PATH), acl, force=args.force)
        print(f"{state} {install.target(args.root, broker.BROKER_ACL_PATH)}")
        _emit(args, text, broker.BROKER_CONF_PATH, broker.broker_next_steps())
        added = broker.add_users(passwords, users)
    except install.InstallError as exc:
        raise CommandError(str(exc)) from exc
    kept = [user for user in users if user not in added]
    if kept:
        print(f"kept the passwords of {', '.join(kept)} in {passwords}")
    if added:
        print(f"new users in {passwords} (write these down: they are shown once):")
        for line in broker.client_urls(added, host, args.name):
            print(f"  {line}")
    return 0


def run_homeassistant(args: argparse.Namespace) -> int:
    """Empty retained messages on every config, state and availability topic of the device: Home Assistant
    removes a discovered entity whose config is emptied, and nothing of it stays on the broker."""
    import re

    from unox.homeassistant.discovery import (
        ENTITIES,
        TABLE_TOURNAMENT_ENTITIES,
        TOURNAMENT_ENTITIES,
        availability_topic,
        config_topic,
        node_id,
        state_topic,
    )
    from unox.tournament.address import AddressError, parse
    from unox.tournament.link import Link, LinkError

    if not args.remove:
        raise CommandError("give --remove to take this launcher out of Home Assistant (unox serve, play and "
                           "press with --mqtt announce it again)")
    if args.mqtt is None:
        raise CommandError("give the broker with --mqtt mqtt://USER:PASS@HOST[:PORT]/ (the one --mqtt used)")
    try:
        address = parse(args.mqtt, option="--mqtt", need_name=False)
    except AddressError as exc:
        raise CommandError(str(exc)) from exc
    node = args.node or node_id()
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", node):
        raise CommandError(f"--node {node!r}: letters, digits, - or _ (the device id, e.g. unox_unox-pi)")
    # a launcher's device (a tournament table's included), or a tournament's own (`--home-assistant`)
    entities = (TOURNAMENT_ENTITIES if node.startswith("unox_tournament_")
                else (*ENTITIES, *TABLE_TOURNAMENT_ENTITIES))
    topics = [*(config_topic(node, entity) for entity in entities),
              *(state_topic(node, entity.object_id) for entity in entities), availability_topic(node),
              *(state_topic(node, f"{entity.object_id}_attributes") for entity in entities
                if "json_attributes_topic" in dict(entity.extra))]
    link = Link(address, "", {}, persistent=False).start()
    try:
        if not link.wait_connected(10):
            where = f"{address.host}:{address.port}"
            raise CommandError(f"no broker answered at {where} within 10 s; is mosquitto running there? "
                               "Nothing was removed")
        sent = [link.publish_text(topic, "", retain=True) for topic in topics]
        for info in sent:
            info.wait_for_publish(10)
    except LinkError as exc:
        raise CommandError(str(exc)) from exc
    finally:
        link.stop()
    print(f"removed {node} from Home Assistant: cleared {len(entities)} entity configs and their states on "
          f"{address.host}:{address.port}")
    return 0


def _emit(args: argparse.Namespace, text: str, relative: Path, steps: list[str]) -> int:
    if not args.write:
        sys.stdout.write(text)
        print(f"# to install: add --write (as root), or save this as /{relative}; then run:", file=sys.stderr)
        for step in steps:
            print(f"#   {step}", file=sys.stderr)
        return 0
    path = install.target(args.root, relative)
    state = install.write_file(path, text, force=args.force)
    print(f"{state} {path}")
    print("next, run:")
    for step in steps:
        print(f"  {step}")
    return 0
