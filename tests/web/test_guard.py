"""The guard's parts on their own: the caps under a file limit, out-of-files logging, the Host's name."""

from __future__ import annotations

import errno
import logging

import pytest
from unox.web.guard import Book, Events, Limits, OutOfFiles, QuietRepeats
from unox.web.origin import split_host


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Loop:
    def __init__(self) -> None:
        self.others: list[dict] = []

    def default_exception_handler(self, context: dict) -> None:
        self.others.append(context)


def test_running_out_of_files_logs_one_line_a_minute(caplog):
    """Finding 1: asyncio's traceback per failed accept (3 MB/s) becomes one line a minute at most."""
    clock, loop = Clock(), Loop()
    handler = OutOfFiles(clock)
    context = {"message": "socket.accept() out of system resource",
               "exception": OSError(errno.EMFILE, "Too many open files")}
    with caplog.at_level(logging.ERROR, logger="unox.web.guard"):
        for _ in range(6000):  # ten minutes of failed accepts, ten a second
            handler(loop, context)
            clock.t += 0.1
    lines = [r for r in caplog.records if r.name == "unox.web.guard"]
    assert len(lines) == 10 and all(r.exc_info is None for r in lines)
    assert "(599 more since the last line)" in lines[-1].getMessage()
    handler(loop, {"message": "something else", "exception": ValueError("x")})
    assert len(loop.others) == 1  # anything else goes to asyncio's own handler


def test_the_caps_stay_below_the_file_limit():
    for files in (256, 1024, 65536):
        limits = Limits.for_files(files)
        assert limits.connections < files  # a WebSocket is one of the connections
        assert limits.per_address <= limits.connections and limits.sockets <= limits.connections
        assert limits.sockets_per_address <= limits.sockets


class Transport:
    def __init__(self) -> None:
        self.aborted = False

    def abort(self) -> None:
        self.aborted = True


def test_a_newcomer_over_a_cap_pushes_out_the_oldest_socket_still_waiting_for_headers():
    book = Book(Limits(connections=3, per_address=2))
    a1, a2, b1, a3, c1 = (Transport() for _ in range(5))
    assert book.admit(a1, "10.0.0.1") and book.admit(a2, "10.0.0.1")
    book.request_in(a1)  # a1 sent its whole request: it is served, never pushed out
    assert book.admit(a3, "10.0.0.1") and a2.aborted and not a1.aborted  # per address
    assert book.admit(b1, "10.0.0.2")
    assert book.admit(c1, "10.0.0.3") and a3.aborted and not b1.aborted  # overall: a3 waited longest
    for t in (b1, c1):
        book.request_in(t)
    assert not book.admit(Transport(), "10.0.0.4")  # nobody left to push out: the newcomer is refused


def test_the_host_header_is_read_as_browsers_send_it():
    assert split_host("Unox-Pi.local:8765") == "unox-pi.local"
    assert split_host("[::1]:8765") == "::1"
    assert split_host("192.168.1.20") == "192.168.1.20"


def test_a_connection_that_never_sent_a_request_goes_before_a_phones_idle_keep_alive():
    """Issue 25 item 3: a flood of fresh sockets pushes out its own kind first, not a phone's kept-alive
    connection waiting for the page's next request (whose next load would be reset)."""
    book = Book(Limits(connections=3, per_address=3))
    phone, flood = Transport(), [Transport() for _ in range(6)]
    assert book.admit(phone, "10.0.0.9")
    book.request_in(phone)
    book.waiting(phone)  # served once, now an idle keep-alive: the oldest connection of all
    for sock in flood:
        assert book.admit(sock, f"10.0.1.{flood.index(sock)}")
    assert not phone.aborted and sum(s.aborted for s in flood) == 4
    book.request_in(flood[-1])
    book.request_in(flood[-2])
    assert book.admit(Transport(), "10.0.2.1") and phone.aborted  # only then the idle one


