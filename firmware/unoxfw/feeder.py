# unoxfw.feeder: one fire job as a step machine: run the motor until the beam has counted n cards,
# then pull the next card back; detect stall, jam, empty, stuck, lid and the on-time cap.
#
# Feeder(board, settings): busy(), start(n, now_ms) -> result or None, tick(now_ms) -> result or None,
# abort(now_ms, fault, detail="-"): motor off at once, the result from a later tick (after the run-down);
# cutting(): in that run-down. A result is (fired, requested, fault, detail); fault is None or one of
# "jam" "empty" "stuck" "lid" "link" "abort"; detail says why ("wedged", "ontime", or "-").
# `fired` is what the beam counted. After a JAM wedged, `wedged` is how many of those counted cards sit
# wedged in the exit slot (0 or 1): still inside the launcher, they go back on the stack when the lid is
# opened, so the report (App: FIRED k) takes them off. Not done in `fired`, which stays the beam's count.
#
# How a card is counted (Feeder.tick): a block of the beam that lasts _BEAM_STABLE_MS (4 ms; a card blocks it
# ~43 ms). The board's IRQ counts falling edges; each tick samples the level, and a block that began since
# the last tick (a new edge, or the level found low) counts once it has stayed blocked that long. A glitch
# on the beam lead (motor wires beside it switch 1-2 A at 20 kHz) is a few microseconds low: never counted.
# The same both ways: a new block starts only after the beam has been clear for _BEAM_CLEAR_MS (2-4 ms; cards
# are ~30 ms apart), so a glitch that lights the beam for a moment inside a card does not count it twice. The
# board's timed IRQ leaves out a falling edge that ends a clear shorter than that; a clear the loop samples
# ends the block only once it has lasted that long.
# The lid is debounced here too: the motor stops the moment the lid reads open (a finger may be on its way to
# the roller), but the fire is aborted ("lid") only once it has read open for _LID_MS; a bounce or a spike
# shorter than that pauses the motor for those few ms and the fire goes on where it was.
# How EMPTY is told from JAM (no current sensing): when no card reaches the beam within card_ms the
# motor stops, gives a reverse pulse and retries once. If the retry stalls too, the beam decides:
#   beam blocked -> JAM  (a card is wedged in the exit slot);
#   beam clear   -> EMPTY (nothing reaches the exit: the hopper is empty, L4).
# A card wedged in the beam at the first stall and pulled clear by the reverse pulse went back inside,
# so it is taken off the count (it is counted again when it comes out). Every card a pulse frees is reversed
# until it has been out of the beam _FREED_BACK_MS (a freed pair can end its pulse still in the beam, or
# just short of it), so fed again it enters the beam at speed: measured, a double-fed pair counts two.
# A double feed (one long beam block, one edge) counts two cards: see BlockTimer.
# At the end the motor keeps going until the last card has left the beam, then the reverse pulse pulls the
# next card back; a card in the beam after that is STUCK (T4). A last card still in the beam after exit_ms
# is wedged in the nip or snagged in the slot: the beam cannot tell which, nor whether it is one card or a
# double-fed pair (one block that never ends). So the feeder brakes and reverses (3 times, 8 when the stall
# may be a wedged card's), pushing forward between pulses: a wedged card that comes free (half of them at
# each pulse) goes back inside, is taken off the count and fed again, and its block is measured at speed (a
# pair counts two). A last card freed a third time in one fire stays inside: JAM (it wedges each time it is
# fed; a wedged pair cannot be told from one card by its stall, so it is never counted blind). A card that
# leaves the beam during the brake after a pulse went backwards: it is a freed card, not one pushed out.
# One still in the beam after the pulses is STUCK. A snagged card is out of the nip: no pulse
# moves it. The battery ADC tells it from one card: the roller turns freely until the next card jams
# behind the snagged one and holds it (stall current sags the pack ~0.5 V), and that comes later than
# 1.91 card blocks after the block began only when the snagged block is a double-fed pair (see STUCK in
# Feeder.tick). A wedged card that no pulse frees counts two when its stall came 1.2-1.6 blocks after its
# block began (later than one wedged card can stall, sooner than a snagged one: a wedged pair).
# Every direction change, both ways, passes through _BRAKE_MS of braking (both bridge inputs high): reversing
# a roller at full speed draws ~3.5 A from a 2 A-stall motor, past the DRV8833's over-current trip and the
# TB6612's rating, and a forward start straight from a reverse pulse ~3 A. So a reverse pulse comes after a
# brake, and so does every forward start after one (the retry after a stall, a freed card fed again, the
# push between two pulses); the fire's last reverse pulse is followed by braking through the settle time,
# and a fire that starts while the last drive was a reverse not yet braked (a cut mid-pulse, settle_ms < 30)
# brakes first (`_dir`).
# A fire that did not end with that reverse pulse (a fault or a cut) may leave a card in the nip just short
# of the beam (after STUCK, the card that jammed behind the stuck one). The next fire then starts with the
# reverse pulse, when the beam is clear, so that card is pulled back and enters the beam with the roller at
# speed: its block is measured, and a double-fed pair waiting there is counted as two.
# A cut (lid, host silence, ontime, abort) stops the motor at once, but the roller coasts and may still carry
# a card out: the beam keeps counting through the run-down, and the result comes _RUNDOWN_MS after the cut
# and _QUIET_MS after the beam last changed (at most _RUNDOWN_MAX_MS), so FIRED k counts that card too.
# Backstop: each fire arms a one-shot timer (Board.cut_after) at max_on_ms + _CUT_MARGIN_MS that stops the
# motor even if the main loop hangs.

