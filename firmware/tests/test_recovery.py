# unittest tests, under the real MicroPython, of what lets a host recover exactly: fires remembered by id
# (QUERY), standalone fires queued until TAKEN (ALONE), the count kept through a cut's run-down, the
# on-time cap's timer backstop, and silence_ms checked against the host's heartbeat.
import unittest

import machine
from rig import Rig


def results(rig, fire_id):
    return [f[2] for f in rig.frames("RESULT") if f[2][0] == str(fire_id)]


class TestFireIds(unittest.TestCase):
    def test_a_fire_named_by_id_is_told_by_query_and_asking_fires_nothing(self):
        rig = Rig(machine, cards=20)
        rig.connect()
        rig.host.send("FIRE", (3, 1234), rig.now)
        rig.run(200)
        rig.host.send("QUERY", (1234,), rig.now)
        rig.run(20)
        self.assertEqual(results(rig, 1234), [("1234", "running")])  # still firing
        rig.run(3000)
        rig.host.send("QUERY", (1234,), rig.now)
        rig.host.send("QUERY", (99,), rig.now)
        rig.run(100)
        self.assertEqual(results(rig, 1234)[-1], ("1234", "3", "3", "-", "-"))
        self.assertEqual(results(rig, 99), [("99", "unknown")])
        self.assertEqual(rig.fired, 3)  # asking fired nothing

    def test_a_new_host_session_can_ask_what_the_old_one_fired(self):
        rig = Rig(machine, cards=20)
        rig.connect()
        rig.host.send("FIRE", (13, 77), rig.now)
        rig.run(400)
        rig.connect()  # a restarted host: a new HELLO stops the fire it never asked for
        rig.run(2000)
        self.assertEqual(rig.motor(), 0)
        rig.host.send("QUERY", (77,), rig.now)
        rig.run(100)
        answer = results(rig, 77)[-1]
        self.assertEqual(answer[2:4], ("13", "link"))
        self.assertEqual(int(answer[1]), rig.fired)  # exactly what came out
        self.assertTrue(0 < rig.fired < 13)

    def test_only_the_last_16_fires_are_remembered(self):
        rig = Rig(machine, cards=40, feed_ms=20)
        rig.connect()
        for fire_id in range(1, 18):
            rig.host.send("FIRE", (1, fire_id), rig.now)
            rig.run(600)
        rig.host.send("QUERY", (1,), rig.now)
        rig.host.send("QUERY", (2,), rig.now)
        rig.run(100)
        self.assertEqual(results(rig, 1), [("1", "unknown")])
        self.assertEqual(results(rig, 2)[-1][1:4], ("1", "1", "-"))

    def test_a_bad_fire_id_is_refused_and_nothing_fires(self):
        rig = Rig(machine, cards=5)
        rig.connect()
        rig.host.send("FIRE", (2, "0"), rig.now)
        rig.host.send("FIRE", (2, "2147483648"), rig.now)
        rig.run(500)
        self.assertEqual([f[2][:2] for f in rig.frames("ERR")], [("FIRE", "bad_id")] * 2)
        self.assertEqual(rig.max_motor_ms, 0)


