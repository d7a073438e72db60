# unoxfw.board: the hardware layer over an injected `machine` module (real on the Pico, fake in the
# simulator and tests). Only calls that real MicroPython `machine` offers are used.
#
# Board(machine, pins, battery=None, ticks=None):  (battery None: unoxfw.pins.BATTERY; ticks: time.ticks_ms)
#   motor(value) -1..1 (DRV8833 IN1/IN2 PWM; 0 coasts), brake() (both inputs high), motor_value(),
#   beam_count(), beam_blocked(), beam_changed_ms(now_ms), presses(), take_press(now_ms),
#   button_down(), lid_open(), tone(freq) (Hz), battery_mv(), wdt_start(timeout_ms), wdt_feed(),
#   cut_after(ms), cut_cancel(), use_wdt(wdt); .uid: machine.unique_id() as lower-case hex
#   (presses(), button_down(), tone_hz() and wdt_start() are for the tests and the simulator: not on the chip)
#   use_schedule(schedule, on_press): the fast press (below); arm_press(value): the motor value a press
#   starts the motor at from its timer (0: none); press_started(): True once when a press did
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
# The button's IRQ stamps both edges the same way (issue 22): take_press(now_ms) is True once per press, a
# press being a low of at least _PRESS_MIN_MS, taken as soon as the loop sees it: the button still down
# _PRESS_MIN_MS after its first fall (bounce at the press included), or a low that long which already ended
# (a press shorter than the loop's lateness). After a press nothing more counts until the button has been
# up and quiet for _REARM_MS, so release chatter is never a second press. Without `ticks` the edges are
# stamped with the loop's last time (take_press's now_ms): the same rules, at the loop's resolution.
# The fast press (issue 22, on the chip: main.py passes micropython.schedule): the first fall schedules a
# one-shot hard Timer at _PRESS_MIN_MS after it (armed from thread context: a soft timer is not inserted from
# an IRQ). When it fires and the button is still down, the press is taken there and then: if the app armed a
# motor value (a standalone fire that would start forward at once: arm_press), the timer starts the motor
# itself, with the on-time backstop already armed, and on_press is scheduled so the app takes the press at
# the next bytecode instead of the loop's next tick. A button that is up at that moment (bounce) is left to
# take_press, as without it. A glitch never starts the motor: the level is read at the filter's end.

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        return value


import sys

from unoxfw.link import ticks_diff

