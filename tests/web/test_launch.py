"""What `unox serve` prints for people: the address to type (the .local name if Avahi has one), the PIN."""

from __future__ import annotations

import io
import re

import pytest
from unox.web import launch
from unox.web.launch import WebError, WebOptions, announce, choose_pin, public_url


def test_the_url_uses_the_local_name_when_avahi_advertises_it(monkeypatch):
    monkeypatch.setattr(launch.os.path, "exists", lambda path: path in launch.AVAHI_SOCKETS)
    monkeypatch.setattr(launch.socket, "gethostname", lambda: "unox-pi")
    assert public_url("0.0.0.0", 8765) == "http://unox-pi.local:8765/"


def test_without_avahi_the_url_uses_the_lan_address(monkeypatch):
    monkeypatch.setattr(launch.os.path, "exists", lambda path: False)
    monkeypatch.setattr(launch, "lan_address", lambda: "192.168.1.20")
    assert public_url("0.0.0.0", 8765) == "http://192.168.1.20:8765/"
    assert public_url("127.0.0.1", 9000) == "http://127.0.0.1:9000/"
    assert public_url("10.0.0.5", 8765) == "http://10.0.0.5:8765/"


def test_the_default_pins_are_six_random_digits_and_none_needs_loopback():
    pins = {choose_pin(WebOptions()) for _ in range(20)}
    assert all(re.fullmatch(r"\d{6}", pin) for pin in pins) and len(pins) > 1
    operator_pins = {choose_pin(WebOptions(), "--operator-pin") for _ in range(20)}
    assert all(re.fullmatch(r"\d{6}", pin) for pin in operator_pins) and len(operator_pins) > 1
    with pytest.raises(WebError, match="without an operator PIN"):
        choose_pin(WebOptions(host="192.168.1.20", operator_pin=""), "--operator-pin")
    assert choose_pin(WebOptions(host="127.0.0.1", pin="")) is None
    with pytest.raises(WebError, match="without a PIN"):
        choose_pin(WebOptions(host="192.168.1.20", pin=""))


def test_the_announcement_has_the_url_the_pin_and_a_qr_code():
    out = io.StringIO()
    announce("http://unox-pi.local:8765/", "482113", out, "907531")
    lines = out.getvalue().splitlines()
    assert lines[0] == "unox serve: open http://unox-pi.local:8765/ on each phone"
    assert lines[1:3] == ["Operator PIN: 907531", "PIN: 482113"]
    qr = lines[3:]
    assert len(qr) > 10 and all(set(line) <= set("█▀▄ ") for line in qr)