class TestStandalone(unittest.TestCase):
    def press_alone(self, rig, presses):
        # presses while no host listens; each fires the Standalone profile's count
        for _ in range(presses):
            rig.press()
            rig.run(2500)

    def test_standalone_fires_reach_the_host_and_are_forgotten_once_taken(self):
        rig = Rig(machine, cards=40, seed=3)
        self.press_alone(rig, 5)
        rig.connect()
        rig.run(300)
        alone = rig.frames("ALONE")
        self.assertEqual([int(f[2][1]) for f in alone], [1, 2, 3, 4, 5])
        self.assertEqual(sum(int(f[2][2]) for f in alone), rig.fired)  # every card that came out
        for frame in alone:
            rig.host.send("TAKEN", (frame[2][0], frame[2][1]), rig.now)
        rig.run(100)
        self.assertEqual(rig.app.alone, [])
        rig.received = []
        rig.connect()  # a new session: nothing is sent again
        rig.run(300)
        self.assertEqual(rig.frames("ALONE"), [])

    def test_a_fire_made_while_the_link_was_lost_is_sent_when_the_host_is_back(self):
        rig = Rig(machine, cards=40, seed=5, config={"link_ms": 1000})
        rig.connect()
        rig.host_silent = True
        rig.run(1500)  # the link is lost: presses fire alone
        self.press_alone(rig, 3)
        self.assertEqual(rig.frames("ALONE"), [])
        rig.host_silent = False
        rig.host.send_unreliable("HEARTBEAT")
        rig.run(1500)
        counts = {}
        for f in rig.frames("ALONE"):
            counts[f[2][1]] = int(f[2][2])  # a copy sent again after the link came back counts once
        self.assertEqual(sorted(counts), ["1", "2", "3"])
        self.assertEqual(sum(counts.values()), rig.fired)

    def test_more_than_the_window_of_untaken_fires_all_arrive(self):
        rig = Rig(machine, cards=112, seed=7)
        self.press_alone(rig, 12)
        rig.connect()
        rig.run(3000)
        numbers = sorted(set(int(f[2][1]) for f in rig.frames("ALONE")))
        self.assertEqual(numbers, list(range(1, 13)))
        self.assertEqual(rig.app.link.overflows, 0)


    def test_presses_the_host_does_not_ack_never_push_a_frame_out_of_the_window(self):
        rig = Rig(machine, cards=60, seed=9, config={"link_ms": 60000})
        rig.connect()
        rig.host_silent = True  # the host hears nothing and ACKs nothing; the firmware cannot tell yet
        for _ in range(12):
            rig.press()
            rig.run(600)
        self.assertEqual(rig.app.link.overflows, 0)
        self.assertTrue(rig.app.link.unacked() < rig.app.link.window)
        self.assertTrue(rig.app.alone_made > 0)  # the presses beyond the window fired alone...
        rig.host_silent = False
        rig.host.send_unreliable("HEARTBEAT")
        rig.run(3000)
        buttons = len(rig.frames("BUTTON"))
        alone = len(set(f[2][1] for f in rig.frames("ALONE")))
        self.assertEqual(buttons + alone, 12)  # ...and every press reached the host, one way or the other


class TestCuts(unittest.TestCase):
    def test_a_card_the_coasting_roller_carries_out_after_a_lid_cut_is_counted(self):
        rig = Rig(machine, cards=40, feed_ms=100)
        rig.connect()
        rig.host.send("FIRE", (20, 5), rig.now)
        rig.run(330)
        rig.set_lid(True)
        rig.run(10)
        self.assertEqual(rig.motor(), 0)  # the motor stops at once
        beam = rig.pin("beam")
        beam.drive(0)  # the roller coasts on: one more card passes the beam
        rig.run(40)
        beam.drive(1)
        rig.run(1000)
        fired = rig.frames("FIRED")[0][2]
        self.assertEqual(fired[2], "lid")
        self.assertEqual(int(fired[0]), rig.fired + 1)

    def test_fired_comes_only_after_the_run_down(self):
        rig = Rig(machine, cards=40, feed_ms=100)
        rig.connect()
        rig.host.send("FIRE", (20,), rig.now)
        rig.run(330)
        rig.host.send("ABORT", (), rig.now)
        rig.run(10)
        self.assertEqual(rig.motor(), 0)  # at once
        rig.run(200)
        self.assertEqual(rig.frames("FIRED"), [])  # but the count is kept through the run-down
        rig.run(800)
        self.assertEqual(rig.frames("FIRED")[0][2][2], "abort")

    def test_a_hung_loop_stops_the_motor_at_the_on_time_cap(self):
        rig = Rig(machine, cards=40, feed_ms=100, config={"max_on_ms": 600})
        rig.connect()
        rig.host.send("FIRE", (20,), rig.now)
        rig.run(100)
        self.assertTrue(rig.motor() > 0)
        rig.run(700, frozen=True)  # no tick, no watchdog feed: only the timer runs
        self.assertEqual(rig.motor(), 0)
        self.assertTrue(rig.max_motor_ms <= 600 + 25)
        self.assertEqual(rig.board.cuts, 1)

    def test_a_normal_fire_never_needs_the_timer(self):
        rig = Rig(machine, cards=20)
        rig.connect()
        rig.host.send("FIRE", (4,), rig.now)
        rig.run(10000)
        self.assertEqual(rig.fired, 4)
        self.assertEqual(rig.board.cuts, 0)


if __name__ == "__main__":
    unittest.main()
