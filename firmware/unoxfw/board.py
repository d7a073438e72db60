# unoxfw.board: the hardware layer over an injected `machine` module (real on the Pico, fake in the
# simulator and tests). Only calls that real MicroPython `machine` offers are used.
#
# Board(machine, pins, battery=None, ticks=None):  (battery None: unoxfw.pins.BATTERY; ticks: time.ticks_ms)
#   motor(value) -1..1 (DRV8833 IN1/IN2 PWM; 0 coasts), brake() (both inputs high), motor_value(),
#   beam_count(), beam_blocked(), beam_changed_ms(now_ms), presses(),
#   button_down(), lid_open(), tone(freq_hz), battery_mv(), wdt_start(timeout_ms), wdt_feed(),
#   cut_after(ms), cut_cancel(), use_wdt(wdt); .uid: machine.unique_id() as lower-case hex
#
# The beam and button interrupt handlers only increment a counter: they allocate nothing (small ints).
# cut_after(ms) arms a one-shot machine.Timer whose callback stops the motor: a backstop for the on-time cap
# that does not need the main loop. The timer is hard (hard=True): on the rp2 port a soft Timer callback
# is scheduled and runs between bytecodes, so it never runs while the loop is stuck inside one long C call;
# a hard one runs from the timer interrupt in both cases (measured on MicroPython v1.28.0 in rp2040js:
# tests/pico/test_pico_safety.py). So the callback must not allocate: it writes two PWM duties, a small
# int and an attribute that already exists.
# With `ticks`, the beam's IRQ also times each edge, both ways, from a hard interrupt (it allocates nothing
# either): beam_changed_ms() is when the beam last changed, whenever the loop looks. On the Pico the loop was
# 10-13 ms late per frame (a bitwise CRC-16 in Python; ~3 ms since the table, docs/pico.md), and block
# lengths measured at the loop's pace made one card in ~18 a double feed (docs/reliability.md).

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        return value


_MOTOR_HZ = const(20000)
_CLEAR_MS = const(3)  # unoxfw.feeder._BEAM_CLEAR_MS: a shorter clear inside a card is a glitch, not a gap
_TICKS_MASK = const(0x3FFFFFFF)  # time.ticks_ms wraps at 2**30 on the rp2 port
_FULL = const(65535)
_HALF = const(32768)


class Board:
    def __init__(self, machine, pins, battery=None, ticks=None):
        if battery is None:
            from unoxfw.pins import BATTERY as battery
        pin = machine.Pin
        self._in1 = machine.PWM(pin(pins["motor_in1"]))
        self._in2 = machine.PWM(pin(pins["motor_in2"]))
        for pwm in (self._in1, self._in2):
            pwm.freq(_MOTOR_HZ)
            pwm.duty_u16(0)
        self._buzzer = machine.PWM(pin(pins["buzzer"]))
        self._buzzer.duty_u16(0)
        self._beam = pin(pins["beam"], pin.IN, pin.PULL_UP)
        self._button = pin(pins["button"], pin.IN, pin.PULL_UP)
        self._lid = pin(pins["lid"], pin.IN, pin.PULL_UP)
        self._adc = machine.ADC(pins["battery_adc"])
        # the board's identity, sent in HELLO: machine.unique_id() in lower-case hex, which MicroPython on a
        # Pico also gives the USB device as its serial number (so udev can name the port after it)
        self.uid = "".join(f"{b:02x}" for b in machine.unique_id())
        self._beam_edges = 0
        self._ticks = ticks
        self._beam_at = 0
        self._beam_timed = False
        self._clear_at = 0  # when the beam last cleared (its last rising edge), timed by the IRQ
        self._button_edges = 0
        self._motor = 0.0
        self._tone = 0
        # pack mV = ADC mV * (top + bottom) / bottom; two steps keep every product a small int.
        self._ref_mv = battery["adc_ref_mv"]
        self._div_num = battery["r_top_ohm"] + battery["r_bottom_ohm"]
        self._div_den = battery["r_bottom_ohm"]
        self._machine = machine
        self._wdt = None
        self._timer = None
        self.cuts = 0
        if ticks is None:
            self._beam.irq(self._on_beam, pin.IRQ_FALLING)
        else:
            self._beam.irq(self._on_beam_timed, pin.IRQ_FALLING | pin.IRQ_RISING, hard=True)
        self._button.irq(self._on_button, pin.IRQ_FALLING)

    def _on_beam(self, _pin):
        self._beam_edges += 1

    def _on_beam_timed(self, _pin):
        # A falling edge is a new block only after the beam was clear _CLEAR_MS (or at the first edge): a
        # glitch that lights the beam for a moment inside a card ends no block. Small ints only (hard IRQ).
        now = self._ticks()
        if self._beam.value() == 0:
            if not self._beam_timed or ((now - self._clear_at) & _TICKS_MASK) >= _CLEAR_MS:
                self._beam_edges += 1
        else:
            self._clear_at = now
        self._beam_at = now
        self._beam_timed = True

    def _on_button(self, _pin):
        self._button_edges += 1

    def motor(self, value):
        if value > 1:
            value = 1.0
        elif value < -1:
            value = -1.0
        duty = int(abs(value) * _FULL)
        if value > 0:
            self._in2.duty_u16(0)
            self._in1.duty_u16(duty)
        elif value < 0:
            self._in1.duty_u16(0)
            self._in2.duty_u16(duty)
        else:
            self._in1.duty_u16(0)
            self._in2.duty_u16(0)
        self._motor = value

    def brake(self):
        # both bridge inputs high: the motor's windings are shorted and the roller stops within ~50 ms
        self._in1.duty_u16(_FULL)
        self._in2.duty_u16(_FULL)
        self._motor = 0

    def motor_value(self):
        return self._motor

    def beam_count(self):
        return self._beam_edges

    def beam_blocked(self):
        return self._beam.value() == 0

    def beam_changed_ms(self, now_ms):
        # when the beam last changed, timed by its IRQ; without ticks (or before any edge), now
        return self._beam_at if self._beam_timed else now_ms

    def presses(self):
        return self._button_edges

    def button_down(self):
        return self._button.value() == 0

    def lid_open(self):
        return self._lid.value() == 1

    def tone(self, freq_hz):
        if freq_hz == self._tone:
            return
        if freq_hz > 0:
            self._buzzer.freq(freq_hz)
            self._buzzer.duty_u16(_HALF)
        else:
            self._buzzer.duty_u16(0)
        self._tone = freq_hz

    def tone_hz(self):
        return self._tone

    def battery_mv(self):
        adc_mv = self._adc.read_u16() * self._ref_mv // _FULL
        return adc_mv * self._div_num // self._div_den

    def wdt_start(self, timeout_ms):
        self._wdt = self._machine.WDT(timeout=timeout_ms)

    def use_wdt(self, wdt):
        # main.py arms the watchdog before anything else and hands it over, so the loop feeds that one
        self._wdt = wdt

    def cut_after(self, ms):
        if self._timer is None:
            self._timer = self._machine.Timer(-1)  # -1: a virtual timer, as the rp2 stubs ask
        timer = self._machine.Timer
        self._timer.init(mode=timer.ONE_SHOT, period=ms, callback=self._on_cut, hard=True)

    def cut_cancel(self):
        if self._timer is not None:
            self._timer.deinit()

    def _on_cut(self, _timer):
        if self._motor:
            self._in1.duty_u16(0)
            self._in2.duty_u16(0)
            self._motor = 0
            self.cuts += 1

    def wdt_feed(self):
        if self._wdt is not None:
            self._wdt.feed()
