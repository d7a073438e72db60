# unittest tests of the firmware step machine on the fake machine, under the real MicroPython.
import unittest

import machine
from rig import Rig


class TestApp(unittest.TestCase):
    def test_fire_counts_exactly_n(self):
        for n in (1, 4, 13):
            rig = Rig(machine, cards=20)
            rig.connect()
            rig.host.send("FIRE", (n,), rig.now)
            rig.run(6000)
            self.assertEqual(rig.fired, n)
            fired = rig.frames("FIRED")
            self.assertEqual(len(fired), 1)
            self.assertEqual(fired[0][2][:3], (str(n), str(n), "-"))
            self.assertEqual(rig.motor(), 0)

    def test_retransmitted_fire_fires_once(self):
        rig = Rig(machine, cards=20)
        rig.connect()
        seq = rig.host.send("FIRE", (2,), rig.now)
        frame = rig.io.inbox
        rig.run(2000)
        rig.io.inbox += frame
        rig.run(2000)
        self.assertEqual(rig.fired, 2)
        self.assertEqual(len(rig.frames("FIRED")), 1)
        self.assertEqual(rig.frames("FIRED")[0][2][3], "%02X" % seq)

    def test_empty_hopper_reports_empty(self):
        rig = Rig(machine, cards=0)
        rig.connect()
        rig.host.send("FIRE", (2,), rig.now)
        rig.run(6000)
        self.assertEqual(rig.frames("FIRED")[0][2][2], "empty")
        self.assertEqual(len(rig.frames("EMPTY")), 1)

    def test_lid_open_never_runs_motor(self):
        rig = Rig(machine, cards=10)
        rig.connect()
        rig.set_lid(True)
        rig.run(100)
        rig.host.send("FIRE", (3,), rig.now)
        rig.run(2000)
        self.assertEqual(rig.max_motor_ms, 0)
        self.assertEqual(rig.frames("FIRED")[0][2][:3], ("0", "3", "lid"))

    def test_watchdog_is_fed_by_the_loop_only(self):
        rig = Rig(machine, cards=5)
        rig.board.wdt_start(5000)
        wdt = machine.wdts[-1]
        rig.run(100, feed=False)
        self.assertEqual(wdt.feeds, 0)
        rig.run(100)
        self.assertEqual(wdt.feeds, 20)


if __name__ == "__main__":
    unittest.main()
