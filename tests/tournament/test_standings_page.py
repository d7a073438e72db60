"""Issue 16: `unox tournament serve` runs the coordinator and shows the standings on a TV page (Chromium)."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import urllib.request

import pytest

from .kit import C_V2_PLAYERS, UNOX, WAIT, journal_rows, read_until, scored_by_hand, table_process

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def test_the_standings_page_shows_the_coordinators_standings_on_a_tv(broker, tmp_path):
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("the page test needs Debian's chromium: apt-get install -y chromium (.ci/run does this)")
    serve = subprocess.Popen(
        [
            *UNOX,
            "tournament",
            "serve",
            "--broker",
            broker.url("coordinator", "tv"),
            "--players",
            ",".join(C_V2_PLAYERS),
            "--journal",
            str(tmp_path / "club.db"),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = read_until(serve, "the standings are at")[-1]
        url = line.split(" at ")[1].split()[0]
        table = table_process(broker.url("table1", "tv"), 1, tmp_path / "table1.db")
        try:
            assert table.wait(WAIT) == 0
        finally:
            if table.poll() is None:
                table.kill()
                table.wait(WAIT)
        with urllib.request.urlopen(url + "standings.json", timeout=WAIT) as reply:
            served = json.load(reply)
        played = journal_rows(tmp_path / "table1.db")
        expected = scored_by_hand(C_V2_PLAYERS, played)
        assert served["over"] and {r["player"]: r["points"] for r in served["players"]} == expected
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                page.goto(url)
                page.wait_for_function(
                    "document.getElementById('state').textContent.includes('winner')", timeout=WAIT * 1000
                )
                rows = page.locator("#rows tr").all_inner_texts()
            finally:
                browser.close()
        shown = {cells.split("\t")[1]: int(cells.split("\t")[2]) for cells in rows}
        assert shown == expected and len(rows) == 4
        best = max(expected.values())
        assert rows[0].split("\t")[2] == str(best)  # the leader on top
    finally:
        serve.send_signal(signal.SIGINT)
        out, err = serve.communicate(timeout=WAIT)
    assert serve.returncode == 0, err
    assert json.loads(out.strip().splitlines()[-1])["over"]
