"""`unox serve` as a real process on a free loopback port, and Debian's Chromium driven by Playwright.

The server prints its URL once its socket listens, so a test waits for that line, never for a time.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from unox.web.client import WebClient

PIN = "246813"
OPERATOR_PIN = "135792"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps",
                 "--disable-extensions"]
PHONE = {"width": 390, "height": 844}


def seat(served, name: str) -> WebClient:
    """A `WebClient` of `served` (anything with a `.url`) joined as `name` with the tests' PIN."""
    client = WebClient(served.url)
    client.join(OPERATOR_PIN if name == "operator" else PIN, name)
    return client


class Served:
    """A running `unox serve`: its URL, PID and the lines it printed."""

    def __init__(self, args: list[str], cwd: Path, prefix: tuple[str, ...] = ()):
        # a table started without --journal is kept under the state directory: this test's own
        env = dict(os.environ, PYTHONUNBUFFERED="1", XDG_STATE_HOME=str(cwd / "state"))
        command = [*prefix, sys.executable, "-m", "unox", "serve", *args]
        self.proc = subprocess.Popen(command, cwd=cwd, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        for line in self.proc.stdout:
            self.lines.append(line)
            found = re.search(r"open (http://\S+) on each phone", line)
            if found:
                self.url = found.group(1).rstrip("/")
            if line.startswith("PIN: "):
                # keep reading what it prints, so a full pipe can never stop the server
                self.reader = threading.Thread(target=self._drain, daemon=True)
                self.reader.start()
                break
        else:
            raise AssertionError("unox serve did not start:\n" + "".join(self.lines))

    def _drain(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self, sig: int = signal.SIGINT) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        self.proc.wait(timeout=20)
        self.reader.join(timeout=10)
        return "".join(self.lines)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator:
    """`serve("--players", "Ann,Bob", ...)` starts `unox serve` on 127.0.0.1, a free port, the tests' PINs."""
    started: list[Served] = []

    def start(*args: str, port: int = 0, pin: str = PIN, operator_pin: str = OPERATOR_PIN,
              prefix: tuple[str, ...] = ()) -> Served:
        served = Served(["--host", "127.0.0.1", "--port", str(port), "--pin", pin, "--operator-pin",
                         operator_pin, *args], tmp_path, prefix)
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop(signal.SIGKILL)


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """Debian's `chromium` (Playwright's own download is not reachable from CI). Missing: a clear failure."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("the browser tests need Debian's chromium: apt-get install -y chromium "
                    "(.ci/run does this)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go: $UNOX_ARTIFACTS, else a temporary directory."""
    given = os.environ.get("UNOX_ARTIFACTS")
    path = Path(given) if given else tmp_path_factory.mktemp("artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path