from unoxfw.link import ticks_diff

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        return value


_IDLE = const(0)
_SPIN = const(1)
_RETRY_BACK = const(2)
_EXIT = const(3)
_END_BACK = const(4)
_SETTLE = const(5)
_RUNDOWN = const(6)
_RUNDOWN_MS = const(800)  # a coasting roller (~100 ms time constant) has long stopped by then
_QUIET_MS = const(300)  # and the beam has not changed for this long
_RUNDOWN_MAX_MS = const(2000)
_CUT_MARGIN_MS = const(20)
_MIN_BLOCK_MS = const(10)
_SPIN_UP_MS = const(50)  # a card entering the beam sooner after the roller (re)started was not at speed
_BEAM_STABLE_MS = const(4)  # a block shorter than this is a glitch, not a card (issue 17: 3-5 ms)
_BEAM_CLEAR_MS = const(3)  # and a clear shorter than this, inside a card (issue 23: 2-4 ms, in ms ticks)
_LID_MS = const(10)  # the lid must read open this long to abort a fire (a bounce or a spike only pauses it)
_BRAKED = const(2)  # Feeder._cmd: the bridge brakes (else _cmd is the motor value last driven)
_BRAKE_MS = const(40)  # braking at each direction change (30-50 ms)
_BRAKE = const(7)
_PRE_BACK = const(8)
_EXIT_BACK = const(9)
_EXIT_PUSH = const(10)
_PUSH_MS = const(40)  # forward between two reverse pulses: each pulse then wiggles the wedged card anew
_PUSH_BACK_MS = const(10)  # a beam clear this soon in the push: the roller still turned back
_END_TRIES = const(3)  # reverse pulses for a last card still in the beam: a wedged one stays 1 time in 8
_MAX_FREES = const(2)  # last cards freed and fed again in one fire; one freed after that ends the fire (JAM)
_FREED_BACK_MS = const(40)  # a freed last card reverses this long past the beam: fed again, it is at speed
_WEDGED_TRIES = const(8)  # when the stall proves it wedged in the nip: 1 time in 256
_WEDGED = const(120)  # percent of one card's block: a stall sooner after the block began is a wedged card
_WEDGED_PAIR = const(160)  # a stall from _WEDGED up to this: a wedged double-fed pair (see STUCK in tick)
_WEDGED_TRIED = const(170)  # a stall sooner than this may be a wedged card (a pair's reaches 166): 8 pulses
_SNAG_PAIR = const(191)  # percent of one card's block: a snagged last card whose roller stalled later was
# longer than one card (see STUCK in tick)


