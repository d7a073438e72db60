"""Issue 24: Home Assistant for the whole tournament night. A client subscribed as HA is (discovery prefix,
then each config's state, attributes and availability topics) watches a C-V2 tournament whose coordinator
runs `--home-assistant`: the tournament's entities appear, update round by round, name the winner, and go
unavailable when the coordinator stops."""

from __future__ import annotations

import json
import subprocess
import sys

from unox.homeassistant.discovery import TOURNAMENT_ENTITIES
from unox.tournament.address import parse
from unox.tournament.bot_table import play_table
from unox.tournament.journal import ResultsJournal
from unox.tournament.seat import TableSeat

from .test_discovery import WAIT, HomeAssistant

UNOX = [sys.executable, "-m", "unox"]
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


class WithAttributes(HomeAssistant):
    """HA also reads an entity's `json_attributes_topic`."""

    def _on_message(self, client, userdata, message):
        if message.topic.startswith("homeassistant/"):
            attributes = json.loads(message.payload.decode()).get("json_attributes_topic")
            if attributes:
                client.subscribe(attributes, qos=1)
        super()._on_message(client, userdata, message)

    def attributes(self, object_id: str) -> dict | None:
        topic = (self.configs.get(object_id) or {}).get("json_attributes_topic")
        text = self.values.get(topic) if topic else None
        return None if text is None else json.loads(text)


def test_home_assistant_sees_the_tournament_appear_update_and_go_unavailable(broker, tmp_path):
    ha = WithAttributes(broker)
    coordinator = subprocess.Popen(
        [*UNOX, "tournament", "start", "--broker", broker.url("coordinator", "night"), "--players",
         ",".join(PLAYERS), "--journal", str(tmp_path / "night.db"), "--home-assistant", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen_rounds: list[str] = []
    try:
        ha.wait(lambda: all(ha.state(e.object_id) is not None for e in TOURNAMENT_ENTITIES)
                and ha.state("round") == "1" and ha.available("round") == "online", "the tournament appear")
        assert ha.state("hands") == "0" and ha.state("winner") == "nobody"
        device = ha.configs["round"]["device"]
        assert device["identifiers"] == ["unox_tournament_night"] and device["model"] == "UNO tournament"
        seat = TableSeat(parse(broker.url("table1", "night")), 1, ResultsJournal(tmp_path / "t1.db")).start()

        def hand_played(line: str) -> None:
            if line.startswith("round "):
                seen_rounds.append(line.split(",")[0])

        try:
            play_table(seat, bot="heuristic", seed=4, say=hand_played, wait=WAIT)
        finally:
            seat.stop()
            seat.journal.close()
        out, err = coordinator.communicate(timeout=WAIT)
        assert coordinator.returncode == 0, err
        final = json.loads(out.strip().splitlines()[-1])
        ha.wait(lambda: ha.available("round") == "offline", "the tournament go unavailable")
    finally:
        if coordinator.poll() is None:
            coordinator.kill()
            coordinator.wait(WAIT)
        ha.stop()
    assert seen_rounds == ["round 1", "round 2", "round 3"]
    assert ha.state("round") == "over" and ha.state("hands") == "12"
    assert ha.state("winner") == final["winner"] == ha.state("standings")
    attributes = ha.attributes("standings")
    assert attributes["id"] == final["id"]
    assert attributes["points"] == {row["player"]: row["points"] for row in final["players"]}
    assert attributes["with_each_partner"]["Ann"] == next(
        row["partners"] for row in final["players"] if row["player"] == "Ann")
    assert all(ha.available(e.object_id) == "offline" for e in TOURNAMENT_ENTITIES)
