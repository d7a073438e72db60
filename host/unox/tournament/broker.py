"""A private mosquitto on a free loopback port: for `unox tournament demo`, the tests and the bench.

It is never open: a password file made with `mosquitto_passwd`, `allow_anonymous false`, the club's ACL
(`acl_text`, as `unox install broker` writes it) and a listener on 127.0.0.1 only.
Its config, password file and persistence live in a folder of its own, so a restart
(`restart()`) keeps the sessions and retained messages as a real broker's restart does.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

READY_SECONDS = 10.0  # mosquitto listens within milliseconds; this bounds a broken install
ACL_TABLES = 20  # the ACL names every table a tournament can have (unox.tournament.schedule.MAX_PLAYERS // 4)


class BrokerError(RuntimeError):
    """mosquitto is missing or did not start; the message says what to do."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def acl_text(extra: tuple[str, ...] = ()) -> str:
    """mosquitto's ACL: who may publish what. Every user reads; each writes only its own topics.

    A table's user publishes its own table's results and presence (`result/N`, `presence/tableN`) and its
    launcher's Home Assistant discovery and states (`--mqtt` with that user: `homeassistant/+/+/+/config`,
    `unox/NODE/STATE`, three levels, so never a tournament's topic, which has four or more). The coordinator
    publishes the schedule, the round (and so `over`), the standings, the receipts and its presence. Home
    Assistant's own user publishes only its birth message. Anything else is dropped by the broker: a forged
    result, standings or `over` never reaches anyone. The tables are all named, up to the most a tournament
    has, so adding tables later needs no new ACL.
    """
    from unox.tournament import topics

    any_name = "+"
    lines = [
        "# unox: who may publish what (docs/tournament.md); written by unox install broker",
        "# everyone logged in reads the tournaments, the launchers' states and Home Assistant's discovery",
        f"pattern read {topics.ROOT}/#",
        "pattern read unox/#",
        "pattern read homeassistant/#",
        "",
        "user coordinator",
        *[f"topic write {topic}" for topic in (
            topics.schedule(any_name), topics.current_round(any_name), topics.standings(any_name),
            topics.ack(any_name, "+"), topics.presence(any_name, "coordinator"))],
        "topic write homeassistant/+/+/+/config",  # the tournament's own device (--home-assistant)
        "topic write unox/+/+",
        "",
        "user homeassistant",
        "topic write homeassistant/status",
    ]
    for table in range(1, ACL_TABLES + 1):
        lines += ["", f"user table{table}",
                  f"topic write {topics.result(any_name, table)}",
                  f"topic write {topics.presence(any_name, f'table{table}')}",
                  "topic write homeassistant/+/+/+/config",
                  "topic write unox/+/+"]
    return "\n".join([*lines, *extra]) + "\n"


def config_text(port: int, password_file: Path, data: Path, acl_file: Path | None = None) -> str:
    """A mosquitto.conf that refuses anonymous clients and listens on loopback only."""
    lines = [
        f"listener {port} 127.0.0.1",
        "allow_anonymous false",
        "set_tcp_nodelay true",  # mosquitto Nagles by default: 40 ms on each small reply
        f"password_file {password_file}",
        *([f"acl_file {acl_file}"] if acl_file is not None else []),
        "persistence true",
        f"persistence_location {data}/",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        f"user {pwd.getpwuid(os.getuid()).pw_name}",  # run as root, it would switch to `mosquitto`
    ]
    return "\n".join(lines) + "\n"


def write_passwords(path: Path, users: dict[str, str]) -> None:
    """One line per user, hashed by `mosquitto_passwd -b` (mosquitto's own tool)."""
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise BrokerError("mosquitto_passwd is missing; install it with: sudo apt-get install mosquitto")
    path.touch(mode=0o600)
    for user, password in users.items():
        subprocess.run([tool, "-b", str(path), user, password], check=True, capture_output=True)


class PrivateBroker:
    """mosquitto in `folder` on a free loopback port with the given users: start, restart, stop."""

    def __init__(self, folder: Path, users: dict[str, str] | None = None, port: int | None = None,
                 acl: tuple[str, ...] | None = ()):
        """`acl`: extra ACL lines after the club's (`acl_text`); None for no ACL at all (anyone writes)."""
        self.acl = acl
        self.folder = Path(folder)
        self.users = users or {}
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.config = self.folder / "mosquitto.conf"

    @staticmethod
    def with_users(folder: Path, names: list[str], acl: tuple[str, ...] | None = ()) -> PrivateBroker:
        return PrivateBroker(folder, {name: secrets.token_urlsafe(12) for name in names}, acl=acl)

    def start(self) -> PrivateBroker:
        binary = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists()
                                               else None)
        if binary is None:
            raise BrokerError("mosquitto is not installed; install it with: sudo apt-get install mosquitto")
        data = self.folder / "data"
        data.mkdir(parents=True, exist_ok=True)
        passwords = self.folder / "passwords"
        if not passwords.exists():
            write_passwords(passwords, self.users)
        acl = None
        if self.acl is not None:
            acl = self.folder / "acl"
            acl.write_text(acl_text(self.acl), encoding="utf-8")
        self.config.write_text(config_text(self.port, passwords, data, acl), encoding="utf-8")
        log = open(self.folder / "mosquitto.log", "ab")  # noqa: SIM115 - the child keeps it
        self.process = subprocess.Popen([binary, "-c", str(self.config)], stdout=log, stderr=log,
                                        stdin=subprocess.DEVNULL)
        log.close()
        self._wait_listening()
        return self

    def _wait_listening(self) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise BrokerError(f"mosquitto stopped at once; see {self.folder / 'mosquitto.log'}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.02)  # polling for readiness, bounded by the deadline
        self.stop()
        raise BrokerError(f"mosquitto did not listen on port {self.port} within {READY_SECONDS:g} s")

    def stop(self) -> None:
        """SIGTERM, as a service manager stops it: mosquitto saves its sessions and retained messages."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def url(self, user: str, name: str = "") -> str:
        return f"mqtt://{user}:{self.users[user]}@127.0.0.1:{self.port}/{name}"

    def __enter__(self) -> PrivateBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