class BlockTimer:
    # Double feeds: two shingled cards leave together and the beam sees ONE block, 1.3-1.7 card lengths
    # long, with one falling edge. The timer learns how long one card blocks the beam (the shortest block
    # seen, drifting up slowly with a weakening pack; relearnt when the duty changes) and counts a block
    # 1.2x that long or longer as two cards. Only blocks that start and end with the motor forward count.
    # With nothing learnt yet (after boot or a duty change) the first block becomes the reference, and is
    # counted as a double afterwards if a later block of the same fire proves it 1.2x too long.
    def __init__(self):
        self.ref = 0
        self.extra = 0
        self._first = 0
        self._duty = -1
        self._blocked = False
        self._valid = False
        self._since = 0
        self._spun = 0  # when the roller (re)started forward (Feeder): _SPIN_UP_MS to reach speed

    def start(self, blocked, duty, now_ms):
        if duty != self._duty:
            self.ref = 0
            self._duty = duty
        self.extra = 0
        self._first = 0
        self._blocked = blocked
        self._valid = False
        self._since = now_ms

    def watch(self, blocked, forward, now_ms):
        if not forward:
            self._valid = False
        if blocked == self._blocked:
            return
        self._blocked = blocked
        if blocked:
            # A card that enters while the roller is still spinning up (one left near the beam by an earlier
            # fire, or after the retry's reverse pulse) blocks the beam longer than one card at speed: its
            # block is not measured, so it is neither learnt nor counted as a double.
            self._since = now_ms
            self._valid = forward and ticks_diff(now_ms, self._spun) >= _SPIN_UP_MS
        elif self._valid:
            ms = ticks_diff(now_ms, self._since)  # the block's length
            ref = self.ref
            if ms < _MIN_BLOCK_MS:
                return
            if not ref:
                self.ref = self._first = ms
            elif ms < ref:
                if self._first and self._first * 5 > ms * 6:
                    self.extra += 1  # the unlearnt first block of this fire was two cards
                self._first = 0
                self.ref = ms
            elif ms * 5 > ref * 6:
                self.extra += 1
            else:
                self.ref = (ref * 3 + ms) // 4


