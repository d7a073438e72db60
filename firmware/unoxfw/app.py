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
# On the chip (issue 22): on_press is what the board's press timer schedules: a tick at once (the press taken
# then, not at the next tick), or at the end of the tick that runs; each tick ends by arming the board for a
# standalone press that would start the motor at once (the timer then starts it); collect (gc.collect, set
# by main.py) runs as each fire ends.
#
# The tick is short, because a FIRE or a press that comes during a tick waits for its end (issue 22: the
# idle tick set the hosted press's tail): every tick reads the input, takes a press, runs the feeder and
# the beeper and arms the press; what moves slowly (the link's timeout, BUTTONs to take back, the lid, the
# battery, ALONE frames, sleep, retransmits, HEARTBEAT) is checked every _SLOW_MS, and held back for up to
# _HOLD_MS after a press, a fire's start or its end, so the hosted press's BUTTON and FIRE never wait for
# it. The steps are written out in tick, not one method each: a Python call costs ~35 us on the chip, and
# each method ~40-50 B of heap (docs/benchmarks.md, issue 22).

from unoxfw import __version__
from unoxfw.feeder import Feeder
from unoxfw.link import PROTOCOL, Endpoint, ticks_diff
from unoxfw.profile import Standalone
from unoxfw.settings import Settings
from unoxfw.signals import PATTERNS, Beeper

try:
    from micropython import const
except ImportError:  # CPython: the value itself (no function compiled on the chip for it)
    const = int


_LID_STABLE_MS = const(30)
_IDLE_SAMPLE_MS = const(2000)
_REST_MS = const(250)
_HYSTERESIS_MV = const(100)
_SLOW_MS = const(10)
_HOLD_MS = const(50)
_TICKS_MASK = const(0x3FFFFFFF)  # time.ticks_ms wraps at 2**30 on the rp2 port
_MAX_FIRE = const(40)
_MAX_QUEUED = const(4)
_MAX_RESULTS = const(16)
_MAX_ALONE = const(32)
_MAX_ID = 2147483647


