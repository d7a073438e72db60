# unittest tests of firmware/main.py under the real MicroPython: the watchdog is armed before anything
# else, is fed by the loop, and Ctrl-C (KeyboardInterrupt) at any point stops the motor and pauses it.
import unittest

import machine
from unoxfw.link import Endpoint
from unoxfw.pins import PINS

_WDT_CTRL = 0x40058000
_ENABLE = 1 << 30


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
        self.run_main = self.main["run"]

    def test_watchdog_is_armed_before_anything_else_then_fed_and_paused_on_ctrl_c(self):
        self.assertEqual(len(machine.wdts), 1)  # loading main.py armed it...
        self.assertEqual(machine.wdts[0].timeout, 5000)
        self.assertEqual(len(machine._pins), 0)  # ...before a single pin was set up
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


if __name__ == "__main__":
    unittest.main()
