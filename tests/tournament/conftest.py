"""A private mosquitto per test: a free loopback port, its own config, password file and persistence."""

from __future__ import annotations

import pytest
from unox.tournament.broker import PrivateBroker

USERS = ["coordinator", "table1", "table2", "table3", "ha"]


@pytest.fixture
def broker(tmp_path):
    """Authentication on (`allow_anonymous false`, users made with `mosquitto_passwd -b`); stopped after."""
    private = PrivateBroker.with_users(tmp_path / "broker", USERS)
    private.start()
    yield private
    private.stop()
