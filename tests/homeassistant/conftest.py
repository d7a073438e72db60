"""A private mosquitto per test: a free loopback port, its own config, password file and persistence."""

from __future__ import annotations

import pytest
from unox.tournament.broker import PrivateBroker

# the club's ACL (unox install broker's) applies; the tests of the broker itself publish under test/ only
TEST_TOPICS = ("", "pattern readwrite test/#")
USERS = ["coordinator", "table1", "table2", "table3", "homeassistant"]


@pytest.fixture
def broker(tmp_path):
    """Authentication on (`allow_anonymous false`, users made with `mosquitto_passwd -b`) and the club's ACL
    (who may publish what); stopped after."""
    private = PrivateBroker.with_users(tmp_path / "broker", USERS, acl=TEST_TOPICS)
    private.start()
    yield private
    private.stop()
