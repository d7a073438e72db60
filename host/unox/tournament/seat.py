"""A table's place in a tournament: it learns the schedule and the open round, and delivers its results.

Each result is sent as it is written to the table's own journal (the round trip to the coordinator overlaps
the table's disk flush, so a result waits for one flush, the coordinator's, not two), and stays marked unsent
until the coordinator's acknowledgement names its hand id. A table that dies between the send and its flush
plays or reads that hand again from what made it (the bots' seed, the round's own table journal) and sends the
same result, which the coordinator counts once; unsent results go again on every reconnect and every `RESEND`
seconds while one is waiting, so a broker that was away or a table killed and resumed loses none (the
coordinator counts a hand id once, so sending again is always safe).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from unox.tournament import topics
from unox.tournament.address import BrokerAddress
from unox.tournament.journal import ResultsJournal
from unox.tournament.link import Link, LinkError
from unox.tournament.schedule import Plan, ScheduleError

RESEND = 2.0  # seconds without a receipt before a result is sent again
SCHEDULE_KEY = "tournament/schedule"
ROUND_KEY = "tournament/round"
SEAT_KEY = "tournament/seat"  # {"tournament": name, "table": n, "id": the tournament's id}
PICK_UP_KEY = "tournament/pick_up"  # the command that rejoins (unox.tournament.kept), for `unox play --list`
REFUSED_KEY = "tournament/refused/"  # + hand id: why the coordinator refused that result
CONNECT_S = 10.0  # a broker that does not answer within this is said, and the table stops
NAME_S = 10.0  # no tournament of that name on the broker within this: a wrong name (or no coordinator yet)


class TournamentOver(Exception):
    """The coordinator says every hand is in."""


class SeatError(LinkError):
    """This table cannot play the tournament on the broker (another's journal, no such table or name)."""


def bound_id(journal: ResultsJournal) -> str | None:
    """The id of the tournament this table journal belongs to (None: a new journal)."""
    seat = journal.get(SEAT_KEY)
    return seat.get("id") if isinstance(seat, dict) and isinstance(seat.get("id"), str) else None


def discover(address: BrokerAddress, number: int, *, known: str | None = None, connect: float = CONNECT_S,
             name_wait: float = NAME_S, say: Callable[[str], None] | None = None) -> Plan:
    """The schedule of the tournament open now under the address's name (or of `known`, this table's own,
    even ended, so a table finishing it takes its `over`): a table joining by name learns the id here.

    A clean session under a client id of its own: nothing is queued for it, nothing is written anywhere.
    Raises a LinkError (one line) for a broker that refuses us or does not answer, a name no tournament
    has, and a table number the schedule does not have.
    """
    name = address.name
    found: dict[str, Any] = {}
    changed = threading.Condition()

    def on_schedule(topic: str, payload: Any) -> None:
        try:
            plan = Plan.from_json(payload)
        except (ScheduleError, TypeError, ValueError):
            return
        with changed:
            if plan.tournament == known or not payload.get("ended"):
                found["plan"] = plan
            else:
                found["ended"] = plan.tournament
            changed.notify_all()

    link = Link(address, "", {topics.schedule(name): on_schedule}, persistent=False).start()
    try:
        if not link.wait_connected(connect):
            raise LinkError(f"no broker answered at {address.host}:{address.port} within {connect:g} s; is "
                            "mosquitto running there? Nothing was written; start this table again")
        deadline, said = time.monotonic() + name_wait, False
        with changed:
            while "plan" not in found:
                if link.refused is not None:
                    raise LinkError(link.refused)
                if "ended" in found and not said and say is not None:
                    say(f"{name}'s last tournament ({found['ended']}) is over; waiting for its coordinator "
                        "to start the next one")
                    said = True
                if "ended" not in found and time.monotonic() > deadline:
                    raise SeatError(f"no tournament named {name!r} on the broker at {address.host}:"
                                    f"{address.port}: check the name after the host, or start its "
                                    "coordinator first")
                changed.wait(0.2)
    finally:
        link.stop(flush=0)
    plan = found["plan"]
    if number > plan.tables:
        raise SeatError(f"--table {number}: {name}'s tournament ({plan.tournament}) has "
                        f"{plan.tables} table{'s' if plan.tables > 1 else ''}; give 1 to {plan.tables}")
    return plan


def check_journal(journal: ResultsJournal, name: str, number: int, tournament: str | None = None) -> None:
    """A journal keeps one table of one tournament: another's is refused in one line, nothing changed."""
    stored = journal.get(SEAT_KEY)
    if stored is None:
        return
    if (stored.get("tournament"), stored.get("table")) != (name, number):
        raise SeatError(f"{journal.path} is table {stored.get('table')} of {stored.get('tournament')!r}; "
                        "give this table its own --journal file")
    held = stored.get("id")
    over = (journal.get(ROUND_KEY) or {}).get("over")
    if held is not None and over and tournament != held:
        raise SeatError(f"{journal.path} holds table {number} of {name}'s tournament {held}, which is over; "
                        "give this table a new --journal file")
    if held is not None and tournament is not None and tournament != held:
        raise SeatError(f"{journal.path} holds table {number} of {name}'s tournament {held}, not the one "
                        f"open now ({tournament}); give this table a new --journal file")


def bind(journal: ResultsJournal, name: str, number: int, tournament: str) -> None:
    check_journal(journal, name, number, tournament)
    if journal.get(SEAT_KEY) is None or bound_id(journal) is None:
        journal.set(SEAT_KEY, {"tournament": name, "table": number, "id": tournament})


class TableSeat:
    """Table `number` of the tournament at `address`; its journal keeps the schedule and the outbox.

    The table belongs to one tournament id (its journal's, or the one open now under the name, learnt at
    `start`): retained messages, receipts and schedules of another are ignored, and a live schedule of
    another while this one is not over stops the table with one line.
    """

    def __init__(self, address: BrokerAddress, number: int, journal: ResultsJournal, *,
                 say: Callable[[str], None] | None = None, name_wait: float = NAME_S):
        self.address, self.number, self.journal = address, number, journal
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.tournament = bound_id(journal)
        self.name_wait = name_wait
        self.foreign: str | None = None
        self._in_flight: dict[str, dict[str, Any] | None] = {}  # hand id -> its receipt, if back already
        self._changed = threading.Condition()
        self._sent_at = 0.0
        self.link: Link | None = None
        self._stops: list[Callable[[str], None]] = []  # told at once when another process replaces us

    def start(self) -> TableSeat:
        name = self.address.name
        if self.tournament is None:
            plan = discover(self.address, self.number, name_wait=self.name_wait, say=self.say)
            bind(self.journal, name, self.number, plan.tournament)
            self.tournament = plan.tournament
        else:
            check_journal(self.journal, name, self.number)
        self.link = Link(self.address, topics.table_id(name, self.tournament, self.number), {
            topics.schedule(name): self._on_schedule,
            topics.current_round(name): self._on_round,
            topics.ack(name, self.number): self._on_ack,
        }, on_connect=self.send_unsent, states=(topics.schedule(name), topics.current_round(name)),
            presence=(topics.presence(name, f"table{self.number}"),
                      f"table {self.number} of {name} (tournament {self.tournament})"),
            on_replaced=self._replaced)
        self.link.start()
        return self

    # -- replaced by another process ---------------------------------------------------------------

    def replaced(self) -> str | None:
        """The line that says this seat cannot go on (another process took its place), or None."""
        return None if self.link is None else self.link.refused

    def check(self) -> None:
        """Raise the seat's LinkError once it was replaced: a round in play stops there."""
        why = self.replaced()
        if why is not None:
            raise LinkError(why)

    def on_replaced(self, stop: Callable[[str], None]) -> Callable[[], None]:
        """Call `stop(why)` the moment the seat is replaced (at once if it already was); returns the call
        that forgets it (the round is over)."""
        with self._changed:
            self._stops.append(stop)
        why = self.replaced()
        if why is not None:
            stop(why)
        return lambda: self._stops.remove(stop) if stop in self._stops else None

    def _replaced(self, why: str) -> None:
        with self._changed:
            stops = list(self._stops)
            self._changed.notify_all()
        for stop in stops:  # stopped before it is said: whoever reads the line finds the round stopped
            stop(why)
        if stops:  # a round in play: said now, as it stops (the command's last line says why again)
            self.say(f"table {self.number}: another process took this table's place; this round stops here, "
                     "nothing more is fired or booked")

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
            if bool(state.get("over")) or (state.get("round") or 0) >= round_no:
                return True
            refused = self.refused()
            if refused:  # the coordinator waits for that hand: the round would never open
                hand_id, why = next(iter(refused.items()))
                raise SeatError(f"table {self.number}: round {round_no} cannot open, the coordinator refused "
                                f"hand {hand_id} ({why}); the organiser must settle it")
            return False

        self._wait(opened, timeout, f"round {round_no}")

    def _wait(self, ready: Any, timeout: float | None, what: str) -> Any:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while True:
                value = ready()
                if value:
                    return value
                if self.foreign is not None:
                    raise SeatError(self.foreign)
                if self.link is not None and self.link.refused is not None:
                    raise LinkError(self.link.refused)
                if deadline is not None and time.monotonic() >= deadline:
                    raise TimeoutError(f"table {self.number}: no {what} from the coordinator")
                self._changed.wait(0.2)
                self._resend_if_due()

    # -- results ----------------------------------------------------------------------------------

    def report(self, result: dict[str, Any]) -> None:
        """Send the result and journal it (committed) meanwhile; it carries the tournament's id. A receipt
        that comes back before the commit is kept and applied after it."""
        self.check()  # a replaced seat books nothing more: the other process plays this table now
        result = {**result, "tournament": self.tournament}
        hand_id = result["hand_id"]
        with self._changed:
            self._in_flight[hand_id] = None
        self._send(result)
        try:
            self.journal.record(hand_id, result["round"], result["table"], result["hand"], result)
        finally:
            with self._changed:
                early = self._in_flight.pop(hand_id, None)
                if early is not None:
                    self._apply_ack(early)
                self._changed.notify_all()

    def send_unsent(self) -> None:
        for result in self.journal.unacked():
            self._send(result)

    def _send(self, result: dict[str, Any]) -> None:
        self._sent_at = time.monotonic()
        self.link.publish(topics.result(self.address.name, self.number), result)

    def _resend_if_due(self) -> None:
        due = time.monotonic() - self._sent_at > RESEND
        if due and self.link is not None and self.link.connected.is_set() and self.unsent():
            self.send_unsent()

    def unsent(self) -> int:
        return len(self.journal.unacked())

    def refused(self) -> dict[str, str]:
        """hand id -> why, for every result the coordinator refused (not counted, never sent again)."""
        return {hand_id: str(self.journal.get(REFUSED_KEY + hand_id)) for hand_id in self.journal.refused()}

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
            plan = Plan.from_json(payload)
        except (ScheduleError, TypeError, ValueError):
            return
        with self._changed:
            if plan.tournament != self.tournament:
                if not payload.get("ended") and not (self.journal.get(ROUND_KEY) or {}).get("over"):
                    self.foreign = (f"{self.journal.path} holds table {self.number} of {self.address.name}'s "
                                    f"tournament {self.tournament}, but the one open now is "
                                    f"{plan.tournament}; give this table a new --journal file")
                    self._changed.notify_all()
                return  # another tournament's schedule: never played with this table's journal
            self.journal.set(SCHEDULE_KEY, payload)
            self._changed.notify_all()

    def _on_round(self, topic: str, payload: Any) -> None:
        if not isinstance(payload, dict) or payload.get("id") != self.tournament:
            return  # another tournament's (last week's `over`, say): not ours
        stored = self.journal.get(ROUND_KEY) or {}
        if payload != stored:
            with self._changed:
                self.journal.set(ROUND_KEY, payload)
                if payload.get("over"):
                    # the coordinator says "over" only once every hand of the schedule is counted, so ours are
                    # too, even one whose receipt died with a killed coordinator (it has stopped answering)
                    self.journal.acknowledge_all()
                self._changed.notify_all()
            if not payload.get("over") and stored.get("boot") not in (None, payload.get("boot")):
                # another coordinator process: its journal may have lost the last results it acknowledged
                # (a power cut), so it gets all of ours again; it counts each hand once
                for result in self.journal.delivered():
                    self._send(result)

    def _on_ack(self, topic: str, payload: Any) -> None:
        if not isinstance(payload, dict) or not isinstance(payload.get("hand_id"), str):
            return
        if payload.get("id") != self.tournament:
            return  # a receipt for another tournament's table of the same number
        with self._changed:
            if payload["hand_id"] in self._in_flight:  # faster than our own commit: applied after it
                self._in_flight[payload["hand_id"]] = payload
                return
            if self.journal.has(payload["hand_id"]):
                self._apply_ack(payload)
            self._changed.notify_all()

    def _apply_ack(self, payload: dict[str, Any]) -> None:
        """A receipt for a journalled result (the caller holds `_changed`)."""
        if payload.get("ok", True):
            self.journal.acknowledge(payload["hand_id"])
        elif self.journal.refuse(payload["hand_id"]):
            why = str(payload.get("error", "no reason given"))[:300]
            self.journal.set(REFUSED_KEY + payload["hand_id"], why)
            self.say(f"table {self.number}: the coordinator refused hand {payload['hand_id']}: {why}; it "
                     "is not counted and not sent again: write it down for the organiser")

    def stop(self) -> None:
        if self.link is not None:
            self.link.stop()
