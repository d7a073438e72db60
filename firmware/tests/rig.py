# A small test rig: the real firmware (unoxfw.runner) on the fake `machine`, a virtual clock and a toy
# card model. Runs under MicroPython and CPython. Not the project's simulator (simulator/unoxsim): just
# enough physics to drive every branch of the feeder.
#
# Card model: with the motor forward (> 0.2) a card reaches the beam after feed_ms, blocks it for
# pass_ms and leaves. wedge=(k, times): the k-th card stops inside the beam `times` times; a reverse
# pulse pulls it back into the hopper. stick=k: the k-th card stops in the beam for good (STUCK).
# creep=True: when the final reverse pulse ends, the next card slides into the beam and stays there.
# double=(k, ...): card k drags card k+1 along, half a card behind: one 1.5x long block, two cards out.
# pack=(rest_mv, run_mv, stall_mv): the battery ADC reads run_mv while the motor is driven, stall_mv while
# it drives forward against a wedged or stuck card, rest_mv otherwise, but the last loaded value for
# recover_ms after the motor stops (cells recovering). pack=None: the ADC is left to the test.
# timed=True: the board times the beam's edges on the rig's clock (main.py's Board(ticks=time.ticks_ms)).

from unoxfw.link import PROTOCOL, Endpoint
from unoxfw.pins import BATTERY, PINS
from unoxfw.runner import boot, step


def adc_raw(mv):
    # the battery ADC reading for a pack voltage, through the divider in unoxfw.pins.BATTERY
    ratio = (BATTERY["r_top_ohm"] + BATTERY["r_bottom_ohm"]) / BATTERY["r_bottom_ohm"]
    return int(mv / ratio / BATTERY["adc_ref_mv"] * 65535)


class FakeIO:
    def __init__(self):
        self.inbox = b""
        self.out = b""

    def read(self):
        data = self.inbox
        self.inbox = b""
        return data

    def write(self, data):
        self.out += data


