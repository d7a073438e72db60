"""The coordinator: it holds the schedule, opens each round, collects each hand's result, keeps the standings.

Every result is written to its journal (committed) before it is acknowledged, and a hand id is counted once
however often it arrives; the schedule, the round and the standings are retained messages, so a table that
connects late (or a TV page) reads them at once. After a crash it resumes from its journal: the standings
come from the journal, and the broker hands over what the tables sent meanwhile (its persistent session).
Its retained presence says it is alive (and which tournament it runs) until it stops cleanly or the broker
sends its will, so `tournament start` can refuse a second, different tournament under the same name.
"""

from __future__ import annotations

import queue
import secrets
import sys
import threading
from collections.abc import Callable
from typing import Any

from unox.tournament import topics
from unox.tournament.address import BrokerAddress
from unox.tournament.journal import ResultsJournal
from unox.tournament.link import Link
from unox.tournament.schedule import Plan
from unox.tournament.standings import ResultError, Tally, checked
from unox.words import counted

BATCH = 200  # results journalled in one transaction at most
STOP = object()


class Coordinator:
    """One tournament on one broker; its state is the journal, its callbacks run on the link's thread."""

    def __init__(self, address: BrokerAddress, journal: ResultsJournal, plan: Plan,
                 *, say: Callable[[str], None] | None = None):
        self.address, self.journal, self.plan = address, journal, plan
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.over = threading.Event()
        self.changed = threading.Event()
        self._lock = threading.RLock()
        self._round: int | None = 0
        results = journal.results()
        self._have = {r["hand_id"] for r in results}
        self._tally = Tally(plan, results)
        self._next = 0  # index in plan.hands() of the first hand whose result is missing
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._worker = threading.Thread(target=self._work, name="unox-coordinator-journal", daemon=True)
        self.tournament = plan.tournament
        # this process's own mark on the round message: a table that sees it change sends every result
        # again, acknowledged ones too, since a journal that is durable against a crash of the process, not
        # a power cut (ResultsJournal "process"), may have lost the last ones it acknowledged
        self.boot = secrets.token_hex(4)
        # a new tournament's first connection is a clean session; a resumed one takes what was queued for it
        self.link = Link(address, topics.coordinator_id(address.name, plan.tournament),
                         {topics.result(address.name, "+"): self._on_result}, on_connect=self._announce,
                         clean_first=not results,
                         presence=(topics.presence(address.name, "coordinator"),
                                   f"the coordinator of {address.name} (tournament {plan.tournament})"),
                         presence_gone={"tournament": plan.tournament, "boot": self.boot})

    def start(self) -> Coordinator:
        self._worker.start()
        self.link.start()
        return self

    def standings(self) -> dict[str, Any]:
        with self._lock:
            return self._tally.table()

    def progress(self) -> tuple[dict[str, Any], int | None]:
        """(the standings, the round open now or None at the end), read together."""
        with self._lock:
            return self._tally.table(), self.open_round()

    def counted(self) -> int:
        """How many hands are in (cheap: the tally's own set, not the journal)."""
        with self._lock:
            return len(self._have)

    def open_round(self) -> int | None:
        """The first round with a result missing (None when every hand is in)."""
        hands = self.plan.hands()
        while self._next < len(hands) and hands[self._next][0] in self._have:
            self._next += 1
        return hands[self._next][1] if self._next < len(hands) else None

    def receive(self, result: Any) -> bool:
        """Check, journal (committed), then acknowledge; True when the result was new."""
        return self.receive_many([result])[0]

    def receive_many(self, results: list[Any]) -> list[bool]:
        """A burst of results: checked, journalled in one transaction, then each acknowledged."""
        with self._lock:
            rows = [row for row in (self._checked(result) for result in results) if row is not None]
            news = self.journal.record_many(
                [(row["hand_id"], row["round"], row["table"], row["hand"], row) for row in rows], acked=True)
            for row, new in zip(rows, news, strict=True):
                self.link.publish(topics.ack(self.address.name, row["table"]),
                                  {"hand_id": row["hand_id"], "id": self.tournament, "ok": True})
                if new:
                    self._have.add(row["hand_id"])
                    self._tally.add(row)
            if any(news):
                self._publish_progress()
            new_ids = {row["hand_id"] for row, new in zip(rows, news, strict=True) if new}
            return [isinstance(r, dict) and r.get("hand_id") in new_ids for r in results]

    def _checked(self, result: Any) -> dict[str, Any] | None:
        """The checked result, or None (said, and acknowledged as refused so the table stops sending it)."""
        try:
            return checked(self.plan, result)
        except ResultError as exc:
            self.say(f"unox tournament: ignored a result: {exc}")
            table = result.get("table") if isinstance(result, dict) else None
            if isinstance(table, int) and isinstance(result.get("hand_id"), str):
                if result.get("tournament") == self.tournament:  # another's table is not ours to answer
                    self.link.publish(topics.ack(self.address.name, table),
                                      {"hand_id": result["hand_id"], "id": self.tournament, "ok": False,
                                       "error": str(exc)})
            return None

    # -- on the link's thread, and the journal's ----------------------------------------------------

    def _on_result(self, topic: str, payload: Any) -> None:
        self._inbox.put(payload)

    def _work(self) -> None:
        """Results in arrival order; whatever came in meanwhile is journalled together (group commit)."""
        while True:
            batch = [self._inbox.get()]
            while not self._inbox.empty() and len(batch) < BATCH:
                batch.append(self._inbox.get_nowait())
            stop = STOP in batch
            batch = [item for item in batch if item is not STOP]
            if batch:
                try:
                    self.receive_many(batch)
                except Exception as exc:  # a full disk: say so; the tables send again, nothing is lost
                    self.say(f"unox tournament: could not journal {counted(len(batch), 'result')}: {exc}")
            if stop:
                return

    def _announce(self) -> None:
        """On every (re)connect: the schedule, the round and the standings, retained."""
        with self._lock:
            self._publish_schedule()
            self._round = 0
            self._publish_progress()

    def _publish_schedule(self) -> None:
        """Retained; marked `ended` once every hand is in, so a table joining by name next week waits for
        the next tournament instead of playing this one's seats."""
        schedule = self.plan.to_json()
        if self._tally.counted == len(self.plan.hands()):
            schedule["ended"] = True
        self.link.publish(topics.schedule(self.address.name), schedule, retain=True)

    def _publish_progress(self) -> None:
        name = self.address.name
        table = self._tally.table()
        self.link.publish(topics.standings(name), table, retain=True)
        round_no = self.open_round()
        if round_no != self._round:
            self._round = round_no
            message = {"round": round_no, "over": round_no is None, "id": self.tournament}
            if round_no is not None:
                message["boot"] = self.boot  # `over` needs none: every hand is in
            if round_no is None:
                self._publish_schedule()  # ended: before `over`, so nobody reads an over without it
            self.link.publish(topics.current_round(name), message, retain=True)
            if round_no is not None:
                self.say(f"round {round_no} of {len(self.plan.rounds)} is open")
        self.changed.set()
        if table["over"]:
            self.over.set()

    def stop(self) -> None:
        if self._worker.is_alive():
            self._inbox.put(STOP)
            self._worker.join(timeout=30)
        self.link.stop()
