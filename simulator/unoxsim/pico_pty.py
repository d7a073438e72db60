"""The emulated Pico on a pseudo-terminal: the chip runs as fast as the emulator goes, not paced to the wall.

`PtyServer` paces a `VirtualDevice` to real time; the emulated chip runs at most about as fast as real time
(0.15-0.8 emulated s per wall s, docs/pico.md), so `ChipPtyServer` steps it continuously, a few emulated ms
per turn, and moves the bytes between the pty and the chip's USB serial after each turn. The control socket
and the signal-queued commands work as in `PtyServer`.
"""

from __future__ import annotations

import os
import select
import struct
import subprocess
from collections.abc import Callable, Sequence

from unoxsim.control import command
from unoxsim.pico import PicoDevice
from unoxsim.pty_server import PtyServer

CLOCK = struct.Struct("<qq")  # as unox.launcher.clock.EMULATED_CLOCK: writer's pid, emulated us
TURN_MS = 2  # emulated ms per turn: a byte from the pty waits at most this long for the chip


class ChipPtyServer(PtyServer):
    """A pty pair with the emulated Pico's USB serial on the master side; `path` is the slave."""

    def __init__(self, device: PicoDevice) -> None:
        super().__init__(device)  # type: ignore[arg-type]  # the same public face as VirtualDevice
        self.clock_fd: int | None = None

    def publish_clock(self, path: str) -> None:
        """Keep (pid, emulated us) current in `path` (unox.launcher.clock.EmulatedClock reads it), so a
        host on this pty times its link on the chip's clock, not on the wall's."""
        self.clock_path = path
        self.clock_fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        self._tick_clock()

    def _tick_clock(self) -> None:
        if self.clock_fd is not None:
            os.pwrite(self.clock_fd, CLOCK.pack(os.getpid(), self.device.now_us()), 0)  # type: ignore[attr-defined]

    def serve(self, stop: Callable[[], bool] = lambda: False, clock: object = None,
              poll_s: float = 0.0) -> None:
        """Run until `stop()` is true (or KeyboardInterrupt), stepping the chip TURN_MS at a time."""
        while not stop():
            extra = self.control.fds() if self.control else []
            readable, _, _ = select.select([self.master, *extra], [], [], 0)
            if self.master in readable:
                self._from_client()
            if self.control and readable:
                self.control.serve(readable)
            while self.requests:
                command(self.device, self.requests.pop(0))  # type: ignore[arg-type]
            self.device.advance(TURN_MS)
            self._tick_clock()
            self._to_client()

    def runner(self, output: int | None = None) -> Callable[[Sequence[str]], int]:
        """A runner for `unox.cli.commands.firmware.flash`: runs a command (mpremote) against this pty
        while serving the chip, so the firmware goes on the emulated flash the way it goes on a Pico."""

        def run(argv: Sequence[str]) -> int:
            proc = subprocess.Popen(list(argv), stdout=output, stderr=output)
            try:
                self.serve(stop=lambda: proc.poll() is not None)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            return proc.returncode

        return run

    def close(self) -> None:
        if self.clock_fd is not None:
            os.close(self.clock_fd)
            self.clock_fd = None
            try:
                os.unlink(self.clock_path)
            except FileNotFoundError:
                pass
        super().close()
