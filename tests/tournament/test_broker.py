"""The private broker the tests, the demo and the bench use: authentication on, loopback only."""

from __future__ import annotations

import socket
import threading

import pytest
from unox.tournament.address import AddressError, parse
from unox.tournament.link import Link, LinkError


def _link(url: str, client_id: str, subscriptions=None) -> Link:
    return Link(parse(url), client_id, subscriptions or {}).start()


def test_the_broker_refuses_a_client_with_a_wrong_password(broker):
    good = broker.url("table1", "club")
    bad = good.replace(broker.users["table1"], "not-the-password")
    link = _link(bad, "wrong-password")
    try:
        with pytest.raises(LinkError, match="refused table1.*check the user and password"):
            link.wait_connected(10)
        assert not link.connected.is_set()
    finally:
        link.stop()


def test_the_broker_refuses_an_anonymous_client(broker):
    link = _link(f"mqtt://127.0.0.1:{broker.port}/club", "anonymous")
    try:
        with pytest.raises(LinkError, match="refused an anonymous client"):
            link.wait_connected(10)
    finally:
        link.stop()


def test_the_config_listens_on_loopback_only_and_refuses_anonymous(broker):
    text = broker.config.read_text()
    assert f"listener {broker.port} 127.0.0.1" in text and "allow_anonymous false" in text
    lines = (broker.folder / "passwords").read_text().splitlines()
    assert {line.split(":")[0] for line in lines} == set(broker.users)
    assert all(broker.users[line.split(":")[0]] not in line for line in lines)  # hashed, not plain


def test_nagle_is_off_at_both_ends_so_a_receipt_does_not_wait_for_a_delayed_ack(broker):
    """A result and its receipt are small back-to-back packets: with Nagle on, each waits ~40 ms for the
    peer's delayed ACK (bench/tournament.py: median 50 ms with it, 5 ms without)."""
    assert "set_tcp_nodelay true" in broker.config.read_text().splitlines()
    link = _link(broker.url("table1", "club"), "nodelay")
    try:
        assert link.wait_connected(10)
        assert link._client.socket().getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        link.stop()


def test_a_repeated_state_is_dropped_unparsed_but_a_repeated_result_is_delivered(broker):
    """The schedule (~150 KB for 80 players) comes again on every resubscribe and every coordinator
    reconnect; a table need not parse it again. A result sent twice must reach the coordinator twice, so
    that the table gets its receipt again."""
    seen: list[tuple[str, object]] = []
    done = threading.Event()

    def on(topic, payload):
        seen.append((topic, payload))
        if payload == {"end": True}:
            done.set()

    states = ("test/club/state",)
    reader = Link(parse(broker.url("table1", "club")), "reader", {"test/club/#": on}, states=states).start()
    sender = _link(broker.url("table2", "club"), "sender")
    try:
        assert reader.wait_connected(10) and sender.wait_connected(10)
        for topic, payload in [("test/club/state", {"round": 1}), ("test/club/state", {"round": 1}),
                               ("test/club/result", {"hand": 1}), ("test/club/result", {"hand": 1}),
                               ("test/club/state", {"round": 2}), ("test/club/state", {"round": 1}),
                               ("test/club/end", {"end": True})]:
            sender.publish(topic, payload).wait_for_publish(10)
        assert done.wait(10)
        assert seen == [
            ("test/club/state", {"round": 1}),
            ("test/club/result", {"hand": 1}),
            ("test/club/result", {"hand": 1}),
            ("test/club/state", {"round": 2}),
            ("test/club/state", {"round": 1}),
            ("test/club/end", {"end": True}),
        ]
    finally:
        reader.stop()
        sender.stop()


def test_a_message_queued_for_an_offline_persistent_client_arrives_when_it_returns(broker):
    """QoS 1 + fixed client id + clean_session False: the broker keeps it while the client is away."""
    got = threading.Event()
    seen = []

    def on(topic, payload):
        seen.append(payload)
        got.set()

    first = _link(broker.url("table1", "club"), "fixed-id", {"test/t": on})
    assert first.wait_connected(10)
    first.stop()
    sender = _link(broker.url("table2", "club"), "sender")
    assert sender.wait_connected(10)
    sender.publish("test/t", {"n": 1}).wait_for_publish(10)
    sender.stop()
    again = _link(broker.url("table1", "club"), "fixed-id", {"test/t": on})
    try:
        assert got.wait(10) and seen == [{"n": 1}]
    finally:
        again.stop()


