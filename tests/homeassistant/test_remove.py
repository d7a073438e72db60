"""Issue 24: `unox install homeassistant --remove` takes the launcher out of Home Assistant: every retained
discovery config, state and availability of the device is cleared on the broker (HA removes an entity whose
config is emptied), and a refused or missing option is one line."""

from __future__ import annotations

import subprocess
import sys

from unox.homeassistant.bridge import HomeAssistantBridge
from unox.homeassistant.discovery import ENTITIES
from unox.homeassistant.snapshots import idle_snapshot
from unox.tournament.address import parse

from .test_house import nothing_retained_under

UNOX = [sys.executable, "-m", "unox"]
WAIT = 30.0
NODE = "unox_clubpi"


def test_remove_clears_every_retained_message_of_the_device_and_only_its_own(broker):
    url = f"mqtt://table1:{broker.users['table1']}@127.0.0.1:{broker.port}/"
    for node in (NODE, "unox_otherpi"):  # two launchers announced, as `--mqtt` does
        bridge = HomeAssistantBridge(parse(url, need_name=False), node, idle_snapshot).start()
        assert bridge.link.wait_connected(WAIT)
        bridge.stop()
    before = nothing_retained_under(broker, "homeassistant/")
    assert len([t for t in before if f"/{NODE}/" in t]) == len(ENTITIES)
    done = subprocess.run([*UNOX, "install", "homeassistant", "--remove", "--mqtt", url, "--node", NODE],
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 0, done.stderr
    # a tournament table's entities too (TABLE_TOURNAMENT_ENTITIES): cleared whether announced or not
    said = f"removed {NODE} from Home Assistant: cleared {len(ENTITIES) + 3} entity configs"
    assert done.stdout.startswith(said)
    assert [t for t in nothing_retained_under(broker, "homeassistant/") if f"/{NODE}/" in t] == []
    assert nothing_retained_under(broker, f"unox/{NODE}/") == []
    others = [t for t in nothing_retained_under(broker, "homeassistant/") if "/unox_otherpi/" in t]
    assert len(others) == len(ENTITIES) and nothing_retained_under(broker, "unox/unox_otherpi/")  # untouched


def test_remove_without_its_options_is_one_line(tmp_path):
    for argv, message in [([], "give --remove"), (["--remove"], "give the broker with --mqtt"),
                          (["--remove", "--mqtt", "mqtt://h/x"], "takes no path")]:
        done = subprocess.run([*UNOX, "install", "homeassistant", *argv], capture_output=True, text=True,
                              timeout=WAIT, cwd=tmp_path)
        assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, done.stderr
        assert message in done.stderr