class Rig:
    def __init__(self, machine, cards=20, config=None, seed=1, wedge=None, stick=None, feed_ms=150,
                 pass_ms=40, creep=False, double=None, pack=None, recover_ms=0, timed=False):
        # machine: the fake module (tests/machine.py), passed in so CPython never needs a global `machine`
        machine.reset_all()
        if pack:
            machine.set_adc(PINS["battery_adc"], adc_raw(pack[0]))  # the pack at boot, at rest
        self.machine = machine
        self.io = FakeIO()
        self.now = 0
        # timed=True: the beam's IRQ times its edges on the rig's clock, as main.py's board does on the Pico
        self.board, self.app = boot(machine, self.io, 0, None, config, seed, self._ticks if timed else None)
        self.cards = cards
        self.fired = 0
        self.feed_ms = feed_ms
        self.pass_ms = pass_ms
        self.wedge = wedge
        self.stick = stick
        self.creep = creep  # after a reverse pulse ends, the next card slides into the beam and stays
        self.double = double  # card numbers (a tuple) that drag the card above along: one long block
        self._pair = False
        self._progress = 0
        self._in_beam = 0
        self._card_no = 0
        self._wedged = False
        self._stuck = False
        self._release_at = None
        self.max_motor_ms = 0
        self._motor_ms = 0
        self.reversals = 0
        self._last_m = 0
        # the host side: an Endpoint of the same codec; frames the firmware sent land in .received
        self.host = Endpoint(self._host_write, epoch=0x4000 + seed)
        self.received = []
        self.host_beat_ms = 300
        self.host_silent = False
        self.wire_to_fw = None
        self._host_beat = 0
        self.tones = []  # (ms, freq_hz) at every buzzer change, freq 0 = silent
        self.pack = pack
        self.recover_ms = recover_ms
        self.pack_min = None  # the lowest pack mV the ADC showed
        self._loaded_mv = 0
        self._recover = 0
        self.set_lid(False)
        self.run(50)

    def _ticks(self):
        return self.now

    def _host_write(self, data):
        if self.wire_to_fw is not None:
            data = self.wire_to_fw(data)
        self.io.inbox += data

    def connect(self):
        self.host.hello((str(PROTOCOL), "rig"), self.now)
        self.run(50)

    def kinds(self):
        return [f[1] for f in self.received]

    def frames(self, kind):
        return [f for f in self.received if f[1] == kind]

    def _pump_host(self):
        out = self.io.out
        self.io.out = b""
        if self.host_silent:
            return
        for frame in self.host.receive(out, self.now):
            self.received.append(frame)
        self.host.poll(self.now)
        if self.host.session and self.now - self._host_beat >= self.host_beat_ms:
            self._host_beat = self.now
            self.host.send_unreliable("HEARTBEAT")

    def pin(self, name):
        return self.machine.pin(PINS[name])

    def motor(self):
        return self.board.motor_value()

    def _forward(self, dt):
        if self._in_beam:
            if self._wedged or self._stuck:
                return
            self._in_beam += dt
            if self._in_beam >= (self.pass_ms * 3 // 2 if self._pair else self.pass_ms):
                self._in_beam = 0
                self.fired += 2 if self._pair else 1
                self._pair = False
                self.pin("beam").drive(1)
            return
        if self.cards <= 0:
            return
        self._progress += dt
        if self._progress >= self.feed_ms:
            self._progress = 0
            self.cards -= 1
            self._card_no += 1
            self._in_beam = 1
            if self.double and self._card_no in self.double and self.cards > 0:
                self._pair = True  # shingled half a card behind: the beam sees 1.5 card lengths
                self.cards -= 1
                self._card_no += 1
            self.pin("beam").drive(0)
            if self.wedge and self._card_no == self.wedge[0] and self.wedge[1] > 0:
                self._wedged = True
                self.wedge = (self.wedge[0], self.wedge[1] - 1)
            if self.stick and self._card_no == self.stick:
                self._stuck = True

    def _reverse(self):
        self._progress = 0
        if self._in_beam and self._wedged:
            self._wedged = False
            self._in_beam = 0
            self.cards += 1
            self._card_no -= 1
            self.pin("beam").drive(1)

    def physics(self, dt):
        m = self.motor()
        if m < 0 and self._last_m >= 0:
            self.reversals += 1
        if self.creep and m == 0 and self._last_m < 0 and self.cards > 0 and not self._in_beam:
            self.creep = False
            self.cards -= 1
            self._in_beam = 1
            self._stuck = True
            self.pin("beam").drive(0)
        self._last_m = m
        if m > 0.2:
            self._forward(dt)
        elif m < -0.2:
            self._reverse()
        if m != 0:
            self._motor_ms += dt
            if self._motor_ms > self.max_motor_ms:
                self.max_motor_ms = self._motor_ms
        else:
            self._motor_ms = 0
        if self.pack:
            self._pack_adc(m, dt)
        if self._release_at is not None and self.now >= self._release_at:
            self._release_at = None
            self.pin("button").drive(1)

    def _pack_adc(self, m, dt):
        rest_mv, run_mv, stall_mv = self.pack
        if m > 0.2 and self._in_beam and (self._wedged or self._stuck):
            mv = stall_mv
        elif m != 0:
            mv = run_mv
        elif self._recover > 0:
            self._recover -= dt
            mv = self._loaded_mv
        else:
            mv = rest_mv
        if m != 0:
            self._loaded_mv = mv
            self._recover = self.recover_ms
        if self.pack_min is None or mv < self.pack_min:
            self.pack_min = mv
        self.machine.set_adc(PINS["battery_adc"], adc_raw(mv))

    def run(self, ms, dt=5, feed=True, frozen=False):
        # frozen=True: the main loop hangs (no tick, no feed); timers still fire, as IRQs do
        end = self.now + ms
        while self.now < end:
            self.physics(dt)
            self.now += dt
            self.machine.run_timers(self.now)
            if frozen:
                pass
            elif feed:
                step(self.board, self.app, self.now)
            else:
                self.app.tick(self.now)
            self._pump_host()
            hz = self.board.tone_hz()
            if (self.tones[-1][1] if self.tones else 0) != hz:
                self.tones.append((self.now, hz))

    def beeps(self, since=0):
        # number of distinct sounds (silence -> tone) since a time
        return len([t for t in self.tones if t[0] > since and t[1] > 0])

    def fire(self, n):
        return self.host.send("FIRE", (n,), self.now)

    def press(self, hold_ms=40):
        self.pin("button").drive(0)
        self._release_at = self.now + hold_ms

    def set_lid(self, is_open):
        self.pin("lid").drive(1 if is_open else 0)