@pytest.mark.parametrize(
    "text, message",
    [
        ("http://host/club", "not a broker address"),
        ("mqtt://host/", "needs the tournament's name"),
        ("mqtt://host/a/b", "needs the tournament's name"),
        ("mqtt://host:99999/club", "out of range"),
    ],
)
def test_a_bad_tournament_address_is_one_clear_error(text, message):
    with pytest.raises(AddressError, match=message):
        parse(text)


def test_an_address_carries_user_password_port_and_name():
    address = parse("mqtt://table1:s%40cret@pi.local:1884/club-night")
    assert (address.host, address.port, address.username, address.password, address.name) == (
        "pi.local",
        1884,
        "table1",
        "s@cret",
        "club-night",
    )
    assert "s@cret" not in address.url()


def test_a_password_left_out_of_the_address_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("UNOX_MQTT_PASSWORD", "from-env")
    assert parse("mqtt://table1@pi.local/club").password == "from-env"
    assert parse("mqtt://table1:given@pi.local/club").password == "given"
    assert parse("mqtt://pi.local/club").password is None


def test_on_connect_runs_before_connected_so_a_stop_right_after_flushes_what_it_published(broker):
    """Issue 24: a short command (`unox press --mqtt`) that stopped as soon as wait_connected returned cut
    Home Assistant's discovery in the middle: `connected` was set before on_connect had published it."""
    seen: list[bool] = []
    link: Link | None = None

    def on_connect() -> None:
        assert link is not None
        seen.append(link.connected.is_set())
        for n in range(50):
            link.publish(f"test/order/{n}", {"n": n}, retain=True)

    link = Link(parse(broker.url("table1", "x")), "order", {}, persistent=False, on_connect=on_connect)
    link.start()
    assert link.wait_connected(30)
    link.stop()
    assert seen == [False]
    got: set[str] = set()
    every = threading.Event()

    def on_message(topic, payload):
        got.add(topic)
        if len(got) == 50:
            every.set()

    reader = Link(parse(broker.url("table2", "x")), "order-reader", {"test/order/#": on_message},
                  persistent=False).start()
    try:
        assert every.wait(30), f"the broker kept {len(got)} of the 50"  # all retained, or it times out
    finally:
        reader.stop()


def test_an_older_process_saying_it_holds_the_place_again_never_replaces_the_newer_one(broker):
    """Issue 24 (failure 5): a table kicked off by a newcomer under its client id reconnected before it had
    heard the newcomer, said again that it held the place, and the newcomer stopped as "replaced" (seen
    once in a dozen runs of test_answers under load). The newer process keeps the place and says so again;
    a newer one's word replaces us."""
    import json
    import time

    topic = "unox/tournament/x/presence/table1"
    heard: list[dict] = []
    told = threading.Condition()

    def on_presence(_topic, payload):
        with told:
            heard.append(payload)
            told.notify_all()

    def wait_for(check) -> bool:
        deadline = time.monotonic() + 30
        with told:
            while not check():
                if time.monotonic() > deadline:
                    return False
                told.wait(0.05)  # the link's own state changes on its thread, not by this condition
        return True

    link = Link(parse(broker.url("table1", "x")), "place", {}, persistent=False,
                presence=(topic, "table 1 of x")).start()
    other = Link(parse(broker.url("table1", "x")), "other", {topic: on_presence}, persistent=False).start()
    try:
        assert link.wait_connected(30) and other.wait_connected(30)
        assert wait_for(lambda: link._claimed and any(p.get("token") == link._token for p in heard))
        mine = next(p for p in heard if p.get("token") == link._token)
        older = {"token": "old", "pid": 1, "host": "h", "started": mine["started"] - 5}
        other.publish_text(topic, json.dumps(older), retain=True)
        # it says its own again, after the older one's
        assert wait_for(lambda: [p.get("token") for p in heard][-2:] == ["old", link._token])
        assert link.refused is None and link.connected.is_set()
        newer = {"token": "new", "pid": 2, "host": "h", "started": mine["started"] + 5}
        other.publish_text(topic, json.dumps(newer), retain=True)
        assert wait_for(lambda: link.refused is not None)
        assert "was replaced by another process (pid 2 on h)" in link.refused
    finally:
        other.stop()
        link.stop(flush=0)
