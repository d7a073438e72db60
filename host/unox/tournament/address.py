"""`mqtt://[USER:PASS@]HOST[:PORT]/NAME`: where the broker is, who we are on it, and the tournament's name."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

DEFAULT_PORT = 1883
PASSWORD_VARIABLE = "UNOX_MQTT_PASSWORD"  # the password of a URL that gives a user and none
NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")  # a topic level: no '/', '+', '#' or spaces


class AddressError(ValueError):
    """A broker URL that cannot be used; the message says how to write it."""


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int = DEFAULT_PORT
    username: str | None = None
    password: str | None = None
    name: str = ""  # the tournament's name (empty for --mqtt, which needs none)

    def url(self, *, secret: bool = False) -> str:
        """The URL again; the password shown as *** unless `secret`."""
        auth = ""
        if self.username is not None:
            auth = self.username + (f":{self.password if secret else '***'}" if self.password else "") + "@"
        return f"mqtt://{auth}{self.host}:{self.port}/{self.name}"

    def with_user(self, username: str, password: str) -> BrokerAddress:
        return BrokerAddress(self.host, self.port, username, password, self.name)


def parse(text: str, *, option: str = "--tournament", need_name: bool = True) -> BrokerAddress:
    """The address in `text`, or an AddressError naming `option` and the form to use."""
    form = "mqtt://[USER:PASS@]HOST[:PORT]/NAME" if need_name else "mqtt://[USER:PASS@]HOST[:PORT]/"
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise AddressError(f"{option} {text!r}: {exc}; write it as {form}") from None
    if parts.scheme != "mqtt" or not parts.hostname:
        raise AddressError(f"{option} {text!r} is not a broker address; write it as {form}")
    name = parts.path.strip("/")
    if need_name and not NAME.match(name):
        raise AddressError(
            f"{option} {text!r} needs the tournament's name after the host: letters, digits, - or _ "
            f"(up to 40), e.g. mqtt://{parts.hostname}/club-night"
        )
    if not need_name and name:
        raise AddressError(f"{option} {text!r} takes no path; write it as {form}")
    username = unquote(parts.username) if parts.username is not None else None
    password = unquote(parts.password) if parts.password is not None else None
    if username is not None and password is None:
        password = os.environ.get(PASSWORD_VARIABLE)  # keeps the password out of `ps` and shell history
    return BrokerAddress(parts.hostname, port or DEFAULT_PORT, username, password, name)
