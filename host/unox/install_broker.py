"""The club's MQTT broker (mosquitto): a config that refuses anonymous clients and one user per client.

As mosquitto's documentation recommends, clients log in with a user and password from a password file
made by its own `mosquitto_passwd`: one user for the coordinator, one per table, one for Home Assistant.
An existing user keeps its password (a table already set up goes on working); a new user gets a random
one, printed once.
"""

from __future__ import annotations

import re
import secrets
import shutil
import subprocess
from pathlib import Path

from unox.install import InstallError

BROKER_CONF_PATH = Path("etc/mosquitto/conf.d/unox.conf")
BROKER_PASSWORDS_PATH = Path("etc/mosquitto/unox.passwd")
BROKER_ACL_PATH = Path("etc/mosquitto/unox.acl")
MQTT_PORT = 1883
MAX_TABLES = 20
_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")


def broker_users(tables: int) -> list[str]:
    if not 1 <= tables <= MAX_TABLES:
        raise InstallError(f"--tables {tables} is out of range; give 1 to {MAX_TABLES}")
    return ["coordinator", *[f"table{n}" for n in range(1, tables + 1)], "homeassistant"]


def broker_config(passwords: Path, acl: Path) -> str:
    """mosquitto.conf lines for conf.d: every interface (the tables are other machines), no anonymous, and
    the ACL that says who may publish what."""
    return (
        "# unox tournament and Home Assistant broker (docs/tournament.md); written by unox install broker\n"
        f"listener {MQTT_PORT}\n"
        "allow_anonymous false\n"
        "set_tcp_nodelay true\n"
        f"password_file {passwords}\n"
        f"acl_file {acl}\n"
    )


def broker_acl() -> str:
    """Who may publish what: each table only its own table's topics, the coordinator only the schedule,
    round, standings and receipts, Home Assistant only its birth message; everyone reads."""
    from unox.tournament.broker import acl_text

    return acl_text()


def existing_users(path: Path) -> set[str]:
    if not path.exists():
        return set()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        return {line.split(":", 1)[0] for line in lines if ":" in line}
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc.strerror or exc}; run it with sudo") from exc


def add_users(path: Path, users: list[str]) -> dict[str, str]:
    """Users missing from the password file, added with new random passwords; returns {user: password}."""
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise InstallError("mosquitto_passwd is missing; install mosquitto: sudo apt install -y mosquitto")
    have = existing_users(path)
    added = {}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.touch(mode=0o640)
        for user in users:
            if user in have:
                continue
            password = secrets.token_urlsafe(12)
            subprocess.run([tool, "-b", str(path), user, password], check=True, capture_output=True)
            added[user] = password
    except PermissionError as exc:
        raise InstallError(f"cannot write {path}: permission denied; run it with sudo") from exc
    except subprocess.CalledProcessError as exc:
        why = exc.stderr.decode(errors="replace")[:200]
        raise InstallError(f"mosquitto_passwd failed on {path}: {why}") from exc
    _share_with_mosquitto(path)
    return added


def _share_with_mosquitto(path: Path) -> None:
    """Readable by the broker (group mosquitto) and nobody else, when that group exists."""
    import grp
    import os

    try:
        group = grp.getgrnam("mosquitto").gr_gid
        if os.geteuid() == 0:
            os.chown(path, 0, group)
        os.chmod(path, 0o640)
    except (KeyError, PermissionError):
        os.chmod(path, 0o600)


def client_urls(added: dict[str, str], host: str, name: str) -> list[str]:
    """What each new user gives unox: the coordinator's --broker, the tables' --tournament, HA's login."""
    if not _NAME.fullmatch(name):
        raise InstallError(f"--name {name!r}: letters, digits, - or _ (up to 40), e.g. --name club")
    urls = []
    for user, password in added.items():
        if user == "homeassistant":
            urls.append(f"Home Assistant (MQTT integration): host {host}, port {MQTT_PORT}, user {user}, "
                        f"password {password}")
        else:
            urls.append(f"{user}: mqtt://{user}:{password}@{host}/{name}")
    return urls


def broker_next_steps() -> list[str]:
    return [
        "sudo systemctl restart mosquitto",
        "systemctl status mosquitto",
        "unox tournament status --broker mqtt://coordinator:PASSWORD@localhost/NAME   # with a coordinator",
    ]
