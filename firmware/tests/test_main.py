# unittest tests of firmware/main.py under the real MicroPython: the watchdog is armed before anything
# else, is fed by the loop, and Ctrl-C (KeyboardInterrupt) at any point stops the motor and pauses it.
import unittest

import machine
from unoxfw.link import Endpoint
from unoxfw.pins import PINS

_WDT_CTRL = 0x40058000  # RP2040 (Pico)
_WDT_CTRL_2350 = 0x400D8000  # RP2350 (Pico 2)
_ENABLE = 1 << 30
PICO = "Raspberry Pi Pico with RP2040"  # os.uname().machine of MicroPython's RPI_PICO build
PICO2 = "Raspberry Pi Pico2 with RP2350"  # ... and of its RPI_PICO2 build


class Clock:
    # a virtual `time`: every sleep_ms advances it; Ctrl-C arrives at stop_ms
    def __init__(self, stop_ms):
        self.now = 0
        self.stop = stop_ms

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.now += ms
        if self.now >= self.stop:
            raise KeyboardInterrupt


class ScriptIO:
    def __init__(self, data):
        self.data = data
        self.out = b""

    def read(self):
        data = self.data
        self.data = b""
        return data

    def write(self, data):
        self.out += data


class TimedIO(ScriptIO):
    # bytes from the host at given times of the virtual clock: [(ms, data), ...]
    def __init__(self, clock, script):
        ScriptIO.__init__(self, b"")
        self.clock = clock
        self.script = script

    def read(self):
        if self.script and self.clock.now >= self.script[0][0]:
            return self.script.pop(0)[1]
        return b""


class CtrlCAtBoot:
    # a `time` whose first reading is interrupted: Ctrl-C while main.py boots
    def ticks_ms(self):
        raise KeyboardInterrupt


def load_main():
    scope = {"__name__": "unox_main_under_test"}
    with open("/main.py") as f:
        exec(f.read(), scope)
    return scope


class TestMain(unittest.TestCase):
    def setUp(self):
        machine.reset_all()
        machine.mem32[_WDT_CTRL] = _ENABLE | 5000
        self.main = load_main()
        self.main["CHIP"] = PICO
        self.run_main = self.main["run"]

    def test_watchdog_is_armed_before_anything_else_then_fed_and_paused_on_ctrl_c(self):
        self.assertEqual(len(machine.wdts), 1)  # loading main.py armed it...
        self.assertEqual(machine.wdts[0].timeout, 5000)
        self.assertEqual(sorted(machine._pins), [14, 15])  # ...after the motor pins, before any other pin
        self.run_main(machine, Clock(3000), ScriptIO(b""), self.main["WDT"])
        self.assertEqual(len(machine.wdts), 1)
        self.assertTrue(2900 <= machine.wdts[0].feeds <= 3000)  # fed by every loop from the first
        self.assertEqual(machine.mem32[_WDT_CTRL] & _ENABLE, 0)

    def test_ctrl_c_during_boot_pauses_the_watchdog(self):
        board, app = self.run_main(machine, CtrlCAtBoot(), ScriptIO(b""), self.main["WDT"])
        self.assertIsNone(board)
        self.assertEqual(machine.mem32[_WDT_CTRL] & _ENABLE, 0)

    def test_ctrl_c_while_firing_stops_the_motor(self):
        host = []
        ep = Endpoint(host.append, epoch=9)
        ep.hello(("1", "t"), 0)
        ep.send("FIRE", ("5",), 0)
        machine.preset(PINS["lid"], 0)  # lid shut
        board, app = self.run_main(machine, Clock(200), ScriptIO(b"".join(host)), self.main["WDT"])
        self.assertTrue(app.feeder.busy())  # Ctrl-C came mid-fire
        self.assertEqual(board.motor_value(), 0)
        self.assertEqual(board.tone_hz(), 0)

    def test_the_keyboard_interrupt_is_off_while_the_loop_runs_and_on_again_when_it_stops(self):
        calls = []
        self.main["keyboard_interrupt"] = calls.append
        self.run_main(machine, Clock(300), ScriptIO(b""), self.main["WDT"])
        self.assertEqual(calls, [-1, 3])

    def test_the_repl_frame_mid_fire_stops_the_motor_answers_and_ends_the_loop(self):
        calls = []
        self.main["keyboard_interrupt"] = calls.append
        host = []
        ep = Endpoint(host.append, epoch=9)
        ep.hello(("1", "t"), 0)
        ep.send("FIRE", ("5",), 0)
        fire = b"".join(host)
        del host[:]
        ep.send("REPL", (), 0)
        machine.preset(PINS["lid"], 0)  # lid shut
        clock = Clock(60000)
        io = TimedIO(clock, [(0, fire), (200, b"".join(host))])
        board, app = self.run_main(machine, clock, io, self.main["WDT"])
        self.assertTrue(app.handover)
        self.assertTrue(app.feeder.busy())  # the REPL came mid-fire
        self.assertTrue(200 <= clock.now < 210)  # the loop ended at once, not at the clock's Ctrl-C
        self.assertEqual(board.motor_value(), 0)
        self.assertEqual(machine.mem32[_WDT_CTRL] & _ENABLE, 0)  # paused: the REPL session is not reset
        self.assertEqual(calls, [-1, 3])
        frames = Endpoint(host.append).decoder.feed(io.out)
        replies = [kind + " " + " ".join(args) for _, kind, args in frames]
        self.assertIn("REPL ok", replies)



