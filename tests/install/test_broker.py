"""Issue 16: `unox install broker --write` sets up mosquitto as its documentation recommends: no anonymous
clients, a password file made by mosquitto_passwd, one user per table; the printed logins work."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from unox.tournament.address import parse
from unox.tournament.broker import PrivateBroker
from unox.tournament.link import Link, LinkError

UNOX = [sys.executable, "-m", "unox"]


def _install(root: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*UNOX, "install", "broker", "--write", "--root", str(root), "--host", "127.0.0.1", *extra],
        capture_output=True,
        text=True,
        timeout=60,
    )


def _urls(stdout: str) -> dict[str, str]:
    return dict(re.findall(r"^  (\w+): (mqtt://\S+)$", stdout, re.M))


def test_install_broker_writes_a_closed_config_and_one_user_per_table_whose_logins_work(tmp_path):
    done = _install(tmp_path, "--tables", "2", "--name", "club")
    assert done.returncode == 0, done.stderr
    conf = (tmp_path / "etc/mosquitto/conf.d/unox.conf").read_text()
    assert "allow_anonymous false" in conf and "password_file /etc/mosquitto/unox.passwd" in conf
    assert "set_tcp_nodelay true" in conf.splitlines()  # a receipt must not wait 40 ms on Nagle
    assert "acl_file /etc/mosquitto/unox.acl" in conf.splitlines()  # who may publish what (issue 24)
    acl = (tmp_path / "etc/mosquitto/unox.acl").read_text()
    urls = _urls(done.stdout)
    assert sorted(urls) == ["coordinator", "table1", "table2"]
    assert "user homeassistant, password" in done.stdout
    passwords = tmp_path / "etc/mosquitto/unox.passwd"
    assert passwords.stat().st_mode & 0o007 == 0  # nobody else reads the hashes
    broker = PrivateBroker(tmp_path / "broker")
    (tmp_path / "broker").mkdir()
    shutil.copy(passwords, tmp_path / "broker" / "passwords")  # the written file, as mosquitto will read it
    with broker:
        # the tests' brokers (tests/tournament/test_acl.py shows the forgeries refused) run this same ACL
        assert (tmp_path / "broker" / "acl").read_text() == acl
        for user, url in urls.items():
            address = parse(url.replace("@127.0.0.1/", f"@127.0.0.1:{broker.port}/"))
            link = Link(address, f"check-{user}", {}, persistent=False).start()
            try:
                assert link.wait_connected(30), user
            finally:
                link.stop()
        wrong = parse(urls["table1"].replace("@127.0.0.1/", f"@127.0.0.1:{broker.port}/")).with_user(
            "table1", "guessed"
        )
        link = Link(wrong, "guesser", {}, persistent=False).start()
        try:
            with pytest.raises(LinkError, match="refused table1"):
                link.wait_connected(30)
        finally:
            link.stop()


def test_install_broker_again_keeps_the_passwords_and_adds_only_new_tables(tmp_path):
    first = _install(tmp_path, "--tables", "1")
    hashes = (tmp_path / "etc/mosquitto/unox.passwd").read_text()
    again = _install(tmp_path, "--tables", "2")
    assert again.returncode == 0, again.stderr
    assert sorted(_urls(again.stdout)) == ["table2"]
    assert "kept the passwords of coordinator, table1, homeassistant" in again.stdout
    after = (tmp_path / "etc/mosquitto/unox.passwd").read_text()
    assert after.startswith(hashes) and sorted(_urls(first.stdout)) == ["coordinator", "table1"]
    # the ACL names every table a tournament can have: more tables need no new one
    assert f"unchanged {tmp_path / 'etc/mosquitto/unox.acl'}" in again.stdout


@pytest.mark.parametrize(
    "extra, message, code",
    [(["--tables", "0"], "argument --tables: 0 is out of range", 2), (["--name", "a/b"], "--name 'a/b'", 1)],
)
def test_install_broker_refuses_bad_options_and_writes_nothing(tmp_path, extra, message, code):
    done = _install(tmp_path, *extra)
    assert done.returncode == code and message in done.stderr
    assert not (tmp_path / "etc").exists()


def test_install_broker_without_write_prints_the_config_only(tmp_path):
    done = subprocess.run(
        [*UNOX, "install", "broker"], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0 and done.stdout.startswith("# unox tournament")
    assert "allow_anonymous false" in done.stdout and "mosquitto_passwd -b" in done.stderr
    assert "unox install broker --acl > /etc/mosquitto/unox.acl" in done.stderr


def test_install_broker_acl_prints_who_may_publish_what(tmp_path):
    done = subprocess.run(
        [*UNOX, "install", "broker", "--acl"], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    blocks = {block.splitlines()[0]: block.splitlines()[1:] for block in done.stdout.split("\n\n")}
    assert blocks["user table2"][:2] == ["topic write unox/tournament/+/result/2",
                                         "topic write unox/tournament/+/presence/table2"]
    assert blocks["user homeassistant"] == ["topic write homeassistant/status"]
    assert "topic write unox/tournament/+/round" in blocks["user coordinator"]
    assert not any("write" in line for line in done.stdout.split("\n\n")[0].splitlines())  # all: read
