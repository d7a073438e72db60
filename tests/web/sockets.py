"""Waiting for the server to close sockets, shared by the web tests and `bench/web.py` (which imports it with
the checkout on its path): the same wait, whether a test counts the closed sockets or the bench times them."""

from __future__ import annotations

import selectors
import socket
import time


def closed_by_server(sockets: list[socket.socket], closed: int, timeout: float = 5.0) -> tuple[int, float]:
    """Wait until the server has closed `closed` of `sockets`, or `timeout` seconds pass: (how many it
    closed, the milliseconds waited). A socket reads as closed when it reads end-of-file or an error."""
    started = time.perf_counter()
    selector = selectors.DefaultSelector()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    done = 0
    while done < closed and time.perf_counter() - started < timeout:
        for key, _ in selector.select(timeout=0.1):
            try:
                data = key.fileobj.recv(1024)
            except OSError:
                data = b""
            if not data:
                selector.unregister(key.fileobj)
                done += 1
    selector.close()
    return done, (time.perf_counter() - started) * 1000