class RaisingClock(Clock):
    # a virtual `time` whose sleep raises `error` at stop_ms: a bug in the loop, mid-fire
    def __init__(self, stop_ms, error):
        Clock.__init__(self, stop_ms)
        self.error = error

    def sleep_ms(self, ms):
        self.now += ms
        if self.now >= self.stop:
            self.motor_duty = machine.pwm(PINS["motor_in1"]).duty_u16()  # what ran when the bug struck
            machine.pwm(PINS["buzzer"]).duty_u16(32768)  # and a tone sounding, whatever the board thinks
            raise self.error


class BrokenAtBoot:
    def ticks_ms(self):
        raise OSError(5)


class TestFirstStatementsAndAnyException(unittest.TestCase):
    # Issue 23, findings 2 and 9: on a Pico 2 a watchdog reset may leave GP14/GP15 latched high, so they are
    # driven low before anything else; any exception, not only Ctrl-C, stops the motor and the buzzer.
    def setUp(self):
        machine.reset_all()
        machine.mem32[_WDT_CTRL] = _ENABLE | 5000
        self.main = load_main()
        self.main["CHIP"] = PICO

    def test_the_motor_pins_are_driven_low_before_the_watchdog_and_every_import(self):
        first = machine.log[:3]
        self.assertEqual(first[0], ("pin", PINS["motor_in1"], machine.Pin.OUT, 0))
        self.assertEqual(first[1], ("pin", PINS["motor_in2"], machine.Pin.OUT, 0))
        self.assertEqual(first[2], ("wdt", 5000))
        self.assertEqual(self.main["MOTOR_PINS"], (PINS["motor_in1"], PINS["motor_in2"]))

    def test_an_exception_mid_fire_stops_motor_and_buzzer_and_keeps_the_watchdog_armed(self):
        host = []
        ep = Endpoint(host.append, epoch=9)
        ep.hello(("1", "t"), 0)
        ep.send("FIRE", ("5",), 0)
        machine.preset(PINS["lid"], 0)  # lid shut
        clock = RaisingClock(200, ValueError("a bug"))
        with self.assertRaises(ValueError):
            self.main["run"](machine, clock, ScriptIO(b"".join(host)), self.main["WDT"])
        self.assertTrue(clock.motor_duty > 0)  # the motor ran when the bug struck
        self.assertEqual(machine.pwm(PINS["motor_in1"]).duty_u16(), 0)
        for key in ("motor_in1", "motor_in2"):
            pin = machine.pin(PINS[key])
            self.assertEqual((pin.mode, pin.value()), (machine.Pin.OUT, 0), key)  # taken back as a GPIO, low
        buzzer = machine.pin(PINS["buzzer"])
        self.assertEqual((buzzer.mode, buzzer.value()), (machine.Pin.OUT, 0))  # the piezo's pin low
        self.assertEqual(self.main["BUZZER_PIN"], PINS["buzzer"])
        self.assertEqual(machine.mem32[_WDT_CTRL] & _ENABLE, _ENABLE)  # not paused: it will reset the board
        self.assertEqual(machine.wdts[0].feeds > 0, True)

    def test_an_exception_at_boot_leaves_the_motor_pins_low_and_the_watchdog_armed(self):
        with self.assertRaises(OSError):
            self.main["run"](machine, BrokenAtBoot(), ScriptIO(b""), self.main["WDT"])
        for key in ("motor_in1", "motor_in2"):
            pin = machine.pin(PINS[key])
            self.assertEqual((pin.mode, pin.value()), (machine.Pin.OUT, 0), key)
        self.assertEqual(machine.mem32[_WDT_CTRL] & _ENABLE, _ENABLE)


