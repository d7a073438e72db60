"""The coordinator: it holds the schedule, opens each round, collects each hand's result, keeps the standings.

Every result is written to its journal (committed) before it is acknowledged, and a hand id is counted once
however often it arrives; the schedule, the round and the standings are retained messages, so a table that
connects late (or a TV page) reads them at once. After a crash it resumes from its journal: the standings
come from the journal, and the broker hands over what the tables sent meanwhile (its persistent session).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from unox.tournament import topics
from unox.tournament.address import BrokerAddress
from unox.tournament.journal import ResultsJournal
from unox.tournament.link import Link
from unox.tournament.schedule import Plan
from unox.tournament.standings import ResultError, checked, standings


class Coordinator:
    """One tournament on one broker; its state is the journal, its callbacks run on the link's thread."""

    def __init__(self, address: BrokerAddress, journal: ResultsJournal, plan: Plan,
                 *, say: Callable[[str], None] | None = None):
        self.address, self.journal, self.plan = address, journal, plan
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.over = threading.Event()
        self.changed = threading.Event()
        self._lock = threading.Lock()
        self._round: int | None = 0
        self.link = Link(address, topics.coordinator_id(address.name),
                         {topics.result(address.name, "+"): self._on_result}, on_connect=self._announce)

    def start(self) -> Coordinator:
        self.link.start()
        return self

    def standings(self) -> dict[str, Any]:
        return standings(self.plan, self.journal.results())

    def open_round(self) -> int | None:
        """The first round with a result missing (None when every hand is in)."""
        have = {r["hand_id"] for r in self.journal.results()}
        for hand_id, round_no, *_ in self.plan.hands():
            if hand_id not in have:
                return round_no
        return None

    def receive(self, result: Any) -> bool:
        """Check, journal (committed), then acknowledge; True when the result was new."""
        with self._lock:
            try:
                row = checked(self.plan, result)
            except ResultError as exc:
                self.say(f"unox tournament: ignored a result: {exc}")
                table = result.get("table") if isinstance(result, dict) else None
                if isinstance(table, int) and isinstance(result.get("hand_id"), str):
                    self.link.publish(topics.ack(self.address.name, table),
                                      {"hand_id": result["hand_id"], "ok": False, "error": str(exc)})
                return False
            new = self.journal.record(row["hand_id"], row["round"], row["table"], row["hand"], row,
                                      acked=True)
            self.link.publish(topics.ack(self.address.name, row["table"]), {"hand_id": row["hand_id"],
                                                                            "ok": True})
            if new:
                self._publish_progress()
            return new

    # -- on the link's thread ---------------------------------------------------------------------

    def _on_result(self, topic: str, payload: Any) -> None:
        self.receive(payload)

    def _announce(self) -> None:
        """On every (re)connect: the schedule, the round and the standings, retained."""
        name = self.address.name
        self.link.publish(topics.schedule(name), self.plan.to_json(), retain=True)
        with self._lock:
            self._round = 0
            self._publish_progress()

    def _publish_progress(self) -> None:
        name = self.address.name
        table = self.standings()
        self.link.publish(topics.standings(name), table, retain=True)
        round_no = self.open_round()
        if round_no != self._round:
            self._round = round_no
            message = {"round": round_no, "over": round_no is None}
            self.link.publish(topics.current_round(name), message, retain=True)
            if round_no is not None:
                self.say(f"round {round_no} of {len(self.plan.rounds)} is open")
        self.changed.set()
        if table["over"]:
            self.over.set()

    def stop(self) -> None:
        self.link.stop()
