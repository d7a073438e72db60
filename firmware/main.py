# firmware/main.py: the only file that imports `machine`. Runs the launcher on a Raspberry Pi Pico.
#
# Watchdog and mpremote (see docs/protocol.md, "Watchdog"):
# - The WDT is started only after a 2 s grace period, so a tool that sends Ctrl-C right after a reset
#   finds no watchdog running.
# - Frames never contain 0x03, so Ctrl-C stays enabled (no micropython.kbd_intr(-1)): mpremote and
#   `unox firmware flash` stop this loop with Ctrl-C.
# - The RP2040 WDT cannot be stopped through machine.WDT and its limit is 8388 ms. On KeyboardInterrupt
#   the loop stops the motor and pauses the watchdog by clearing WATCHDOG CTRL.ENABLE (bit 30 at
#   0x40058000, RP2040 datasheet 4.7), so the REPL session that follows is not reset mid-flash.

import select
import sys
import time

import machine
from micropython import const
from unoxfw.runner import start, step

_GRACE_MS = const(2000)
_WDT_MS = const(5000)
_WDT_CTRL = 0x40058000  # above the small-int range: not a const()
_WDT_ENABLE = 0x40000000


class UsbIO:
    # Non-blocking stdin: RP2 USB stdin has no partial reads, so poll and read one byte at a time.
    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._buf = bytearray(64)

    def read(self):
        n = 0
        while n < len(self._buf) and self._poll.poll(0):
            self._buf[n] = self._in.read(1)[0]
            n += 1
        return bytes(self._buf[:n]) if n else b""

    def write(self, data):
        self._out.write(data)


def run(machine, clock, io, grace_ms=_GRACE_MS):
    # clock: the `time` module (ticks_ms, ticks_diff, sleep_ms); tests pass a virtual one.
    board, app = start(machine, io, clock.ticks_ms())
    began = clock.ticks_ms()
    watching = False
    try:
        while True:
            now = clock.ticks_ms()
            if not watching and clock.ticks_diff(now, began) > grace_ms:
                board.wdt_start(_WDT_MS)
                watching = True
            step(board, app, now)
            clock.sleep_ms(1)
    except KeyboardInterrupt:
        board.motor(0)
        board.tone(0)
        if watching:
            machine.mem32[_WDT_CTRL] &= ~_WDT_ENABLE
    return board, app


if __name__ == "__main__":
    run(machine, time, UsbIO())
