# unittest tests, under the real MicroPython, of the feeder's electrical care (issue 17): a card is counted
# only when the beam stays blocked 4 ms (a glitch on the lead is not a card), and every reverse pulse comes
# after 30-50 ms of braking (both bridge inputs high), never straight from full speed forward.
import unittest

import machine
from rig import Rig
from unoxfw.pins import PINS

_FULL = 65535


def glitch(rig):
    # a spurious low far shorter than one loop: a falling edge (the IRQ counts it) and the line high again
    beam = rig.pin("beam")
    if beam.value() == 1:
        beam.drive(0)
        beam.drive(1)


class TestBeamDebounce(unittest.TestCase):
    def test_glitches_on_the_beam_line_while_the_motor_runs_are_not_cards(self):
        rig = Rig(machine, cards=20)
        rig.connect()
        rig.fire(3)
        glitches = 0
        for _ in range(600):
            rig.run(5)
            if rig.motor() > 0 and not rig._in_beam:
                glitch(rig)
                glitches += 1
        self.assertTrue(glitches > 50)
        [fired] = [f[2] for f in rig.frames("FIRED")]
        self.assertEqual((fired[0], fired[2]), ("3", "-"))
        self.assertEqual(rig.fired, 3)  # the rig's cards out: the glitches fired nothing extra

    def test_a_block_counts_after_4_ms_not_before(self):
        rig = Rig(machine, cards=0)  # no real cards: only the test touches the beam
        rig.connect()
        rig.fire(2)
        rig.run(10, dt=1)
        feeder = rig.app.feeder
        beam = rig.pin("beam")
        beam.drive(0)
        rig.run(2, dt=1)
        beam.drive(1)  # a 2 ms block: noise
        rig.run(10, dt=1)
        self.assertEqual(feeder.fired(), 0)
        beam.drive(0)
        rig.run(3, dt=1)
        self.assertEqual(feeder.fired(), 0)  # 3 ms blocked: not yet
        rig.run(2, dt=1)
        self.assertEqual(feeder.fired(), 1)  # 5 ms: a card
        beam.drive(1)


class TestBrakeBeforeReverse(unittest.TestCase):
    def duties(self, rig, ms):
        in1, in2 = machine.pwm(PINS["motor_in1"]), machine.pwm(PINS["motor_in2"])
        trace = []
        for _ in range(ms):
            rig.run(1, dt=1)
            trace.append((in1.duty_u16(), in2.duty_u16()))
        return trace

    def check(self, trace):
        reverses = 0
        for i in range(1, len(trace)):
            if trace[i][0] == 0 and trace[i][1] > 0 and trace[i - 1] != trace[i]:
                reverses += 1
                braked = 0
                j = i - 1
                while j >= 0 and trace[j] == (_FULL, _FULL):
                    braked += 1
                    j -= 1
                self.assertTrue(30 <= braked <= 50, (i, braked))
                self.assertTrue(j < 0 or trace[j][1] == 0)  # before the brake: forward or off
        return reverses

    def test_the_end_of_fire_reverse_pulse_follows_a_brake(self):
        rig = Rig(machine, cards=20)
        rig.connect()
        rig.fire(2)
        self.assertEqual(self.check(self.duties(rig, 2000)), 1)
        self.assertEqual(rig.fired, 2)

    def test_the_stall_retry_reverse_pulse_follows_a_brake(self):
        rig = Rig(machine, cards=0)  # empty: a stall, the retry's reverse, then EMPTY
        rig.connect()
        rig.fire(1)
        self.assertEqual(self.check(self.duties(rig, 3500)), 1)
        self.assertEqual([f[2][2] for f in rig.frames("FIRED")], ["empty"])


if __name__ == "__main__":
    unittest.main()