def test_an_address_opening_sockets_that_send_nothing_runs_out_of_its_allowance():
    """Issue 25 item 3: a burst, then `new_per_s`; each connection that sends a whole request gives its
    allowance back, so a page that keeps loading is never limited."""
    clock = Clock()
    book = Book(Limits(new_per_s=5, new_burst=10), clock=clock)
    held = [Transport() for _ in range(10)]
    assert all(book.admit(t, "10.0.0.1") for t in held)
    for t in held:
        book.request_in(t)  # served: none of them is pushed out below
        book.drop(t)  # ... and gone; the allowance came back with each whole request
    fresh = [Transport() for _ in range(10)]
    assert all(book.admit(t, "10.0.0.1") for t in fresh)  # ten that send nothing: the burst
    other = Transport()
    assert book.admit(other, "10.0.0.2")  # another address has its own
    assert not book.admit(Transport(), "10.0.0.1")  # past it: refused, and nobody pushed out for it
    assert not any(t.aborted for t in [*fresh, other])
    clock.t += 0.2  # a fifth of a second later: one more
    assert book.admit(Transport(), "10.0.0.1") and not book.admit(Transport(), "10.0.0.1")
    book.request_in(fresh[0])  # a whole request: its allowance comes back
    assert book.admit(Transport(), "10.0.0.1")
    loads = 0
    for _ in range(200):  # a page loading over and over, every connection used
        sock = Transport()
        loads += book.admit(sock, "10.0.0.3")
        book.request_in(sock)
        book.drop(sock)
    assert loads == 200


def test_websocket_slots_are_per_seat_and_the_table_views_share_theirs():
    """Issue 25 item 2: table views from many addresses cannot take the players' slots."""
    book = Book(Limits(sockets=64, sockets_per_address=16))
    views = [Transport() for _ in range(64)]
    upgraded = 0
    for i, view in enumerate(views):
        book.admit(view, f"10.0.0.{i % 4}")
        upgraded += book.may_upgrade(view, "table") is None
    assert upgraded == 16
    refused = book.may_upgrade(views[-1], "table")
    assert refused is not None and "operator can sign the table views out" in refused
    phones = [Transport() for _ in range(7)]
    for phone in phones:
        book.admit(phone, "10.0.9.1")
    assert [book.may_upgrade(p, "Ann") for p in phones[:6]] == [None] * 6
    assert "Ann's seat" in book.may_upgrade(phones[6], "Ann")
    assert book.may_upgrade(phones[6], "Bob") is None


def test_events_are_one_line_a_minute_per_kind(caplog):
    """Issue 25 item 4: 11,027 lines for one slow-body run became a few: one per kind a minute."""
    clock = Clock()
    events = Events(clock)
    with caplog.at_level(logging.WARNING, logger="unox.web.guard"):
        for _ in range(3000):
            events.note("slow", "closed a slow one")
            events.note("rate", "refused a fast one")
            clock.t += 0.125  # 375 s in all
    lines = [r.getMessage() for r in caplog.records if r.name == "unox.web.guard"]
    assert len(lines) == 14  # at 0, 60, ... 360 s, each kind
    assert lines[:4] == ["closed a slow one", "refused a fast one",
                         "closed a slow one (479 more since the last line)",
                         "refused a fast one (479 more since the last line)"]


def test_a_repeated_log_message_is_one_line_a_minute():
    clock = Clock()
    quiet = QuietRepeats(clock)
    logger = logging.getLogger("unox.test.quiet")
    passed = []
    for _ in range(1300):
        record = logger.makeRecord(logger.name, logging.WARNING, __file__, 1, "client gone", (), None)
        if quiet.filter(record):
            passed.append(record.getMessage())
        clock.t += 0.125
    assert passed == ["client gone", "client gone (479 more since the last line)",
                      "client gone (479 more since the last line)"]


def test_the_listening_socket_resets_an_address_past_its_allowance_before_asyncio_sees_it():
    """Issue 25 item 3: a flood's connection costs an accept and a reset, no transport, task or protocol."""
    import socket

    from unox.web.guard import GatedSocket

    with GatedSocket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.settimeout(5)
        listener.refuse = lambda address: address == "127.0.0.5"
        port = listener.getsockname()[1]
        flood = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.5", 0))
        phone = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.6", 0))
        conn, address = listener.accept()
        assert address[0] == "127.0.0.6"
        with pytest.raises(ConnectionResetError):
            flood.recv(1)
        conn.close()
        for sock in (flood, phone):
            sock.close()