_MOTOR_HZ = const(20000)
_PRESS_MIN_MS = const(2)  # a low shorter than this is a glitch, not a press
_REARM_MS = const(20)  # up and quiet this long after a press before the next one can start
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
        self.uid = ""
        for b in machine.unique_id():  # a loop, not a generator: no code object kept for it
            self.uid += f"{b:02x}"
        self._beam_edges = 0
        self._ticks = ticks
        self._beam_at = -1  # when the beam last changed, timed by its IRQ (-1: no edge yet; ticks are >= 0)
        self._clear_at = 0  # when the beam last cleared (its last rising edge), timed by the IRQ
        self._falls = 0
        self._button_at = 0  # the button's last edge
        self._fell = 0  # its last fall
        self._first = -1  # its first fall since armed; -1: none
        self._long = False  # a low of at least _PRESS_MIN_MS ended since armed
        self._armed = self._button.value() == 1  # held at boot: armed once released
        if ticks is None:
            # the loop's last time (take_press): the button's edges are stamped with it. Only without ticks:
            # one attribute fewer keeps the board's instance table a size smaller on the chip (issue 22).
            self._loop_ms = 0
        self._motor = 0.0
        self._tone = 0
        self._battery = battery  # the ADC's reference and the divider (battery_mv)
        self._machine = machine
        self._wdt = None
        self._timer = None
        self.cuts = 0
        self._timer_cb = self._on_timer  # bound once (both timers): a hard IRQ may not allocate one
        self._schedule = None
        self._on_press = None
        self._press_timer = None
        self._arm_cb = self._arm_due
        self._press_value = 0  # arm_press: the motor value a press starts at (0: the timer starts nothing)
        self._press_duty = 0
        self._press_cut = 0
        self._cut_armed = False  # the backstop runs for the press the timer may start the motor for
        self._due = False  # the timer took the press; take_press reports it
        self._started = False  # ... and started the motor
        self._scheduled = False
        if ticks is None:
            self._beam.irq(self._on_beam, pin.IRQ_FALLING)
        else:
            self._beam.irq(self._on_beam, pin.IRQ_FALLING | pin.IRQ_RISING, hard=True)
        self._button.irq(self._on_button, pin.IRQ_FALLING | pin.IRQ_RISING, hard=ticks is not None)

    def _on_beam(self, _pin):
        # Without ticks: falls only, counted. With them: a falling edge is a new block only after the beam
        # was clear _CLEAR_MS (or at the first edge): a glitch that lights the beam for a moment inside a card
        # ends no block. Small ints only (hard IRQ).
        if self._ticks is None:
            self._beam_edges += 1
            return
        now = self._ticks()
        if self._beam.value() == 0:
            if self._beam_at < 0 or ((now - self._clear_at) & _TICKS_MASK) >= _CLEAR_MS:
                self._beam_edges += 1
        else:
            self._clear_at = now
        self._beam_at = now

    def _on_button(self, _pin):
        # both edges, stamped (without ticks: at the loop's last time); allocates nothing (small ints,
        # attributes that already exist)
        now = self._loop_ms if self._ticks is None else self._ticks()
        self._button_at = now
        if self._button.value() == 0:
            self._falls += 1
            self._fell = now
            if self._first < 0:
                self._first = now
                if self._schedule is not None and self._armed and not self._scheduled:
                    self._scheduled = True
                    try:
                        self._schedule(self._arm_cb, 0)
                    except RuntimeError:  # the schedule queue is full: take_press takes it
                        self._scheduled = False
        elif ticks_diff(now, self._fell) >= _PRESS_MIN_MS:
            self._long = True

    def use_schedule(self, schedule, on_press):
        # micropython.schedule, and what it runs when the timer took a press (the app's handler)
        self._schedule = schedule
        self._on_press = on_press
        self._press_timer = self._machine.Timer(-1)
        if self._timer is None:
            self._timer = self._machine.Timer(-1)

    def arm_press(self, value, cut_ms=0):
        # the motor value (forward) the next press starts the motor at from its timer, and the on-time
        # backstop it runs under (cut_after's ms); 0 disarms. Set by the loop only.
        self._press_duty = 0
        self._press_value = value
        self._press_cut = cut_ms
        if value > 0 and cut_ms > 0:
            self._press_duty = int(value * _FULL) if value < 1 else _FULL

    def press_started(self):
        # True once after the timer started the motor for a press
        if self._started:
            self._started = False
            return True
        return False

    def now_ms(self):
        # the clock the button's edges are stamped with
        return self._loop_ms if self._ticks is None else self._ticks()

    def press_due(self):
        return self._due

    def _arm_due(self, _arg):
        # thread context (scheduled by the first fall): the timer at _PRESS_MIN_MS after that fall
        self._scheduled = False
        if self._first < 0 or not self._armed:
            return
        ms = _PRESS_MIN_MS - ticks_diff(self._ticks(), self._first)  # left of the filter (only with ticks)
        timer = self._machine.Timer
        self._cut_armed = False
        if self._press_duty and not self._motor:
            # the backstop first, here in thread context (the timer's IRQ may not insert a timer): it covers
            # the motor the press may start; a press that never starts it leaves it to stop nothing (a fire
            # started meanwhile arms its own, cut_after, in its place)
            self._timer.init(mode=timer.ONE_SHOT, period=self._press_cut + (ms if ms > 0 else 0),
                             callback=self._timer_cb, hard=True)
            self._cut_armed = True
        if ms <= 0:
            self._on_timer(None)
            return
        self._press_timer.init(mode=timer.ONE_SHOT, period=ms, callback=self._timer_cb, hard=True)

    def _on_timer(self, timer):
        # hard IRQ, both one-shot timers; allocates nothing (small ints, objects that exist).
        if timer is self._timer:
            # the on-time backstop (cut_after): the motor stops
            if self._motor:
                self._in1.duty_u16(0)
                self._in2.duty_u16(0)
                self._motor = 0
                self.cuts += 1
            return
        # the press timer (or _arm_due itself, timer None): the glitch filter's end
        if self._button.value() != 0 or self._first < 0 or not self._armed or self._due:
            return
        self._due = True
        duty = self._press_duty
        if duty and self._cut_armed and not self._motor and self._lid.value() == 0:
            self._press_duty = 0
            self._in2.duty_u16(0)
            self._in1.duty_u16(duty)
            self._motor = self._press_value
            self._started = True
        self._cut_armed = False
        if self._on_press is not None:
            try:
                self._schedule(self._on_press, 0)
            except RuntimeError:  # the queue is full: the loop's next tick takes the press
                pass

    def take_press(self, now_ms):
        # True once per press (see the header); called by the loop every tick
        if self._ticks is None:
            self._loop_ms = now_ms
        if self._due:
            self._due = False
            self._armed = False
            return True
        if not self._armed:
            if self._button.value() == 1 and ticks_diff(now_ms, self._button_at) >= _REARM_MS:
                self._armed = True
                self._first = -1
                self._long = False
            return False
        if self._first < 0:
            return False
        low = self._button.value() == 0  # down
        if self._long or (low and ticks_diff(now_ms, self._first) >= _PRESS_MIN_MS):
            self._armed = False
            return True
        if not low and ticks_diff(now_ms, self._button_at) >= _PRESS_MIN_MS:
            self._first = -1  # a glitch, up again: forgotten
        return False

    def motor(self, value):
        if value > 1:
            value = 1.0
        elif value < -1:
            value = -1.0
        duty = int(abs(value) * _FULL)
        if value > 0:
            self._in2.duty_u16(0)
            self._in1.duty_u16(duty)
        else:  # reverse, or both low (duty 0): coast
            self._in1.duty_u16(0)
            self._in2.duty_u16(duty)
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
        return self._beam_at if self._beam_at >= 0 else now_ms

    def lid_open(self):
        return self._lid.value() == 1

    def tone(self, freq):
        # freq: Hz (0: silent)
        if freq == self._tone:
            return
        if freq > 0:
            self._buzzer.freq(freq)
            self._buzzer.duty_u16(_HALF)
        else:
            self._buzzer.duty_u16(0)
        self._tone = freq

    def battery_mv(self):
        # pack mV = ADC mV * (top + bottom) / bottom; two steps keep every product a small int.
        b = self._battery
        mv = self._adc.read_u16() * b["adc_ref_mv"] // _FULL  # at the ADC pin
        return mv * (b["r_top_ohm"] + b["r_bottom_ohm"]) // b["r_bottom_ohm"]

    def use_wdt(self, wdt):
        # main.py arms the watchdog before anything else and hands it over, so the loop feeds that one
        self._wdt = wdt

    def cut_after(self, ms):
        if self._timer is None:
            self._timer = self._machine.Timer(-1)  # -1: a virtual timer, as the rp2 stubs ask
        timer = self._machine.Timer
        self._timer.init(mode=timer.ONE_SHOT, period=ms, callback=self._timer_cb, hard=True)

    def cut_cancel(self):
        if self._timer is not None:
            self._timer.deinit()

    def wdt_feed(self):
        if self._wdt is not None:
            self._wdt.feed()

    if sys.platform != "rp2":
        # Hooks for the tests and the simulator, never called on the chip: there they are left out, so
        # their code is not kept in its heap (issue 22). main.py arms the watchdog itself (use_wdt).
        def presses(self):
            return self._falls

        def button_down(self):
            return self._button.value() == 0

        def tone_hz(self):
            return self._tone

        def wdt_start(self, timeout_ms):
            self._wdt = self._machine.WDT(timeout=timeout_ms)
