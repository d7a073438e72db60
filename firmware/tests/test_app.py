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

    def test_hello_names_the_board_by_its_unique_id_in_lower_case_hex(self):
        rig = Rig(machine, cards=20)
        rig.connect()
        hello = rig.frames("HELLO")[0][2]
        self.assertEqual(len(hello), 4)  # proto, version, board, epoch (last)
        self.assertEqual(machine.unique_id(), b"\xe6\x61\x41\x04\x03\x2a\x5c\x2b")
        self.assertEqual(hello[2], "e6614104032a5c2b")  # lower-case hex, as MicroPython's USB serial number

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
        self.assertEqual(rig.frames("FIRED")[0][2][3], f"{seq:02X}")

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

    def test_jam_after_retry_and_stuck(self):
        rig = Rig(machine, cards=10, wedge=(2, 5))
        rig.connect()
        rig.fire(3)
        rig.run(6000)
        self.assertEqual(rig.frames("FIRED")[0][2][2], "jam")
        self.assertEqual(rig.frames("FIRED")[0][2][0], str(rig.fired))  # the wedged card is not fired
        self.assertEqual(rig.fired, 1)
        rig = Rig(machine, cards=10, stick=2)
        rig.connect()
        rig.fire(2)
        rig.run(6000)
        self.assertEqual(rig.frames("FIRED")[0][2][2], "stuck")
        self.assertEqual(rig.motor(), 0)

    def test_jam_sag_is_no_low_battery_but_a_low_pack_is(self):
        from unoxfw.settings import LIMITS

        low = LIMITS["low_mv"][0]
        rig = Rig(machine, cards=10, wedge=(2, 5), pack=(4500, 4390, low - 200), recover_ms=100)
        rig.connect()
        rig.fire(3)
        rig.run(6000)
        self.assertTrue(rig.pack_min < low)
        self.assertEqual([f[2][1] for f in rig.frames("BATTERY")], ["ok"])
        rig.pack = (low - 150, low - 260, low - 900)
        rig.run(2500)
        self.assertEqual(rig.frames("BATTERY")[-1][2][1], "low")

    def test_press_beeps_and_standalone_fires(self):
        rig = Rig(machine, cards=100, seed=4)
        for _ in range(20):
            rig.press()
            rig.run(2500)
        self.assertEqual(rig.app.presses_taken, 20)
        self.assertTrue(rig.beeps() >= 20)
        self.assertEqual(rig.app.counted, rig.fired)

    def test_release_chatter_seen_only_while_low_is_one_press(self):
        # the loop looks every 2 ms, in step with 1 ms release chatter: it sees the button down each time
        rig = Rig(machine, cards=20)
        button = rig.pin("button")
        button.drive(0)
        rig.run(100, dt=1)
        for _ in range(3):
            button.drive(1)
            button.drive(0)
            rig.run(2, dt=2)
        button.drive(1)
        rig.run(500)
        self.assertEqual(rig.app.presses_taken, 1)
        self.assertEqual(rig.board.presses(), 4)

    def test_sleep_then_waking_press_is_silent(self):
        rig = Rig(machine, cards=10, config={"sleep_ms": 10000})
        rig.run(10500)
        self.assertEqual(rig.app.mode(), "asleep")
        t = rig.now
        rig.press()
        rig.run(300)
        self.assertEqual(rig.beeps(t), 0)
        self.assertEqual(rig.app.mode(), "alone")

    def test_host_silence_stops_motor(self):
        rig = Rig(machine, cards=40, feed_ms=400)
        rig.connect()
        rig.fire(13)
        rig.run(300)
        rig.host_silent = True
        rig.run(2000)
        self.assertEqual(rig.motor(), 0)
        self.assertTrue(rig.app.link_lost)


