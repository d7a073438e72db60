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

_WDT_ENABLE = 0x40000000  # above the small-int range: not a const()


def chip_name():
    # the build's machine name, as os.uname().machine gives it: "Raspberry Pi Pico2 with RP2350"
    import sys

    return getattr(sys.implementation, "_machine", "")


def wdt_ctrl(name):
    # the WATCHDOG CTRL register of the chip `name` (a MicroPython machine name), or None if unknown
    if "RP2350" in name:
        return 0x400D8000
    if "RP2040" in name:
        return 0x40058000
    return None


CHIP = chip_name()


def pause_watchdog(machine):
    ctrl = wdt_ctrl(CHIP)
    if ctrl is not None:
        machine.mem32[ctrl] &= ~_WDT_ENABLE


try:
    import gc
    import select
    import sys
    import time

    import micropython

    _opt = micropython.opt_level()
    # the firmware's modules compiled without line numbers: ~1.3 KB more heap (docs/benchmarks.md, issue 22's
    # fourth round); a traceback names the function only. The REPL's own level comes back after them (a
    # Ctrl-C during the imports leaves it at 3 until the next reset: only asserts and line numbers differ).
    micropython.opt_level(3)
    from unoxfw.runner import boot, step

    try:
        from unoxfw.fast import read as _read  # native code where the port compiles it (the chip)
    except (ImportError, SyntaxError):
        _read = None
    micropython.opt_level(_opt)
except KeyboardInterrupt:
    pause_watchdog(machine)
    raise


def _read_bytes(ipoll, readinto, one, buf):
    # UsbIO's input loop where the port has no native code (unoxfw.fast.read is the same, compiled)
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


class UsbIO:
    # Non-blocking stdin: RP2 USB stdin has no partial reads, so poll and read one byte at a time, with
    # nothing allocated per byte (ipoll, readinto one preallocated byte; the loop in native code on the chip):
    # poll() and read(1) allocate three objects a byte (docs/benchmarks.md, issue 22's second round).
    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._buf = bytearray(64)
        self._one = bytearray(1)

    def read(self):
        buf = self._buf
        n = (_read or _read_bytes)(self._poll.ipoll, self._in.readinto, self._one, buf)
        return bytes(buf[:n]) if n else b""

    def write(self, data):
        self._out.write(data)

    def wait(self, ms):
        # sleeps up to `ms`, less when a byte comes in (a FIRE is read at once, not at the next tick);
        # scheduled callbacks (the board's press) run meanwhile. ipoll allocates nothing.
        for _ in self._poll.ipoll(ms):
            break


def keyboard_interrupt(char):
    # micropython.kbd_intr(char): -1 turns Ctrl-C off, 3 turns it back on
    import micropython

    micropython.kbd_intr(char)


def scheduler():
    # micropython.schedule where the port has it (the board's fast press); None elsewhere
    try:
        import micropython

        return micropython.schedule
    except (ImportError, AttributeError):
        return None


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
    except KeyboardInterrupt:
        keyboard_interrupt(3)
        if board is not None:
            board.arm_press(0)  # no press may start the motor from its timer in the REPL
            board.motor(0)
            board.tone(0)
        pause_watchdog(machine)
    except Exception:
        stop_outputs(machine, board)
        raise  # the watchdog stays armed: it resets the board, which boots afresh
    return board, app


def stop_outputs(machine, board):
    # motor and buzzer off whatever state the board is in (None: it never came up)
    if board is not None:
        try:
            board.arm_press(0)
            board.motor(0)
            board.tone(0)
        except Exception:
            pass
    for pin in MOTOR_PINS + (BUZZER_PIN,):
        machine.Pin(pin, machine.Pin.OUT, value=0)


if __name__ == "__main__":
    run(machine, time, UsbIO(), WDT)
