# unoxfw.settings: calibration values the host may change with CONFIG key value. Each has bounds; a
# refused value leaves the old one in place and the reply names the allowed range.

from unoxfw.pins import BATTERY

# key: (default, lowest, highest). The battery thresholds' defaults come from hardware/pins.toml [battery]
# (NiMH cells need lower ones: hardware/MODDING.md); a host's [firmware] config overrides them per session.
LIMITS = {
    "duty": (80, 20, 100),  # motor PWM duty in percent while firing
    "card_ms": (900, 100, 5000),  # a card that does not reach the beam in this time is a stall
    "exit_ms": (600, 50, 5000),  # the last card must leave the beam within this time, else STUCK
    "reverse_ms": (120, 0, 1000),  # reverse pulse that pulls the next card back
    "settle_ms": (80, 0, 1000),  # wait after the reverse pulse before looking at the beam
    "max_on_ms": (8000, 500, 20000),  # hard cap on one fire's motor time (safety)
    "silence_ms": (1500, 200, 10000),  # host-commanded motor stops when the host is silent this long
    "link_ms": (4000, 1000, 60000),  # no frame from the host this long: link lost, work alone
    "beat_ms": (250, 100, 10000),  # firmware HEARTBEAT period (the host calls the link down after 1 s)
    "host_beat_ms": (500, 100, 5000),  # the host's HEARTBEAT period, sent by the host after HELLO
    "sleep_ms": (300000, 0, 3600000),  # idle time before sleep (L3); 0 = never sleep
    "low_mv": (BATTERY["low_mv"], 2500, 6000),  # below: low battery signal (L5)
    "crit_mv": (BATTERY["crit_mv"], 2000, 6000),  # below: FIRE refused with fault battery
}


class Settings:
    def __init__(self, overrides=None):
        self.values = {}
        for key in LIMITS:
            self.values[key] = LIMITS[key][0]
        if overrides:
            keys = list(overrides)
            if "host_beat_ms" in overrides:  # first: silence_ms is checked against it
                keys.remove("host_beat_ms")
                keys.insert(0, "host_beat_ms")
            for key in keys:
                error = self.set(key, str(overrides[key]))
                if error:
                    raise ValueError(f"setting {key}: {error}")

    def get(self, key):
        return self.values[key]

    def set(self, key, text):
        # Returns None when taken, else an error token for the ERR reply.
        if key not in LIMITS:
            return "unknown_key"
        try:
            value = int(text)
        except ValueError:
            return "not_an_integer"
        lo, hi = LIMITS[key][1], LIMITS[key][2]
        if value < lo or value > hi:
            return "out_of_range"
        silence = value if key == "silence_ms" else self.values["silence_ms"]
        beat = value if key == "host_beat_ms" else self.values["host_beat_ms"]
        if silence < 2 * beat:
            # a silence shorter than two host heartbeats cuts the motor on every fire (a lost beat or jitter)
            return "below_2x_host_beat" if key == "silence_ms" else "above_half_silence"
        self.values[key] = value
        return None

    def range_text(self, key):
        if key not in LIMITS:
            return ",".join(sorted(LIMITS))
        lo, hi = LIMITS[key][1], LIMITS[key][2]
        if key == "silence_ms":
            lo = max(lo, 2 * self.values["host_beat_ms"])
        elif key == "host_beat_ms":
            hi = min(hi, self.values["silence_ms"] // 2)
        return str(lo) + ".." + str(hi)