class NoBoot:
    # stands in for unoxfw.runner in sys.modules: `from unoxfw.runner import boot, step` fails on it
    pass


class TestImportsAtOptLevel3(unittest.TestCase):
    # Review of issue 22: main.py compiles the firmware at opt_level 3 and must give the REPL its own level
    # back whatever ends the imports; an ImportError (not only Ctrl-C) left it at 3.
    def setUp(self):
        machine.reset_all()
        machine.mem32[_WDT_CTRL] = _ENABLE | 5000

    def test_a_broken_import_gives_the_repl_its_own_opt_level_back(self):
        import sys

        import micropython

        load_main()  # unoxfw.runner imported for real first
        runner = sys.modules["unoxfw.runner"]
        level = micropython.opt_level()
        micropython.opt_level(1)
        sys.modules["unoxfw.runner"] = NoBoot
        try:
            with self.assertRaises(ImportError):
                load_main()
            self.assertEqual(micropython.opt_level(), 1)
        finally:
            sys.modules["unoxfw.runner"] = runner
            micropython.opt_level(level)

    def test_the_imports_run_at_opt_level_3_and_the_level_comes_back(self):
        import sys

        import micropython

        seen = []

        class Spy:
            # `boot` read by main.py's import: the level it was imported at
            def __getattr__(self, name):
                seen.append((name, micropython.opt_level()))
                return getattr(runner, name)

        load_main()
        runner = sys.modules["unoxfw.runner"]
        level = micropython.opt_level()
        sys.modules["unoxfw.runner"] = Spy()
        try:
            scope = load_main()
        finally:
            sys.modules["unoxfw.runner"] = runner
        self.assertEqual(seen, [("boot", 3), ("step", 3)])
        self.assertEqual(micropython.opt_level(), level)
        self.assertIs(scope["boot"], runner.boot)


class TestWatchdogByChip(unittest.TestCase):
    # Issue 17 finding 9: on a Pico 2 (RP2350) the RP2040's register is another block; the pause must
    # clear ENABLE in the chip's own WATCHDOG CTRL and write nothing anywhere else.
    def setUp(self):
        machine.reset_all()
        machine.mem32[_WDT_CTRL] = _ENABLE | 5000
        machine.mem32[_WDT_CTRL_2350] = _ENABLE | 5000
        self.main = load_main()

    def test_the_register_is_chosen_by_the_chip_name(self):
        pause = self.main["pause_watchdog"]
        for chip, cleared, kept in ((PICO, _WDT_CTRL, _WDT_CTRL_2350), (PICO2, _WDT_CTRL_2350, _WDT_CTRL)):
            machine.mem32[_WDT_CTRL] = machine.mem32[_WDT_CTRL_2350] = _ENABLE | 5000
            self.main["CHIP"] = chip
            pause(machine)
            self.assertEqual(machine.mem32[cleared], 5000, chip)  # ENABLE cleared, the timeout kept
            self.assertEqual(machine.mem32[kept], _ENABLE | 5000, chip)
        self.assertIsInstance(self.main["CHIP"], str)  # read from this interpreter at load

    def test_ctrl_c_on_a_pico_2_pauses_the_rp2350_watchdog_and_leaves_0x40058000_alone(self):
        self.main["CHIP"] = PICO2
        self.main["run"](machine, Clock(300), ScriptIO(b""), self.main["WDT"])
        self.assertEqual(machine.mem32[_WDT_CTRL_2350] & _ENABLE, 0)
        self.assertEqual(machine.mem32[_WDT_CTRL], _ENABLE | 5000)

    def test_ctrl_c_on_a_pico_pauses_the_rp2040_watchdog_and_leaves_the_rp2350_address_alone(self):
        self.main["CHIP"] = PICO
        self.main["run"](machine, Clock(300), ScriptIO(b""), self.main["WDT"])
        self.assertEqual(machine.mem32[_WDT_CTRL] & _ENABLE, 0)
        self.assertEqual(machine.mem32[_WDT_CTRL_2350], _ENABLE | 5000)

    def test_on_an_unknown_chip_nothing_is_written(self):
        self.main["CHIP"] = "some other board"
        self.main["run"](machine, Clock(300), ScriptIO(b""), self.main["WDT"])
        self.assertEqual(machine.mem32[_WDT_CTRL], _ENABLE | 5000)
        self.assertEqual(machine.mem32[_WDT_CTRL_2350], _ENABLE | 5000)


if __name__ == "__main__":
    unittest.main()