class Feeder:
    def __init__(self, board, settings):
        self._board = board
        self._s = settings.values
        self._phase = _IDLE
        self._blocked_at_stall = False
        self._t0 = 0
        self._t = 0
        self.blocks = BlockTimer()
        self._cut = None
        self._edges = 0
        self._beam = False
        # the beam's card counter: a block that stays blocked _BEAM_STABLE_MS counts, from the IRQ's edge
        # count and the level sampled each tick (its state: start). `_count` only grows.
        self._count = 0
        self._next = _IDLE
        self._clean = True  # the last fire ended with its reverse pulse: nothing waits in the nip
        self._dir = 0  # the last drive's direction (1, -1) until a brake of _BRAKE_MS; 0 after one
        self._cmd = 0  # what the feeder drives: a motor value, or _BRAKED (restored after a lid spike)
        self._duty_pct = -1
        self._duty_value = 0
        self.start(0, 0)  # every fire's own state, as after a fire of no card (it drives nothing)

    def busy(self):
        return self._phase != _IDLE

    def fired(self):
        count = self._count - self._base - self._pulled + self.blocks.extra
        return count if count > 0 else 0

    def duty(self):
        # the forward motor value (cached: a float per loop tick would feed the collector)
        pct = self._s["duty"]
        if pct != self._duty_pct:
            self._duty_pct = pct
            self._duty_value = pct / 100
        return self._duty_value

    def cut_ms(self):
        # the backstop's delay for a fire (Board.cut_after)
        return self._s["max_on_ms"] + _CUT_MARGIN_MS

    def ready(self):
        # idle, and a fire started now would drive forward at once (no brake, no pull-back first)
        return self._phase == _IDLE and self._dir >= 0 and (self._clean or self._board.beam_blocked())

    def start(self, n, now_ms):
        self._n = n
        board = self._board
        # the beam's counter: a block already there when a fire starts is an old card, not a new one
        self._bedges = board.beam_count()  # the edge count at the last sample
        self._low = board.beam_blocked()
        self._counted = True
        self._since = now_ms
        self._clear = -1  # when a clear inside a block was first sampled (-1: none)
        self._base = self._count
        self._pulled = 0
        self._seen = 0
        self._retried = False
        self._end_tries = 0
        self._frees = 0
        self._clear_t = 0
        self._free_mv = 0
        self._stall_ms = 0
        self._stall_fired = 0
        self._cut_retry = False
        self._cut_stall = False
        self.wedged = 0
        self.blocks.extra = 0
        self._lid_at = -1  # when the lid was first read open in this fire (-1: shut)
        if n <= 0:
            return (0, n, None, "-")
        if board.lid_open():
            self._drive(0)  # a press's timer may have started it (unoxfw.board, the fast press)
            return (0, n, "lid", "-")
        self._t0 = now_ms
        self.blocks.start(board.beam_blocked(), self._s["duty"], now_ms)
        board.cut_after(self._s["max_on_ms"] + _CUT_MARGIN_MS)
        if not self._clean and not board.beam_blocked():
            self._clean = True
            self._back(_PRE_BACK, now_ms)  # pull back a card left in the nip (braked first: it may coast)
            return None
        if self._dir < 0:
            self._back(_SPIN, now_ms)  # the last drive was a reverse pulse not braked since: brake first
            return None
        self.blocks._spun = now_ms  # the roller starts forward: it needs _SPIN_UP_MS to reach speed
        self._drive(self.duty())  # cached: no new float before the motor starts
        self._dir = 1
        self._phase = _SPIN
        self._t = now_ms
        return None

    def _drive(self, value):
        self._board.motor(value)
        self._cmd = value

    def _back(self, phase, now_ms):
        # brake first, then the reverse pulse (phase `phase` once reversing)
        self._board.brake()
        self._cmd = _BRAKED
        self._next = phase
        self._phase = _BRAKE
        self._t = now_ms

    def _finish(self, fault, detail, clean=False):
        self._drive(0)
        self._board.cut_cancel()
        self._phase = _IDLE
        self._clean = clean
        return (self.fired(), self._n, fault, detail)

    def cutting(self):
        return self._phase == _RUNDOWN

    def abort(self, now_ms, fault, detail="-"):
        # Motor off now; the result follows from tick() once the run-down is over. A second cut is ignored.
        if self._phase == _IDLE or self._phase == _RUNDOWN:
            return None
        self._drive(0)
        board = self._board
        self._cut = (fault, detail)
        self._cut_retry = self._phase == _RETRY_BACK or (self._phase == _BRAKE and self._next == _RETRY_BACK)
        # a card held in the beam for half of card_ms while feeding (a card passes in tens of ms): stalled,
        # whether or not the loop has called it a stall yet
        held = ticks_diff(now_ms, board.beam_changed_ms(now_ms))
        self._cut_stall = self._phase == _SPIN and board.beam_blocked() and 2 * held >= self._s["card_ms"]
        self._phase = _RUNDOWN
        self._t = self._t0 = now_ms
        self._edges = board.beam_count()
        self._beam = board.beam_blocked()
        return None

    def tick(self, now_ms):
        phase = self._phase
        if phase == _IDLE:
            return None
        board, s = self._board, self._s
        # the beam's counter: the level sampled once per tick, and the IRQ's edge count
        edges, blocked = board.beam_count(), board.beam_blocked()
        new_edge = edges != self._bedges
        self._bedges = edges
        if not blocked:
            if self._low:
                # the block ends once the beam has stayed clear _BEAM_CLEAR_MS: a shorter clear is a glitch
                if self._clear < 0:
                    self._clear = now_ms
                elif ticks_diff(now_ms, self._clear) >= _BEAM_CLEAR_MS:
                    self._low = False
                    self._clear = -1
        else:
            if self._clear >= 0 and not new_edge:
                # blocked again after a clear too short to end the block: the same block goes on (a block not
                # yet counted must be stable _BEAM_STABLE_MS from now)
                self._clear = -1
                if not self._counted:
                    self._since = now_ms
            elif new_edge or not self._low:
                # a block began since the last sample (any glitch before it has risen again)
                self._low = True
                self._counted = False
                self._since = now_ms
                self._clear = -1
            if not self._counted and ticks_diff(now_ms, self._since) >= _BEAM_STABLE_MS:
                self._counted = True
                self._count += 1
        # a block's ends timed by the beam's IRQ where the board can (the loop may look 10+ ms late)
        # (not while a lid spike holds the motor off: a block measured then is no card's length)
        self.blocks.watch(blocked, (phase == _SPIN or phase == _EXIT) and self._lid_at < 0,
                          board.beam_changed_ms(now_ms))
        if phase == _RUNDOWN:
            edges, beam = board.beam_count(), board.beam_blocked()
            if edges != self._edges or beam != self._beam:
                self._edges, self._beam, self._t = edges, beam, now_ms  # a card still moves
            ms = ticks_diff(now_ms, self._t0)  # since the cut
            if (ms < _RUNDOWN_MS or ticks_diff(now_ms, self._t) < _QUIET_MS) and ms < _RUNDOWN_MAX_MS:
                return None  # still moving
            fault, detail = self._cut
            # jammed: cut at a stall, or after the retry with no card out since
            if (self._cut_stall or (self._retried and self.fired() <= self._stall_fired)) and fault != "jam":
                # cut while the card wedged at the stall was being freed (issue 22): it did not come out
                if board.beam_blocked():
                    self.wedged = 1 if self._count > self._base and self.fired() > 0 else 0
                    return self._finish("jam", "wedged")  # still wedged: the jam, not counted
                if self._cut_retry and self._blocked_at_stall:
                    self._pulled += 1  # freed by the pulse, it went back inside
            return self._finish(fault, detail)
        if phase != _SETTLE:
            # The lid: the fire is aborted once it has read open at every tick for _LID_MS. The motor stops at
            # the first open reading; a lid that reads shut again sooner was a bounce or a spike: the drive
            # comes back.
            if board.lid_open():
                if self._lid_at < 0:
                    self._lid_at = now_ms
                    board.motor(0)
                if ticks_diff(now_ms, self._lid_at) >= _LID_MS:
                    return self.abort(now_ms, "lid")
            elif self._lid_at >= 0:
                self._lid_at = -1
                if self._cmd == _BRAKED:
                    board.brake()
                    if phase == _BRAKE:
                        self._t = now_ms  # the spike coasted the motor: the brake's _BRAKE_MS start again
                else:
                    board.motor(self._cmd)
            if self._lid_at >= 0:
                return None  # the lid reads open: the motor waits, off, until it is open _LID_MS or shut
            if ticks_diff(now_ms, self._t0) > s["max_on_ms"]:
                return self.abort(now_ms, "jam", "ontime")
        waited = ticks_diff(now_ms, self._t)
        if phase == _SPIN:
            fired = self.fired()
            if fired != self._seen:
                self._seen = fired
                self._t = now_ms
                waited = 0
            if fired >= self._n:
                self._phase = _EXIT
                self._t = now_ms
                # the roller turning freely, the last card in the nip (None: no ADC, the host's direct-GPIO
                # board)
                self._free_mv = board.battery_mv() or 0
                self._stall_ms = 0
                return None
            if waited <= s["card_ms"]:
                return None
            blocked = board.beam_blocked()
            if not self._retried:
                self._retried = True
                self._stall_fired = self.fired()
                self._blocked_at_stall = blocked
                self._back(_RETRY_BACK, now_ms)
                return None
            if blocked:
                # The card blocking the beam is wedged; it was counted when it entered, unless the beam has
                # been blocked since before this fire (no edge: a card left from an earlier fire).
                self.wedged = 1 if self._count > self._base and self.fired() > 0 else 0
                return self._finish("jam", "wedged")
            return self._finish("empty", "-")
        if phase == _BRAKE:
            if waited >= _BRAKE_MS:
                self._dir = 0  # braked: either direction may follow
                if self._next == _SPIN or (self._next == _EXIT_PUSH and board.beam_blocked()):
                    # forward: the (re)start (the roller needs _SPIN_UP_MS to reach speed), or the push
                    if self._next == _SPIN:
                        self.blocks._spun = now_ms
                    self._drive(self.duty())
                    self._dir = 1
                    self._phase = self._next
                    self._t = now_ms
                else:
                    # the reverse pulse; after _EXIT_PUSH's brake with the beam clear, the card freed by the
                    # last pulse left the beam backwards in the brake: pull it further back (_EXIT_BACK)
                    self._drive(-self.duty())
                    self._dir = -1
                    self._phase = _EXIT_BACK if self._next == _EXIT_PUSH else self._next
                    self._t = now_ms
        elif phase == _PRE_BACK:
            if waited >= s["reverse_ms"]:
                self._back(_SPIN, now_ms)  # brake, then forward
        elif phase == _RETRY_BACK:
            blocked = board.beam_blocked()
            if blocked:
                self._clear_t = now_ms
            if waited >= s["reverse_ms"]:
                if self._blocked_at_stall:
                    # A card wedged in the beam that this pulse frees goes back with the roller: give it up to
                    # a second pulse's time to leave the beam, then _FREED_BACK_MS more, so that fed again it
                    # enters at speed and is measured (a double-fed pair counts two).
                    if blocked and waited < 2 * s["reverse_ms"]:
                        return None
                    if not blocked and ticks_diff(now_ms, self._clear_t) < _FREED_BACK_MS:
                        return None
                    if not blocked:
                        self._pulled += 1
                self._back(_SPIN, now_ms)  # brake, then the retry forward
        elif phase == _EXIT:
            if not board.beam_blocked():
                self._back(_END_BACK, now_ms)
                return None
            if not self._stall_ms and self._free_mv and board.battery_mv() * 16 < self._free_mv * 15:
                # the roller is held (stall current): how long the block in progress has lasted, if it began
                # with the roller forward at speed (else -1)
                b = self.blocks
                self._stall_ms = (ticks_diff(now_ms, b._since) if b._blocked and b._valid else 0) or -1
            if waited > s["exit_ms"]:
                self._end_tries = 1
                self._back(_EXIT_BACK, now_ms)  # a card wedged in the nip may come free
        elif phase == _EXIT_BACK:
            if board.beam_blocked():
                self._clear_t = now_ms
            if waited >= s["reverse_ms"]:
                if board.beam_blocked():
                    # A card wedged in the nip stalls the roller within its own length: one card within 1.0
                    # card block after its block began, a double-fed pair (1.3-1.7 cards long) within 1.66. A
                    # snagged card stalls it no sooner than 1.65 (the next card must come up behind it). So a
                    # stall sooner than _WEDGED_TRIED may be a wedged card, which pulses can free: 8 of them
                    # (a snagged one only waits longer for its STUCK).
                    stall, ref = self._stall_ms, self.blocks.ref
                    tries = _WEDGED_TRIES if stall > 0 and stall * 100 < ref * _WEDGED_TRIED else _END_TRIES
                    if self._end_tries >= tries:
                        if waited < 2 * s["reverse_ms"]:
                            return None  # freed by this last pulse, it may still be on its way back: wait
                        # snagged in the slot, or wedged for good: STUCK
                        # The last card stays in the beam for good. Snagged: the roller turns freely until the
                        # next card jams behind it and holds it. That stall comes when the roller has moved
                        # the snagged card's length, plus the way from the stack to its tail, after the block
                        # began: one card is never that late, a double-fed pair (30-70 % longer) always is.
                        # Wedged: the stall comes within the card's own length, later than one card's block
                        # only for a pair (_WEDGED to _WEDGED_PAIR). Either pair counts two.
                        if ref and stall > 0 and (stall * 100 > ref * _SNAG_PAIR
                                              or ref * _WEDGED <= stall * 100 < ref * _WEDGED_PAIR):
                            self.blocks.extra += 1
                        return self._finish("stuck", "-")
                    self._end_tries += 1
                    self._back(_EXIT_PUSH, now_ms)  # brake, push forward, brake, reverse again
                    return None
                if ticks_diff(now_ms, self._clear_t) < _FREED_BACK_MS:
                    return None  # freed late in the pulse, it is still near the beam: pull it further back
                self._pulled += 1  # it went back inside: counted again when it comes out, at speed
                self._end_tries = 0  # the card fed next may wedge too: pulses again, _MAX_FREES times
                self._frees += 1
                if self._frees > _MAX_FREES:
                    return self._finish("jam", "wedged")  # it wedges each time it is fed: inside, not counted
                self._back(_SPIN, now_ms)  # brake, then feed it again
        elif phase == _EXIT_PUSH:
            if not board.beam_blocked():
                if waited <= _PUSH_BACK_MS:
                    # freed by the last pulse, it left the beam backwards as the roller still turned back:
                    # inside, not out. Pulled further back, it is a freed card.
                    self._back(_EXIT_BACK, now_ms)
                else:
                    self._back(_END_BACK, now_ms)  # freed by the last pulse and pushed out: it left, the end
            elif waited >= _PUSH_MS:
                self._back(_EXIT_BACK, now_ms)
        elif phase == _END_BACK:
            if waited >= s["reverse_ms"]:
                board.brake()  # the roller stops, and the next fire may start forward at once
                self._cmd = _BRAKED
                self._phase = _SETTLE
                self._t = now_ms
        elif waited >= s["settle_ms"]:
            if waited >= _BRAKE_MS:
                self._dir = 0
            blocked = board.beam_blocked()
            return self._finish("stuck" if blocked else None, "-", not blocked)
        return None
