# unoxfw.app: the launcher's step machine. App(board, io, now_ms, config=None, seed=None); tick(now_ms).
# io.read() -> bytes (non-blocking, may be b""), io.write(data). App never feeds the watchdog: the main
# loop does (unoxfw.runner.step), so a hung loop resets the board whatever the host sends.
#
# Modes (HEARTBEAT/STATUS "mode"): "host" (a HELLO session and frames within link_ms), "alone" (no session,
# or the link was lost: presses fire the built-in Standalone profile), "firing", "asleep".
# Fires the host names (FIRE n id) are remembered by id (the last _MAX_RESULTS), so a restarted host can ask
# with QUERY id what one of them fired. Standalone fires wait in a queue (the last _MAX_ALONE) and go to the
# host as ALONE frames whenever a host is there, until it acknowledges each with TAKEN.
# Frames, fields and beep patterns: docs/protocol.md.
# On the chip (issue 22): on_press is what the board's press timer schedules (the press taken at once, not at
# the next tick); each tick ends by arming the board for a standalone press that would start the motor at
# once (_arm_press: the timer then starts it); collect (gc.collect, set by main.py) runs as each fire ends.

from unoxfw import __version__
from unoxfw.feeder import Feeder
from unoxfw.link import PROTOCOL, Endpoint, ticks_diff
from unoxfw.profile import Standalone
from unoxfw.settings import Settings
from unoxfw.signals import PATTERNS, Beeper

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        return value


_LID_STABLE_MS = const(30)
_IDLE_SAMPLE_MS = const(2000)
_REST_MS = const(250)
_HYSTERESIS_MV = const(100)
_MAX_FIRE = const(40)
_MAX_QUEUED = const(4)
_MAX_RESULTS = const(16)
_MAX_ALONE = const(32)
_MAX_ID = 2147483647
_FAULT_EVENTS = {"jam": "JAM", "empty": "EMPTY", "stuck": "STUCK"}
_FAULT_BEEPS = {"jam": "jam", "empty": "empty", "stuck": "stuck", "lid": "lid", "battery": "battery"}


