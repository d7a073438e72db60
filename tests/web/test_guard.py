"""The guard's parts on their own: the caps under a file limit, out-of-files logging, the Host's name."""

from __future__ import annotations

import errno
import logging

from unox.web.guard import Book, Limits, OutOfFiles
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
    book.set_waiting(a1, False)  # a1 sent its headers: it is served, never pushed out
    assert book.admit(a3, "10.0.0.1") and a2.aborted and not a1.aborted  # per address
    assert book.admit(b1, "10.0.0.2")
    assert book.admit(c1, "10.0.0.3") and a3.aborted and not b1.aborted  # overall: a3 waited longest
    for t in (b1, c1):
        book.set_waiting(t, False)
    assert not book.admit(Transport(), "10.0.0.4")  # nobody left to push out: the newcomer is refused


def test_the_host_header_is_read_as_browsers_send_it():
    assert split_host("Unox-Pi.local:8765") == "unox-pi.local"
    assert split_host("[::1]:8765") == "::1"
    assert split_host("192.168.1.20") == "192.168.1.20"
