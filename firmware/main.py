# firmware/main.py: the only file that imports `machine`. Runs the launcher on a Raspberry Pi Pico.
#
# The motor pins first (issue 23): on a Pico 2 (RP2350, datasheet 9.3/9.7) a pad whose isolation latch is set
# keeps its output level across a watchdog reset, so GP14/GP15 could stay driven (high ~80 % of the time
# at duty 80) until Board() takes them a second later, or never if main.py breaks on the way. The very
# first statements drive them low (Pin() selects the GPIO function, which releases the latch), before the
# watchdog and every import. MOTOR_PINS must match pins.toml's motor_in1/motor_in2 (a test checks).
# Any exception in the loop (not only Ctrl-C) stops the motor and the buzzer and is raised again, with the
# watchdog still armed: it resets the board, which boots main.py afresh.
#
# Watchdog and mpremote (see docs/protocol.md, "Watchdog"):
# - The WDT is armed first of all, before any import or other work, so a hang anywhere in the boot (an
#   import, the board set-up, the first ticks) resets the board. unoxsim boots in this same order.
# - While the loop runs, no byte on the wire stops it: the keyboard interrupt is off
#   (micropython.kbd_intr(-1)), so a stray 0x03 is only a bad byte in a line. The REPL is entered on purpose:
#   `unox firmware flash` sends the frame REPL (docs/protocol.md); the app stops the motor, answers, and the
#   loop ends here with Ctrl-C enabled again and the watchdog paused, so mpremote finds MicroPython's REPL.
#   Before the loop (the imports, the board set-up) Ctrl-C still stops this file.
# - The WDT cannot be stopped through machine.WDT (RP2040 limit 8388 ms). On KeyboardInterrupt (during the
#   imports, the boot or the loop) the motor stops and the watchdog is paused by clearing WATCHDOG
#   CTRL.ENABLE (bit 30 on both chips), so the REPL session that follows is not reset mid-flash. The register
#   depends on the chip: 0x40058000 on the RP2040 (Pico, datasheet 4.7), 0x400D8000 on the RP2350 (Pico 2,
#   MicroPython's RPI_PICO2 build, datasheet 12.9; 0x40058000 is another block there). The chip is read
#   from the build's machine name ("... with RP2040" / "... with RP2350"); on any other, nothing is written.

import machine

MOTOR_PINS = (14, 15)  # pins.toml [pico] motor_in1, motor_in2
BUZZER_PIN = 13  # pins.toml [pico] buzzer: low after any exception too
for _pin in MOTOR_PINS:
    machine.Pin(_pin, machine.Pin.OUT, value=0)

WDT = machine.WDT(timeout=5000)  # unoxfw.runner.WDT_MS (a test checks the two agree)

import sys  # noqa: E402  (built in: nothing to compile or wait for, after the watchdog as every import)

CHIP = getattr(sys.implementation, "_machine", "")  # the build's name: "Raspberry Pi Pico2 with RP2350"


def pause_watchdog(machine):
    # clears ENABLE (bit 30) in the WATCHDOG CTRL register of the chip CHIP names: 0x400D8000 on the RP2350,
    # 0x40058000 on the RP2040; nothing on another chip. The numbers are built when called: each is above
    # MicroPython's small-int range, so as literals they would stay on the heap as four big-int constants.
    block = 0x400D if "RP2350" in CHIP else 0x4005 if "RP2040" in CHIP else 0
    if block:
        machine.mem32[block << 16 | 0x8000] &= ~(1 << 30)


try:
    import gc
    import select
    import time

    import micropython

    _opt = micropython.opt_level()
    # the firmware's modules compiled without line numbers: ~1.3 KB more heap (docs/benchmarks.md, issue 22's
    # fourth round); a traceback then shows `line 1` on every frame in them (the function names are right).
    # The REPL's own level comes back after them whatever happens (finally): a Ctrl-C or a broken module
    # during the imports leaves the REPL at its own level, not at 3.
    micropython.opt_level(3)
    try:
        from unoxfw.runner import boot, step

        try:
            from unoxfw.fast import read as _read  # native code where the port compiles it (the chip)
        except (ImportError, SyntaxError):
            # UsbIO's input loop where the port has no native code (unoxfw.fast.read is the same, compiled).
            # Defined only here: on the chip this function is never made, and its code is freed with the
            # module's after the import.
            def _read(ipoll, readinto, one, buf):
                n = 0
                while n < len(buf):
                    ready = False
                    for _ in ipoll(0):
                        ready = True
                        break
                    if not ready:
                        break
                    readinto(one)
                    buf[n] = one[0]
                    n += 1
                return n
    finally:
        micropython.opt_level(_opt)
except KeyboardInterrupt:
    pause_watchdog(machine)
    raise

keyboard_interrupt = micropython.kbd_intr  # -1 turns Ctrl-C off, 3 turns it back on


class UsbIO:
    # Non-blocking stdin: RP2 USB stdin has no partial reads, so poll and read one byte at a time, with
    # nothing allocated per byte (ipoll, readinto one preallocated byte; the loop in native code on the chip):
    # poll() and read(1) allocate three objects a byte (docs/benchmarks.md, issue 22's second round).
    def __init__(self):
        self._in = sys.stdin.buffer
        self.write = sys.stdout.buffer.write  # an attribute, not a method: one function less on the heap
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._buf = bytearray(64)
        self._one = bytearray(1)

    def read(self):
        buf = self._buf
        n = _read(self._poll.ipoll, self._in.readinto, self._one, buf)
        return bytes(buf[:n]) if n else b""

    def wait(self, ms):
        # sleeps up to `ms`, less when a byte comes in (a FIRE is read at once, not at the next tick);
        # scheduled callbacks (the board's press) run meanwhile. ipoll allocates nothing.
        for _ in self._poll.ipoll(ms):
            break


def scheduler():
    # micropython.schedule where the port has it (the board's fast press); None elsewhere
    return getattr(micropython, "schedule", None)


def run(machine, clock, io, wdt):
    # clock: the `time` module (ticks_ms, sleep_ms); tests pass a virtual one. wdt: the armed watchdog.
    board = app = None
    try:
        board, app = boot(machine, io, clock.ticks_ms(), wdt, ticks=clock.ticks_ms, schedule=scheduler())
        app.collect = gc.collect  # as each fire ends, before its result (unoxfw.app)
        keyboard_interrupt(-1)
        wait = getattr(io, "wait", clock.sleep_ms)
        while not app.handover:
            step(board, app, clock.ticks_ms())
            wait(1)
        raise KeyboardInterrupt  # REPL asked for: stop as Ctrl-C stops it
    except (KeyboardInterrupt, Exception) as exc:
        # Ctrl-C or the REPL asked for: Ctrl-C on again, the motor, the buzzer and the press timer off (no
        # press may start the motor from its timer in the REPL), the watchdog paused. Any other exception:
        # motor and buzzer off whatever state the board is in (None: it never came up), their pins low, and
        # the exception raised again with the watchdog armed: it resets the board, which boots afresh.
        asked = isinstance(exc, KeyboardInterrupt)
        if asked:
            keyboard_interrupt(3)
        try:
            if board is not None:
                board.arm_press(0)
                board.motor(0)
                board.tone(0)
        except Exception:
            if asked:
                raise
        if not asked:
            for pin in MOTOR_PINS + (BUZZER_PIN,):
                machine.Pin(pin, machine.Pin.OUT, value=0)
            raise exc
        pause_watchdog(machine)
    return board, app


if __name__ == "__main__":
    run(machine, time, UsbIO(), WDT)