class TestBoard(unittest.TestCase):
    def test_motor_pins_and_battery(self):
        from unoxfw.board import Board
        from unoxfw.pins import BATTERY, PINS

        machine.reset_all()
        board = Board(machine, PINS, BATTERY)
        board.motor(-0.5)
        self.assertEqual(machine.pwm(PINS["motor_in1"]).duty_u16(), 0)
        self.assertEqual(machine.pwm(PINS["motor_in2"]).duty_u16(), 32767)
        machine.set_adc(PINS["battery_adc"], 65535)
        div = (BATTERY["r_top_ohm"] + BATTERY["r_bottom_ohm"]) / BATTERY["r_bottom_ohm"]
        self.assertEqual(board.battery_mv(), int(BATTERY["adc_ref_mv"] * div))

    def test_beam_edges_timed_by_the_irq_with_ticks(self):
        from unoxfw.board import Board
        from unoxfw.pins import BATTERY, PINS

        machine.reset_all()
        now = [0]
        board = Board(machine, PINS, BATTERY, ticks=lambda: now[0])
        beam = machine.pin(PINS["beam"])
        beam.drive(1)
        for start in (100, 200):
            now[0] = start
            beam.drive(0)
            now[0] = start + 56
            beam.drive(1)
        self.assertEqual(board.beam_count(), 2)
        self.assertEqual(board.beam_changed_ms(999), 256)


    # ---- the fast press (issue 22): the board's timer at the glitch filter's end, not the loop ----------
    def _fast_rig(self, connect=False):
        from unoxfw.profile import Standalone

        seed = 1
        while Standalone(seed).next_count() == 0:
            seed += 1  # a boot whose first standalone draw fires
        rig = Rig(machine, cards=20, seed=seed, timed=True)
        rig.board.use_schedule(lambda f, arg: f(arg), rig.app.on_press)  # micropython.schedule, run at once
        if connect:
            rig.connect()
        rig.run(20)
        return rig

    def _at(self, rig, ms):
        # time passes with no loop tick: only the timers run, as IRQs do while the loop is elsewhere
        rig.now += ms
        machine.run_timers(rig.now)

    def test_a_standalone_press_starts_the_motor_from_its_timer_2_ms_after_the_fall(self):
        rig = self._fast_rig()
        draw = rig.app._draw
        rig.pin("button").drive(0)
        self._at(rig, 1)
        self.assertEqual(rig.motor(), 0)  # inside the glitch filter: nothing yet
        self._at(rig, 1)
        self.assertTrue(rig.motor() > 0)  # the filter's end: started with no loop tick since the fall
        self.assertEqual(rig.app.presses_taken, 1)
        self.assertTrue(rig.app.feeder.busy())  # the app took it as a standalone fire at once
        rig._release_at = rig.now + 40
        rig.run(4000)
        self.assertEqual(rig.fired, draw)
        self.assertEqual(rig.app.counted, draw)
        self.assertEqual(rig.app.presses_taken, 1)
        self.assertEqual(rig.motor(), 0)

    def test_a_glitch_shorter_than_the_filter_never_starts_the_motor(self):
        rig = self._fast_rig()
        rig.pin("button").drive(0)
        self._at(rig, 1)
        rig.pin("button").drive(1)
        self._at(rig, 1)
        self.assertEqual(rig.motor(), 0)
        rig.run(200)
        self.assertEqual(rig.app.presses_taken, 0)
        self.assertEqual(rig.motor(), 0)

    def test_a_hosted_press_sends_its_button_from_the_timer_and_starts_no_motor(self):
        rig = self._fast_rig(connect=True)
        rig.io.out = b""
        rig.pin("button").drive(0)
        self._at(rig, 2)
        self.assertIn(b" BUTTON 1 ", rig.io.out)  # written with no loop tick since the fall
        self.assertEqual(rig.motor(), 0)
        self.assertFalse(rig.app.feeder.busy())

    def test_a_press_during_a_fire_leaves_the_motor_to_the_feeder(self):
        rig = self._fast_rig(connect=True)
        rig.fire(3)
        rig.run(60)
        self.assertTrue(rig.app.feeder.busy())
        rig.io.out = b""
        rig.pin("button").drive(0)
        self._at(rig, 2)
        self.assertIn(b" BUTTON 1 ", rig.io.out)
        rig._release_at = rig.now + 40
        rig.run(6000)
        self.assertEqual(rig.fired, 3)
        self.assertEqual(rig.frames("FIRED")[0][2][:3], ("3", "3", "-"))


if __name__ == "__main__":
    unittest.main()
