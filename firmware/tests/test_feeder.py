# unittest tests, under the real MicroPython, of the feeder's electrical care (issue 17): a card is counted
# only when the beam stays blocked 4 ms (a glitch on the lead is not a card), and every reverse pulse comes
# after 30-50 ms of braking (both bridge inputs high), never straight from full speed forward.
import unittest

import machine
from rig import Rig, adc_raw
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


class TestLastCardLeftInTheBeam(unittest.TestCase):
    # Issue 13 item 7: a fire's last card that never leaves the beam, a block that never ends. The battery
    # ADC shows when the roller stalls: a card wedged in the nip holds it within its own length; a snagged
    # one lets it turn until the next card jams behind it, later still when the snagged block is a pair.
    def stop_in_the_beam(self, stall_after_ms):
        rig = Rig(machine, cards=0)  # no real cards: only the test touches the beam and the pack
        rig.connect()
        adc, beam = PINS["battery_adc"], rig.pin("beam")
        machine.set_adc(adc, adc_raw(4300))  # the roller turning freely
        rig.fire(2)
        rig.run(100, dt=1)  # at speed
        beam.drive(0)
        rig.run(40, dt=1)  # one card blocks the beam 40 ms: that is one card's length at this speed
        beam.drive(1)
        rig.run(20, dt=1)
        beam.drive(0)  # the last card: it never leaves the beam
        rig.run(stall_after_ms, dt=1)
        machine.set_adc(adc, adc_raw(3700))  # the roller held: stall current sags the pack
        reversals = rig.reversals
        rig.run(3000, dt=1)
        [fired] = [f[2] for f in rig.frames("FIRED")]
        return fired[0], fired[2], rig.reversals - reversals

    def test_a_stall_past_191_percent_of_a_card_is_a_snagged_pair(self):
        self.assertEqual(self.stop_in_the_beam(90), ("3", "stuck", 3))

    def test_a_stall_between_one_card_and_191_percent_is_one_snagged_card(self):
        self.assertEqual(self.stop_in_the_beam(70), ("2", "stuck", 3))

    def test_a_stall_within_one_card_is_a_wedged_card_reversed_8_times(self):
        self.assertEqual(self.stop_in_the_beam(30), ("2", "stuck", 8))

    def test_a_stall_between_120_and_160_percent_is_a_wedged_pair_reversed_8_times_and_counted_two(self):
        # later than one wedged card stalls (within its length), sooner than a snagged one (1.65 blocks)
        self.assertEqual(self.stop_in_the_beam(56), ("3", "stuck", 8))

    def test_a_stall_between_160_and_170_percent_gets_8_pulses_and_counts_one(self):
        # a snagged card, or a long pair wedged near its tail (up to 1.66 blocks): pulses may free the pair
        self.assertEqual(self.stop_in_the_beam(66), ("2", "stuck", 8))
