"""A table's place in a tournament: it learns the schedule and the open round, and delivers its results.

Each result is written to the table's own journal before it is sent, and stays marked unsent until the
coordinator's acknowledgement names its hand id; unsent results go again on every reconnect and every
`RESEND` seconds while one is waiting, so a broker that was away or a table killed and resumed loses none
(the coordinator counts a hand id once, so sending again is always safe).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from unox.tournament import topics
from unox.tournament.address import BrokerAddress
from unox.tournament.journal import ResultsJournal
from unox.tournament.link import Link, LinkError
from unox.tournament.schedule import Plan, ScheduleError

RESEND = 2.0  # seconds without a receipt before a result is sent again
SCHEDULE_KEY = "tournament/schedule"
ROUND_KEY = "tournament/round"


class TournamentOver(Exception):
    """The coordinator says every hand is in."""


class TableSeat:
    """Table `number` of the tournament at `address`; its journal keeps the schedule and the outbox."""

    def __init__(self, address: BrokerAddress, number: int, journal: ResultsJournal):
        self.address, self.number, self.journal = address, number, journal
        self._changed = threading.Condition()
        self._sent_at = 0.0
        name = address.name
        self.link = Link(address, topics.table_id(name, number), {
            topics.schedule(name): self._on_schedule,
            topics.current_round(name): self._on_round,
            topics.ack(name, number): self._on_ack,
        }, on_connect=self.send_unsent, states=(topics.schedule(name), topics.current_round(name)))

    def start(self) -> TableSeat:
        self.link.start()
        return self

    # -- what the coordinator tells us ------------------------------------------------------------

    def plan(self) -> Plan | None:
        stored = self.journal.get(SCHEDULE_KEY)
        return None if stored is None else Plan.from_json(stored)

    def wait_plan(self, timeout: float | None = None) -> Plan:
        """The schedule (kept in the journal once heard, so a resumed table needs no broker for it)."""
        return self._wait(lambda: self.plan(), timeout, "the schedule")

    def wait_round(self, round_no: int, timeout: float | None = None) -> None:
        """Block until the coordinator opens `round_no` (the other tables finished the rounds before)."""

        def opened() -> bool:
            state = self.journal.get(ROUND_KEY) or {}
            return bool(state.get("over")) or (state.get("round") or 0) >= round_no

        self._wait(opened, timeout, f"round {round_no}")

    def _wait(self, ready: Any, timeout: float | None, what: str) -> Any:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while True:
                value = ready()
                if value:
                    return value
                if self.link.refused is not None:
                    raise LinkError(self.link.refused)
                if deadline is not None and time.monotonic() >= deadline:
                    raise TimeoutError(f"table {self.number}: no {what} from the coordinator")
                self._changed.wait(0.2)
                self._resend_if_due()

    # -- results ----------------------------------------------------------------------------------

    def report(self, result: dict[str, Any]) -> None:
        """Journal the result (committed), then send it."""
        self.journal.record(result["hand_id"], result["round"], result["table"], result["hand"], result)
        self._send(result)

    def send_unsent(self) -> None:
        for result in self.journal.unacked():
            self._send(result)

    def _send(self, result: dict[str, Any]) -> None:
        self._sent_at = time.monotonic()
        self.link.publish(topics.result(self.address.name, self.number), result)

    def _resend_if_due(self) -> None:
        if self.link.connected.is_set() and time.monotonic() - self._sent_at > RESEND and self.unsent():
            self.send_unsent()

    def unsent(self) -> int:
        return len(self.journal.unacked())

    def flush(self, timeout: float | None = None) -> None:
        """Block until the coordinator has every result of this table."""
        try:
            self._wait(lambda: self.unsent() == 0, timeout, "receipt for every result")
        except TimeoutError as exc:
            waiting = [r["hand_id"] for r in self.journal.unacked()]
            raise TimeoutError(f"{exc}: {len(waiting)} still waiting ({', '.join(waiting[:8])})") from None

    # -- on the link's thread ---------------------------------------------------------------------

    def _on_schedule(self, topic: str, payload: Any) -> None:
        if payload == self.journal.get(SCHEDULE_KEY):
            return  # retained, so redelivered on every reconnect: unchanged, no parse and no disk flush
        try:
            Plan.from_json(payload)
        except (ScheduleError, TypeError, ValueError):
            return
        with self._changed:
            self.journal.set(SCHEDULE_KEY, payload)
            self._changed.notify_all()

    def _on_round(self, topic: str, payload: Any) -> None:
        if isinstance(payload, dict) and payload != self.journal.get(ROUND_KEY):
            with self._changed:
                self.journal.set(ROUND_KEY, payload)
                if payload.get("over"):
                    # the coordinator says "over" only once every hand of the schedule is counted, so ours are
                    # too, even one whose receipt died with a killed coordinator (it has stopped answering)
                    self.journal.acknowledge_all()
                self._changed.notify_all()

    def _on_ack(self, topic: str, payload: Any) -> None:
        if isinstance(payload, dict) and isinstance(payload.get("hand_id"), str):
            with self._changed:
                self.journal.acknowledge(payload["hand_id"])
                self._changed.notify_all()

    def stop(self) -> None:
        self.link.stop()