class App:
    def __init__(self, board, io, now_ms, config=None, seed=None):
        self.board = board
        self.io = io
        self.settings = Settings(config)
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
        self._ticking = 0  # 1: a tick runs; 2: ... and the press timer took a press meanwhile (on_press)
        self._armed = 0  # the motor value the board's press timer is armed with; -1: arm it again
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
        self.boot = self.link.epoch_hex()  # names this boot in ALONE frames
        self._activity = now_ms
        self._slow = now_ms - _HOLD_MS  # when the slow checks last ran (the first tick runs them)
        self.lid = board.lid_open()
        self._lid_since = -1  # when the lid switch began to read otherwise than self.lid; -1: it does not
        self.mv = board.battery_mv()
        self.battery_low = self.mv < self.settings.values["low_mv"]
        self._sample_at = (now_ms + _IDLE_SAMPLE_MS) & _TICKS_MASK  # the next battery sample (at rest only)
        self._remind = False  # the motor ran since the last sample: a low pack is signalled again
        self._beat = now_ms - self.settings.values["beat_ms"]

    # ---- the step -------------------------------------------------------------------------------
    def tick(self, now_ms):
        self._ticking = 1
        board, link, feeder, s = self.board, self.link, self.feeder, self.settings.values
        data = self.io.read()
        if data:
            for seq, kind, args in link.receive(data, now_ms):
                if kind != "FIRE":
                    link.flush_acks()  # an ACK before its frame's reply, as ever
                self._on_frame(seq, kind, args, now_ms)
            link.flush_acks()  # a FIRE's: after its motor started (its encoding took ~0.4 ms first)
            if self.link_lost and link.session and link.last_rx_ms != self._lost_rx:
                self.link_lost = False  # the host spoke again: what it may have missed goes again
                for entry in self.alone:
                    entry[4] = False

        # The press, timed on its edges by the button's IRQ (unoxfw.board: a low of at least 2 ms, taken as
        # soon as seen, also when it ended before this loop came; release chatter never counts). Armed for
        # the fast press, the loop looks 1 ms behind: in whole ms its 2 ms can be 1.0 ms of real low, and a
        # press the loop takes first starts the motor through the feeder, ~1 ms after the board's timer
        # would have (standalone p99 3.5 ms on the emulated chip); so the timer, at the filter's real end,
        # takes it, and the loop only what the timer did not (a bounce at that moment, a press already up).
        if board.take_press(now_ms - 1 if self._armed > 0 else now_ms):
            if board.press_due():
                # the press timer's IRQ took this same press while the loop was taking it (it landed inside
                # take_press, after its look for a timer-taken press): one press, so that take is consumed
                board.take_press(now_ms)
            self._activity = now_ms
            if self.asleep:
                self.asleep = False  # L3: the first press only wakes the launcher: no beep, no BUTTON
            else:
                self.beeper.play("press", now_ms)  # L1: at once, without waiting for the host
                self.presses_taken += 1
                if board.press_started():
                    # the board's timer started the motor for this press (armed: alone, the feeder idle): it
                    # is a standalone fire whatever came since
                    self._fire(-1, 0, now_ms)
                else:
                    last = link.last_rx_ms
                    if (link.session and not self.link_lost
                            and (link.unacked() >= link.window - 1
                                 or (last is not None and ticks_diff(now_ms, last) > s["silence_ms"]))):
                        # the host has not ACKed a window of frames, or has been quiet for silence_ms (a
                        # pulled cable): it is not hearing us. A BUTTON now could push an unACKed frame out
                        # of the window for good, or go nowhere; the press fires alone, reported as ALONE.
                        self._lose_link(now_ms)
                    if link.session and not self.link_lost:
                        # the count as a str: an int takes encode's slower path (~0.1 ms on the chip)
                        self._pressed.append(link.send("BUTTON", (str(self.presses_taken),), now_ms))
                    elif feeder.busy():
                        if self._queued < _MAX_QUEUED:
                            self._queued += 1  # alone and firing: this press fires once the motor stops
                    else:
                        self._fire(-1, 0, now_ms)

        if feeder.busy():
            # L5 is judged at rest only: the motor sags the pack (a roller stalled by a jam pulls a fresh one
            # to ~3.8 V), so the battery is sampled _REST_MS after the feeder last ran, and a low one is
            # signalled again then
            self._sample_at = (now_ms + _REST_MS) & _TICKS_MASK
            self._remind = True
            last = link.last_rx_ms
            if self._fire_ref and (last is None or ticks_diff(now_ms, last) > s["silence_ms"]):
                # Klipper's max_duration idea: a host-commanded motor stops when the host goes quiet (the
                # result comes after the run-down; a second cut during it is ignored).
                feeder.abort(now_ms, "link")
                self._lose_link(now_ms)
            result = feeder.tick(now_ms)
            if result:
                self._fire(0, 0, now_ms, result)
                while self._queued and not feeder.busy():
                    self._queued -= 1  # a press taken while alone and firing: its own fire now
                    self._fire(-1, 0, now_ms)
        self.beeper.tick(now_ms)

        since = (now_ms - self._slow) & _TICKS_MASK
        if since >= _SLOW_MS and (since >= _HOLD_MS or (now_ms - self._activity) & _TICKS_MASK >= _HOLD_MS):
            # the slow checks (see the header): the link's health, BUTTONs to take back, lid, battery, ALONE
            # frames, sleep, retransmits, HEARTBEAT
            self._slow = now_ms
            last = link.last_rx_ms
            silent = last is not None and ticks_diff(now_ms, last) > s["silence_ms"]
            if (link.session and last is not None and not self.link_lost
                    and ticks_diff(now_ms, last) > s["link_ms"]):
                self._lose_link(now_ms)  # lost until the host sends a new frame; presses fire alone meanwhile
            if self._pressed:
                # A BUTTON the host has not ACKed when it goes quiet for silence_ms (the cable pulled, the
                # host gone) is taken back: the press fires alone and is reported as ALONE, once. Its seq goes
                # out as VOID from then on, so a host that comes back in the same session never fires it too.
                self._pressed = [seq for seq in self._pressed if link.pending(seq)]
                if self._pressed and (self.link_lost or silent):
                    self._lose_link(now_ms)
                    self._take_back(now_ms)

            raw = board.lid_open()
            if raw == self.lid:
                self._lid_since = -1
            elif self._lid_since < 0:
                self._lid_since = now_ms
            elif ticks_diff(now_ms, self._lid_since) >= _LID_STABLE_MS:
                self._lid_since = -1
                self.lid = raw
                if raw:
                    self.beeper.play("lid", now_ms)
                if link.session:
                    link.send("LID", ("open" if raw else "shut",), now_ms)

            if board.motor_value():
                # the motor runs with the feeder idle (a press's timer started it): not at rest either (L5)
                self._sample_at = (now_ms + _REST_MS) & _TICKS_MASK
                self._remind = True
            elif not feeder.busy() and ticks_diff(now_ms, self._sample_at) >= 0:
                remind = self._remind
                self._remind = False
                self._sample_at = (now_ms + _IDLE_SAMPLE_MS) & _TICKS_MASK
                self.mv = mv = board.battery_mv()
                low = mv < s["low_mv"] + (_HYSTERESIS_MV if self.battery_low else 0)
                if low != self.battery_low or (low and remind):
                    self.battery_low = low
                    if low:
                        self.beeper.play("battery", now_ms)  # L5
                    if link.session:
                        link.send("BATTERY", (mv, "low" if low else "ok"), now_ms)

            if self.alone and link.session and not self.link_lost:
                # one queue entry per frame, never more than the window holds, only while a host listens
                for entry in self.alone:
                    if link.unacked() >= link.window - 1:
                        break
                    if not entry[4]:
                        entry[4] = True
                        link.send("ALONE", (self.boot, entry[0], entry[1], entry[2], entry[3]), now_ms)

            limit = s["sleep_ms"]
            if (limit and not self.asleep and not feeder.busy() and not self.beeper.busy()
                    and ticks_diff(now_ms, self._activity) > limit):
                self.asleep = True
            link.poll(now_ms)
            if ticks_diff(now_ms, self._beat) >= s["beat_ms"]:
                self._beat = now_ms
                link.send_unreliable("HEARTBEAT", (link.epoch_hex(), link.peer_epoch or "0000", self.mode()))

        # A standalone press that would start the motor forward at once has it started by the board's timer
        # at the glitch filter's end (unoxfw.board): alone, awake, idle, its drawn count > 0, the lid shut,
        # the pack above crit_mv, the feeder ready to spin forward. Anything else: the loop decides.
        value = 0
        if (self._draw > 0 and not self.asleep and not self._queued and not self.handover and not self.lid
                and (self.link_lost or not link.session) and self.mv >= s["crit_mv"] and feeder.ready()):
            value = feeder.duty()
        if value != self._armed:
            self._armed = value
            board.arm_press(value, feeder.cut_ms())
        again = self._ticking > 1
        self._ticking = 0
        if again:
            self.on_press(0)

    def on_press(self, _arg):
        # scheduled by the board's timer when it took a press (unoxfw.runner hands the board this method,
        # bound once): a tick at once, unless one is running (which then ticks again at its end). The
        # BUTTON, or the standalone fire, need not wait for the next tick.
        if self._ticking:
            self._ticking = 2
        elif not self.handover:
            self.tick(self.board.now_ms())

    def mode(self):
        if self.feeder.busy():
            return "firing"
        if self.asleep:
            return "asleep"
        return "host" if self.link.session and not self.link_lost else "alone"

    # ---- host frames ----------------------------------------------------------------------------
    def _on_frame(self, seq, kind, args, now_ms):
        if kind == "HEARTBEAT" or seq == 0:
            return  # seq 00 is for unreliable frames only: a command there would dodge the dedup
        link, feeder = self.link, self.feeder
        err = None  # (what, reason, hint): the ERR that answers this frame
        if kind == "FIRE" or kind == "QUERY":
            # FIRE n [id] and QUERY id (what fire `id` did, from memory; never fires). A fire id is
            # 1..2**31-1 in decimal; none given to FIRE: 0; malformed: -1.
            fire = kind == "FIRE"
            text = args[-1] if len(args) == 1 + fire else ""
            value = int(text) if text.isdigit() and len(text) <= 10 else 0
            fire_id = value if 1 <= value <= _MAX_ID else 0 if fire and len(args) != 2 else -1
            n = -1
            if fire and 1 <= len(args) <= 2 and args[0].isdigit() and len(args[0]) <= 3:
                n = int(args[0])
            if fire and not 0 <= n <= _MAX_FIRE:
                err = ("FIRE", "bad_count", "0.." + str(_MAX_FIRE))
            elif fire_id < 0:
                err = (kind, "bad_id", "1.." + str(_MAX_ID))
            elif not fire:
                reply = (text, "unknown")
                if feeder.busy() and fire_id == self._fire_id:
                    reply = (text, "running")
                else:
                    for entry in self.results:
                        if entry[0] == fire_id:
                            reply = (text, entry[1], entry[2], entry[3], entry[4])
                link.send("RESULT", reply, now_ms, seq)
            elif feeder.busy():
                err = ("FIRE", "busy", "wait_for_FIRED")
            else:
                self.asleep = False
                self._fire_id = fire_id
                self._fire_session = link.peer_epoch
                self._fire(n, seq, now_ms)
        elif kind == "HELLO":
            # A new host session: fresh windows on both sides, then the state the host cannot know. A fire
            # the old host commanded stops: the new one never asked for it and will get no FIRED for it.
            # Its result is still remembered by id (QUERY).
            if feeder.busy() and self._fire_ref:
                feeder.abort(now_ms, "link")
            self._take_back(now_ms)  # BUTTONs the old session never ACKed: fired alone, as ALONE
            self.link_lost = False
            link.hello((PROTOCOL, __version__, self.board.uid), now_ms, seq)
            link.send("LID", ("open" if self.lid else "shut",), now_ms)
            link.send("BATTERY", (self.mv, "low" if self.battery_low else "ok"), now_ms)
            for entry in self.alone:
                entry[4] = False
        elif kind == "BEEP":
            if len(args) == 1 and args[0] in PATTERNS:
                self.beeper.play(args[0], now_ms)
            else:
                err = ("BEEP", "unknown_pattern", ",".join(sorted(PATTERNS)))
        elif kind == "STATUS":
            # one text split into its fields (key=value, none with a space): one string on the chip, not ten
            status = (f"mode={self.mode()} lid={'open' if self.lid else 'shut'} mv={self.mv} "
                      f"low={int(self.battery_low)} counted={self.counted} presses={self.presses_taken} "
                      f"fault={self.last_fault or '-'} alone={len(self.alone)} alone_lost={self.alone_lost} "
                      f"version={__version__}")
            link.send("STATUS", tuple(status.split()), now_ms, seq)
        elif kind == "ABORT":
            feeder.abort(now_ms, "abort")  # FIRED ... abort follows the run-down
        elif kind == "CONFIG":
            settings = self.settings
            error = None
            if len(args) != 1 or args[0] not in settings.values:
                error = settings.set(args[0], args[1]) if len(args) == 2 else "usage"
                self._armed = -1  # the press timer's backstop follows max_on_ms: armed again
            if error:
                err = ("CONFIG", error, settings.range_text(args[0] if args else "-"))
            else:
                link.send("CONFIG", (args[0], settings.values[args[0]]), now_ms, seq)
        elif kind == "TAKEN":
            # TAKEN boot number: the host has recorded that standalone fire; forget it.
            if len(args) == 2 and args[0] == self.boot:
                for entry in self.alone:
                    if str(entry[0]) == args[1]:
                        self.alone.remove(entry)
                        break
        elif kind == "REPL":
            # REPL: a flasher (`unox firmware flash`) asks for MicroPython's REPL. The motor stops now, not
            # after a run-down: main.py ends its loop after this tick, with Ctrl-C enabled again and the
            # watchdog paused (firmware/main.py); a fire it cuts gets no FIRED (the next boot knows nothing
            # of it).
            board = self.board
            self._armed = 0
            board.arm_press(0)
            board.cut_cancel()
            board.motor(0)
            self.beeper.stop()
            link.send("REPL", ("ok",), now_ms, seq)
            self.handover = True
        else:
            err = (kind, "unknown_kind", "see_docs/protocol.md")
        if err:
            link.send("ERR", err, now_ms, seq)

    # ---- firing ---------------------------------------------------------------------------------
    def _fire(self, n, ref, now_ms, result=None):
        # A fire started: n cards (n < 0: the standalone count drawn ahead, the next one drawn now), ref the
        # host's FIRE seq (0: a standalone fire). Or, given the feeder's result, the running fire finished;
        # a fire that ends as it starts (no cards, a low pack, the lid open) finishes here too.
        board = self.board
        if result is None:
            if n < 0:
                n = self._draw
                self._draw = self.profile.next_count()
            self._armed = 0
            board.arm_press(0)  # the feeder owns the motor from here: no press may start it
            self._fire_ref = ref
            self._activity = now_ms
            if n > 0 and self.mv < self.settings.values["crit_mv"]:
                board.motor(0)  # a press's timer may have started it (unoxfw.board, the fast press)
                result = (0, n, "battery", "-")
            else:
                result = self.feeder.start(n, now_ms)
                if n > 0 and not board.lid_open():
                    self.beeper.play("firing", now_ms)  # after the motor started: the same tick
            if not result:
                return
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
        elif fault in ("jam", "empty", "stuck", "lid", "battery"):
            self.beeper.play(fault, now_ms)  # its own pattern
        if self.collect is not None:
            # the collector runs now, before the result goes out (about 10 ms on the chip), not when the heap
            # runs out at some later moment, maybe as a press comes (its timer is armed from this thread).
            # After the fault's beep starts: its first step is timed from now_ms, and a tone started after
            # the collector was that much short (a STUCK's 500 ms step sounded 494 on the emulated chip)
            self.collect()
        if fire_id:
            results = self.results
            for entry in results:
                if entry[0] == fire_id:
                    results.remove(entry)  # an id used again: the newest fire wins
                    break
            if len(results) >= _MAX_RESULTS:
                results.pop(0)
            results.append([fire_id, fired, n, fault or "-", detail])
        if not ref:
            self.alone_made += 1
            if len(self.alone) >= _MAX_ALONE:
                self.alone.pop(0)
                self.alone_lost += 1  # counted in STATUS: the host can tell that some were never reported
            self.alone.append([self.alone_made, fired, n, fault or "-", False])
        elif self.link.session and self._fire_session == self.link.peer_epoch:
            text = f"{ref:02X}"
            if fault in ("jam", "empty", "stuck"):
                self.link.send(fault.upper(), (text, detail), now_ms)  # JAM, EMPTY, STUCK
            self.link.send("FIRED", (fired, n, fault or "-", text), now_ms, ref)

    def _take_back(self, now_ms):
        # BUTTONs the host never ACKed, taken back: each press fires alone (reported as ALONE); its seq goes
        # out as VOID from then on, so a host that comes back in the same session never fires it too
        for seq in self._pressed:
            self.link.void(seq)
            if self.feeder.busy():
                if self._queued < _MAX_QUEUED:
                    self._queued += 1  # alone and firing: the press fires once the motor stops
            else:
                self._fire(-1, 0, now_ms)
        self._pressed = []

    def _lose_link(self, now_ms):
        # Lost until the host sends a new frame; presses fire alone meanwhile.
        self._lost_rx = self.link.last_rx_ms
        if not self.link_lost:
            self.link_lost = True
            self.beeper.play("link_lost", now_ms)

