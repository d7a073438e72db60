# A fake `machine` module for the firmware tests, written in the subset both MicroPython and CPython
# run. The Node runner writes it to /lib/machine.py of the WebAssembly MicroPython; the CPython tests
# load it by path. It has only what the firmware may use: Pin (IRQs on edges), PWM, ADC, WDT, Timer, mem32,
# unique_id() (a fixed 8-byte id, as an RP2040's flash gives).
# Test hooks: pin(id), pwm(id), set_adc(id, raw), preset(id, level), reset_all(), wdts, timers,
# run_timers(now_ms) (fires due one-shot timers; the rig calls it with its virtual clock).

_pins = {}
_pwms = {}
_adc = {}
_preset = {}
wdts = []
log = []  # ("pin", id, mode, value) and ("wdt", timeout), in the order the firmware made them
timers = []
mem32 = {}
_now = [0]


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1):
        self.deadline = None
        self.callback = None
        self.hard = False
        timers.append(self)

    def init(self, mode=1, period=-1, callback=None, hard=False):
        if period <= 0:
            raise ValueError("period must be > 0")
        self.deadline = _now[0] + period
        self.callback = callback
        self.hard = hard

    def deinit(self):
        self.deadline = None


def run_timers(now_ms):
    _now[0] = now_ms
    for t in timers:
        if t.deadline is not None and t.deadline <= now_ms:
            t.deadline = None
            t.callback(t)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self._value = _preset.get(id, 1 if pull == Pin.PULL_UP else 0)
        if value is not None:
            self._value = 1 if value else 0
        log.append(("pin", id, mode, value))
        self._handler = None
        self._trigger = 0
        _pins[id] = self

    def value(self, v=None):
        if v is None:
            return self._value
        self.drive(v)
        return None

    def irq(self, handler=None, trigger=12, hard=False):
        self._handler = handler
        self._trigger = trigger

    def drive(self, v):
        # Test hook: the outside world sets the level; edges call the IRQ handler like the hardware.
        v = 1 if v else 0
        old = self._value
        self._value = v
        if self._handler is None or old == v:
            return
        if v == 0 and self._trigger & Pin.IRQ_FALLING:
            self._handler(self)
        elif v == 1 and self._trigger & Pin.IRQ_RISING:
            self._handler(self)


class PWM:
    def __init__(self, pin):
        self.pin = pin
        self._freq = 0
        self._duty = 0
        _pwms[pin.id] = self

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        if not 0 <= d <= 65535:
            raise ValueError("duty_u16 out of range")
        self._duty = d
        return None


class ADC:
    def __init__(self, id):
        self.id = id

    def read_u16(self):
        return _adc.get(self.id, 40000)


class WDT:
    def __init__(self, timeout=5000):
        if timeout > 8388:
            raise ValueError("RP2040 WDT timeout is at most 8388 ms")
        log.append(("wdt", timeout))
        self.timeout = timeout
        self.feeds = 0
        wdts.append(self)

    def feed(self):
        self.feeds += 1


def pin(id):
    return _pins[id]


def pwm(id):
    return _pwms[id]


def set_adc(id, raw):
    _adc[id] = raw


UID = b"\xe6\x61\x41\x04\x03\x2a\x5c\x2b"


def unique_id():
    return UID


def preset(id, v):
    # the level a pin reads when it is created (e.g. the lid switch already shut at boot)
    _preset[id] = v


def reset_all():
    _preset.clear()
    _pins.clear()
    _pwms.clear()
    _adc.clear()
    del wdts[:]
    del timers[:]
    del log[:]
    _now[0] = 0