class App:
    def __init__(self, board, io, now_ms, config=None, seed=None):
        self.board = board
        self.io = io
        self.settings = Settings(config)
        self._s = self.settings.values
        if seed is None:
            # ticks at boot are nearly constant; the ADC's low bits add noise, so restarts differ
            seed = now_ms
            for _ in range(4):
                seed = (seed * 33) ^ board.battery_mv()
        self.link = Endpoint(io.write, epoch=seed * 31 + 7)
        self.link.hold_acks = True
        self.beeper = Beeper(board)
        self.feeder = Feeder(board, self.settings)
        self.profile = Standalone(seed)
        self._draw = self.profile.next_count()  # the next standalone fire's count, drawn ahead (fast press)
        self._ticking = False
        self._armed = 0
        self._armed_cut = 0
        self.on_press = self._on_press  # bound once: the board's timer schedules it (unoxfw.board)
        self.asleep = False
        self.collect = None  # gc.collect (main.py on the chip): run as each fire ends, before its result
        self.handover = False  # REPL asked for: main.py ends its loop into MicroPython's REPL
        self.link_lost = False
        self._lost_rx = None
        self.presses_taken = 0
        self._pressed = []  # seqs of BUTTON frames the host has not ACKed yet
        self._queued = 0
        self.counted = 0
        self.last_fault = None
        self._fire_ref = 0
        self._fire_id = 0
        self._fire_session = None  # the host epoch that commanded the running fire
        self.results = []  # [fire_id, fired, n, fault, detail], oldest first
        self.alone = []  # [number, fired, n, fault, sent], oldest first: standalone fires not yet TAKEN
        self.alone_made = 0
        self.alone_lost = 0
        self.boot = f"{self.link.epoch:04X}"  # names this boot in ALONE frames
        self._activity = now_ms
        self.lid = board.lid_open()
        self._lid_raw = self.lid
        self._lid_since = now_ms
        self.mv = board.battery_mv()
        self.battery_low = self.mv < self._s["low_mv"]
        self._sampled = now_ms
        self._loaded = now_ms - _REST_MS  # last ms the motor ran (none yet: the pack is at rest)
        self._after_fire = False
        self._beat = now_ms - self._s["beat_ms"]

    # ---- the step -------------------------------------------------------------------------------
    def tick(self, now_ms):
        self._ticking = True
        data = self.io.read()
        if data:
            for seq, kind, args in self.link.receive(data, now_ms):
                if kind != "FIRE":
                    self.link.flush_acks()  # an ACK before its frame's reply, as ever
                self._on_frame(seq, kind, args, now_ms)
            self.link.flush_acks()  # a FIRE's: after its motor started (its encoding took ~0.4 ms first)
        self._check_link(now_ms)
        if self._pressed:
            self._check_pressed(now_ms)
        self._check_button(now_ms)
        self._check_lid(now_ms)
        self._check_battery(now_ms)
        self._run_feeder(now_ms)
        self._send_alone(now_ms)
        self._check_sleep(now_ms)
        self.beeper.tick(now_ms)
        self.link.poll(now_ms)
        self._heartbeat(now_ms)
        if self.board.press_due():
            self._check_button(now_ms)  # the timer took a press during this tick
        self._arm_press()
        self._ticking = False

    def _on_press(self, _arg):
        # scheduled by the board's timer when it took a press: at once, unless a tick is running (which
        # takes it at its end). The BUTTON, or the standalone fire, need not wait for the next tick.
        if not self._ticking and not self.handover:
            self._ticking = True
            self._check_button(self.board.now_ms())
            self._arm_press()
            self._ticking = False

    def _arm_press(self):
        # A standalone press that would start the motor forward at once has it started by the board's timer
        # at the glitch filter's end (unoxfw.board): alone, awake, idle, its drawn count > 0, the lid shut,
        # the pack above crit_mv, the feeder ready to spin forward. Anything else: the loop decides.
        value = 0
        if (self._draw > 0 and not self.connected() and not self.asleep and not self._queued
                and not self.handover and not self.lid and self.mv >= self._s["crit_mv"]
                and self.feeder.ready()):
            value = self.feeder.duty()
        cut = self.feeder.cut_ms()
        if value != self._armed or cut != self._armed_cut:
            self._armed, self._armed_cut = value, cut
            self.board.arm_press(value, cut)

    def _disarm(self):
        self._armed = 0
        self.board.arm_press(0)

    def _next_draw(self):
        count = self._draw
        self._draw = self.profile.next_count()
        return count

    def connected(self):
        return self.link.session and not self.link_lost

    def mode(self):
        if self.feeder.busy():
            return "firing"
        if self.asleep:
            return "asleep"
        return "host" if self.connected() else "alone"

    # ---- host frames ----------------------------------------------------------------------------
    def _on_frame(self, seq, kind, args, now_ms):
        if kind == "HEARTBEAT" or seq == 0:
            return  # seq 00 is for unreliable frames only: a command there would dodge the dedup
        if kind == "HELLO":
            self._on_hello(seq, now_ms)
        elif kind == "FIRE":
            self._on_fire(seq, args, now_ms)
        elif kind == "BEEP":
            if len(args) == 1 and args[0] in PATTERNS:
                self.beeper.play(args[0], now_ms)
            else:
                self._refuse(seq, "BEEP", "unknown_pattern", ",".join(sorted(PATTERNS)), now_ms)
        elif kind == "STATUS":
            self.link.send("STATUS", self._status_args(), now_ms, seq)
        elif kind == "ABORT":
            self.feeder.abort(now_ms, "abort")  # FIRED ... abort follows the run-down
        elif kind == "CONFIG":
            self._on_config(seq, args, now_ms)
        elif kind == "QUERY":
            self._on_query(seq, args, now_ms)
        elif kind == "TAKEN":
            self._on_taken(args)
        elif kind == "REPL":
            self._on_repl(seq, now_ms)
        else:
            self._refuse(seq, kind, "unknown_kind", "see_docs/protocol.md", now_ms)

    def _refuse(self, seq, what, reason, hint, now_ms):
        self.link.send("ERR", (what, reason, hint), now_ms, seq)

    def _on_hello(self, seq, now_ms):
        # A new host session: fresh windows on both sides, then the state the host cannot know. A fire the
        # old host commanded stops: the new one never asked for it and will get no FIRED for it.
        # Its result is still remembered by id (QUERY).
        if self.feeder.busy() and self._fire_ref:
            self.feeder.abort(now_ms, "link")
        self._take_back(now_ms)  # BUTTONs the old session never ACKed: fired alone, reported as ALONE
        self.link_lost = False
        self.link.hello((PROTOCOL, __version__, self.board.uid), now_ms, seq)
        self.link.send("LID", ("open" if self.lid else "shut",), now_ms)
        self.link.send("BATTERY", (self.mv, "low" if self.battery_low else "ok"), now_ms)
        self._resend_alone()

    def _on_repl(self, seq, now_ms):
        # REPL: a flasher (`unox firmware flash`) asks for MicroPython's REPL. The motor stops now, not
        # after a run-down: main.py ends its loop after this tick, with Ctrl-C enabled again and the
        # watchdog paused (firmware/main.py); a fire it cuts gets no FIRED (the next boot knows nothing
        # of it).
        self._disarm()
        self.board.cut_cancel()
        self.board.motor(0)
        self.beeper.stop()
        self.link.send("REPL", ("ok",), now_ms, seq)
        self.handover = True

    def _on_fire(self, seq, args, now_ms):
        n = -1
        if 1 <= len(args) <= 2 and args[0].isdigit() and len(args[0]) <= 3:
            n = int(args[0])
        fire_id = _parse_id(args[1]) if len(args) == 2 else 0
        if not 0 <= n <= _MAX_FIRE:
            self._refuse(seq, "FIRE", "bad_count", "0.." + str(_MAX_FIRE), now_ms)
        elif fire_id < 0:
            self._refuse(seq, "FIRE", "bad_id", "1.." + str(_MAX_ID), now_ms)
        elif self.feeder.busy():
            self._refuse(seq, "FIRE", "busy", "wait_for_FIRED", now_ms)
        else:
            self.asleep = False
            self._fire_id = fire_id
            self._fire_session = self.link.peer_epoch
            self._start_fire(n, seq, now_ms)

    def _on_query(self, seq, args, now_ms):
        # QUERY id: what fire `id` did, from memory; never fires.
        fire_id = _parse_id(args[0]) if len(args) == 1 else -1
        if fire_id <= 0:
            self._refuse(seq, "QUERY", "bad_id", "1.." + str(_MAX_ID), now_ms)
            return
        reply = (args[0], "unknown")
        if self.feeder.busy() and fire_id == self._fire_id:
            reply = (args[0], "running")
        else:
            for entry in self.results:
                if entry[0] == fire_id:
                    reply = (args[0], entry[1], entry[2], entry[3], entry[4])
        self.link.send("RESULT", reply, now_ms, seq)

    def _on_taken(self, args):
        # TAKEN boot number: the host has recorded that standalone fire; forget it.
        if len(args) != 2 or args[0] != self.boot:
            return
        for i in range(len(self.alone)):
            if str(self.alone[i][0]) == args[1]:
                del self.alone[i]
                return

    def _remember(self, fire_id, fired, n, fault, detail):
        for i in range(len(self.results)):
            if self.results[i][0] == fire_id:
                del self.results[i]  # an id used again: the newest fire wins
                break
        if len(self.results) >= _MAX_RESULTS:
            self.results.pop(0)
        self.results.append([fire_id, fired, n, fault, detail])

    def _queue_alone(self, fired, n, fault):
        self.alone_made += 1
        if len(self.alone) >= _MAX_ALONE:
            self.alone.pop(0)
            self.alone_lost += 1  # counted in STATUS: the host can tell that some were never reported
        self.alone.append([self.alone_made, fired, n, fault, False])

    def _resend_alone(self):
        for entry in self.alone:
            entry[4] = False

    def _send_alone(self, now_ms):
        # One queue entry per frame, never more than the window holds, only while a host listens.
        if not self.alone or not self.connected():
            return
        for entry in self.alone:
            if self.link.unacked() >= self.link.window - 1:
                return
            if not entry[4]:
                entry[4] = True
                self.link.send("ALONE", (self.boot, entry[0], entry[1], entry[2], entry[3]), now_ms)

    def _on_config(self, seq, args, now_ms):
        if len(args) == 1 and args[0] in self._s:
            self.link.send("CONFIG", (args[0], self._s[args[0]]), now_ms, seq)
            return
        error = self.settings.set(args[0], args[1]) if len(args) == 2 else "usage"
        if error:
            key = args[0] if args else "-"
            self._refuse(seq, "CONFIG", error, self.settings.range_text(key), now_ms)
        else:
            self.link.send("CONFIG", (args[0], self._s[args[0]]), now_ms, seq)

    def _status_args(self):
        return (
            "mode=" + self.mode(),
            "lid=" + ("open" if self.lid else "shut"),
            "mv=" + str(self.mv),
            "low=" + str(int(self.battery_low)),
            "counted=" + str(self.counted),
            "presses=" + str(self.presses_taken),
            "fault=" + (self.last_fault or "-"),
            "alone=" + str(len(self.alone)),
            "alone_lost=" + str(self.alone_lost),
            "version=" + __version__,
        )

    # ---- firing ---------------------------------------------------------------------------------
    def _start_fire(self, n, ref, now_ms):
        self._disarm()  # the feeder owns the motor from here: no press may start it
        self._fire_ref = ref
        self._activity = now_ms
        if n > 0 and self.mv < self._s["crit_mv"]:
            self.board.motor(0)  # a press's timer may have started it (unoxfw.board, the fast press)
            self._finish_fire((0, n, "battery", "-"), now_ms)
            return
        result = self.feeder.start(n, now_ms)
        if n > 0 and not self.board.lid_open():
            self.beeper.play("firing", now_ms)  # after the motor started: the same tick
        if result:
            self._finish_fire(result, now_ms)

    def _run_feeder(self, now_ms):
        if not self.feeder.busy():
            return
        last = self.link.last_rx_ms
        if self._fire_ref and (last is None or ticks_diff(now_ms, last) > self._s["silence_ms"]):
            # Klipper's max_duration idea: a host-commanded motor stops when the host goes quiet (the
            # result comes after the run-down; a second cut during it is ignored).
            self.feeder.abort(now_ms, "link")
            self._lose_link(now_ms)
        result = self.feeder.tick(now_ms)
        if result:
            self._finish_fire(result, now_ms)
            while self._queued and not self.feeder.busy():
                self._queued -= 1  # a press taken while alone and firing: its own fire now
                self._start_fire(self._next_draw(), 0, now_ms)

    def _finish_fire(self, result, now_ms):
        fired, n, fault, detail = result
        if fault == "jam" and detail == "wedged":
            fired -= self.feeder.wedged  # still inside the launcher: the lid goes up and it goes back
        ref, fire_id = self._fire_ref, self._fire_id
        self._fire_ref = self._fire_id = 0
        self.counted += fired
        self.last_fault = fault
        self._activity = now_ms
        if fault == "link":
            self._lose_link(now_ms)
        elif fault in _FAULT_BEEPS:
            self.beeper.play(_FAULT_BEEPS[fault], now_ms)
        if self.collect is not None:
            # the collector runs now, before the result goes out (about 10 ms on the chip), not when the heap
            # runs out at some later moment, maybe as a press comes (its timer is armed from this thread).
            # After the fault's beep starts: its first step is timed from now_ms, and a tone started after
            # the collector was that much short (a STUCK's 500 ms step sounded 494 on the emulated chip)
            self.collect()
        if fire_id:
            self._remember(fire_id, fired, n, fault or "-", detail)
        if not ref:
            self._queue_alone(fired, n, fault or "-")
        elif self.link.session and self._fire_session == self.link.peer_epoch:
            if fault in _FAULT_EVENTS:
                self.link.send(_FAULT_EVENTS[fault], (f"{ref:02X}", detail), now_ms)
            self.link.send("FIRED", (fired, n, fault or "-", f"{ref:02X}"), now_ms, ref)

    # ---- local inputs ---------------------------------------------------------------------------
    def _check_button(self, now_ms):
        # The press is timed on its edges by the button's IRQ (unoxfw.board: a low of at least 2 ms, taken
        # as soon as seen, also when it ended before this loop came; release chatter never counts).
        board = self.board
        if board.take_press(now_ms):
            if board.press_due():
                # the press timer's IRQ took this same press while the loop was taking it (it landed inside
                # take_press, after its look for a timer-taken press): one press, so that take is consumed
                board.take_press(now_ms)
            self._take_press(now_ms)

    def _take_press(self, now_ms):
        self._activity = now_ms
        if self.asleep:
            self.asleep = False  # L3: the first press only wakes the launcher: no beep, no BUTTON
            return
        self.beeper.play("press", now_ms)  # L1: at once, without waiting for the host
        self.presses_taken += 1
        if self.board.press_started():
            # the board's timer started the motor for this press (armed: alone, the feeder idle): it is a
            # standalone fire whatever came since
            self._start_fire(self._next_draw(), 0, now_ms)
            return
        if self.connected() and (self.link.unacked() >= self.link.window - 1 or self._silent(now_ms)):
            # the host has not ACKed a window of frames, or has been quiet for silence_ms (a pulled cable):
            # it is not hearing us. A BUTTON now could push an unACKed frame out of the window for good, or
            # go nowhere; the press fires alone and is reported as ALONE.
            self._lose_link(now_ms)
        if self.connected():
            # the count as a str: an int takes encode's slower path (~0.1 ms on the chip)
            self._pressed.append(self.link.send("BUTTON", (str(self.presses_taken),), now_ms))
        else:
            self._press_alone(now_ms)

    def _press_alone(self, now_ms):
        if self.feeder.busy():
            if self._queued < _MAX_QUEUED:
                self._queued += 1  # alone and firing: this press fires once the motor stops
        else:
            self._start_fire(self._next_draw(), 0, now_ms)

    def _silent(self, now_ms):
        last = self.link.last_rx_ms
        return last is not None and ticks_diff(now_ms, last) > self._s["silence_ms"]

    def _check_pressed(self, now_ms):
        # A BUTTON the host has not ACKed when it goes quiet for silence_ms (the cable pulled, the host
        # gone) is taken back: the press fires alone and is reported as ALONE, once. Its seq goes out as
        # VOID from then on, so a host that comes back in the same session never fires it too.
        self._pressed = [seq for seq in self._pressed if self.link.pending(seq)]
        if self._pressed and (self.link_lost or self._silent(now_ms)):
            self._lose_link(now_ms)
            self._take_back(now_ms)

    def _take_back(self, now_ms):
        for seq in self._pressed:
            self.link.void(seq)
            self._press_alone(now_ms)
        self._pressed = []

    def _check_lid(self, now_ms):
        raw = self.board.lid_open()
        if raw != self._lid_raw:
            self._lid_raw = raw
            self._lid_since = now_ms
        if raw == self.lid or ticks_diff(now_ms, self._lid_since) < _LID_STABLE_MS:
            return
        self.lid = raw
        if raw:
            self.beeper.play("lid", now_ms)
        if self.link.session:
            self.link.send("LID", ("open" if raw else "shut",), now_ms)

    def _check_battery(self, now_ms):
        # L5 is judged at rest only: the motor sags the pack (a roller stalled by a jam pulls a fresh one
        # to ~3.8 V), so nothing is sampled while the feeder runs or the motor is driven, nor for _REST_MS
        # after. The first rested sample after a fire comes at once; a low one is signalled again then.
        if self.feeder.busy() or self.board.motor_value():
            self._loaded = now_ms
            self._after_fire = True
            return
        if ticks_diff(now_ms, self._loaded) < _REST_MS:
            return
        if not self._after_fire and ticks_diff(now_ms, self._sampled) < _IDLE_SAMPLE_MS:
            return
        remind = self._after_fire
        self._after_fire = False
        self._sampled = now_ms
        self.mv = mv = self.board.battery_mv()
        low = mv < self._s["low_mv"] + (_HYSTERESIS_MV if self.battery_low else 0)
        if low == self.battery_low and not (low and remind):
            return
        self.battery_low = low
        if low:
            self.beeper.play("battery", now_ms)  # L5
        if self.link.session:
            self.link.send("BATTERY", (mv, "low" if low else "ok"), now_ms)

    # ---- link health, sleep, heartbeat ----------------------------------------------------------
    def _check_link(self, now_ms):
        last = self.link.last_rx_ms
        if not self.link.session or last is None:
            return
        if self.link_lost:
            if last != self._lost_rx:
                self.link_lost = False  # the host spoke again: what it may have missed goes again
                self._resend_alone()
        elif ticks_diff(now_ms, last) > self._s["link_ms"]:
            self._lose_link(now_ms)

    def _lose_link(self, now_ms):
        # Lost until the host sends a new frame; presses fire alone meanwhile.
        self._lost_rx = self.link.last_rx_ms
        if not self.link_lost:
            self.link_lost = True
            self.beeper.play("link_lost", now_ms)

    def _check_sleep(self, now_ms):
        limit = self._s["sleep_ms"]
        if not limit or self.asleep or self.feeder.busy() or self.beeper.busy():
            return
        if ticks_diff(now_ms, self._activity) > limit:
            self.asleep = True

    def _heartbeat(self, now_ms):
        if ticks_diff(now_ms, self._beat) < self._s["beat_ms"]:
            return
        self._beat = now_ms
        peer = self.link.peer_epoch or "0000"
        self.link.send_unreliable("HEARTBEAT", (self.link.epoch_hex(), peer, self.mode()))


def _parse_id(text):
    # a fire id: 1..2**31-1 in decimal; -1 when malformed
    if not text.isdigit() or len(text) > 10:
        return -1
    value = int(text)
    return value if 1 <= value <= _MAX_ID else -1
