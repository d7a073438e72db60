"""Serve a `VirtualDevice` on a pseudo-terminal, paced to real time, for any serial tool.

This is the one place where the simulator follows the wall clock: virtual time is advanced to match
real time (times `speed`), so a terminal program or `unox --launcher serial:/dev/pts/N` sees a launcher
that answers like the real one. The slave is put in raw mode before any traffic (a fresh pty echoes and
turns b"\\n" into b"\\r\\n"). The server keeps its own slave fd open, so clients may come and go without
the master reading EIO. Bytes the device sends while no client reads are dropped once the pty buffer is
full, as a USB CDC port with nobody listening would.

The device's front panel (the button, the lid, the hopper's count) is reached from outside through an
optional `ControlSocket` (`unoxsim.control`), served in the same loop, and through `requests`: commands
queued by a signal handler (SIGUSR1 presses the button), run between two steps.
"""

from __future__ import annotations

import os
import select
import time
import tty
from collections.abc import Callable

from unoxsim.control import ControlSocket, command
from unoxsim.device import VirtualDevice

_POLL_S = 0.002
_MAX_CATCH_UP_MS = 1000  # after a stall (suspended process), skip ahead rather than replay minutes


class PtyServer:
    """A pty pair with the device on the master side; `path` is the slave for clients to open."""

    def __init__(self, device: VirtualDevice, *, speed: float = 1.0) -> None:
        if not 0.01 <= speed <= 100:
            raise ValueError(f"speed={speed}: use 0.01..100 (virtual ms per real ms)")
        self.device = device
        self.speed = speed
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.dropped = 0
        self.control: ControlSocket | None = None
        self.requests: list[str] = []  # control commands queued from signal handlers

    def serve(self, stop: Callable[[], bool] = lambda: False,
              clock: Callable[[], float] = time.monotonic, poll_s: float = _POLL_S) -> None:
        """Run until `stop()` is true (or KeyboardInterrupt): shuttle bytes, keep virtual time paced."""
        start_real, start_virtual = clock(), self.device.now_ms()
        while not stop():
            extra = self.control.fds() if self.control else []
            readable, _, _ = select.select([self.master, *extra], [], [], poll_s)
            if self.master in readable:
                self._from_client()
            if self.control and readable:
                self.control.serve(readable)
            while self.requests:
                command(self.device, self.requests.pop(0))
            target = start_virtual + int((clock() - start_real) * 1000 * self.speed)
            behind = target - self.device.now_ms()
            if behind > _MAX_CATCH_UP_MS:
                start_virtual += behind - _MAX_CATCH_UP_MS
                behind = _MAX_CATCH_UP_MS
            if behind > 0:
                self.device.advance(behind)
            self._to_client()

    def _from_client(self) -> None:
        try:
            data = os.read(self.master, 4096)
        except (BlockingIOError, InterruptedError):
            return
        if data:
            self.device.host_write(data)

    def _to_client(self) -> None:
        data = self.device.host_read()
        while data:
            try:
                written = os.write(self.master, data)
            except BlockingIOError:
                self.dropped += len(data)
                return
            data = data[written:]

    def close(self) -> None:
        if self.control is not None:
            self.control.close()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
