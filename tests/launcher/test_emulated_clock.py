"""A host on the pty of `unox simulate-device --chip` times its link on the emulated chip's clock, which the
simulator keeps current in a file beside the pty (docs/pico.md); a real port, or a file whose writer is gone,
keeps real time."""

from __future__ import annotations

import os
import subprocess
import sys

from unox.launcher.clock import EMULATED_CLOCK, EmulatedClock, RealClock, clock_for, emulated_clock_path


class FakePort:
    def __init__(self, port: str):
        self.port = port


def publish(port: str, pid: int, emulated_us: int) -> None:
    path = emulated_clock_path(port)
    assert path is not None
    path.write_bytes(EMULATED_CLOCK.pack(pid, emulated_us))


def test_a_pty_with_a_live_publisher_gets_the_emulated_clock():
    port = "/dev/pts/9999"
    publish(port, os.getpid(), 1_234_000)
    try:
        clock = clock_for(FakePort(port))
        assert isinstance(clock, EmulatedClock) and clock.now() == 1.234
        publish(port, os.getpid(), 1_734_000)
        assert clock.now() == 1.734  # read afresh each time: the chip's time, not the wall's
    finally:
        emulated_clock_path(port).unlink()


def test_a_file_left_by_a_dead_simulator_or_a_real_port_keeps_real_time():
    port = "/dev/pts/9998"
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout
    publish(port, int(gone), 5_000_000)
    try:
        assert isinstance(clock_for(FakePort(port)), RealClock)
    finally:
        emulated_clock_path(port).unlink()
    assert emulated_clock_path("/dev/ttyACM0") is None
    assert isinstance(clock_for(FakePort("/dev/ttyACM0")), RealClock)

