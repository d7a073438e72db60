# unoxfw.signals: the buzzer patterns (RULES L1-L5) and a non-blocking player driven by tick(now_ms).
#
# A pattern is a flat tuple of (freq_hz, ms) steps; freq 0 is silence. Documented in docs/protocol.md.
# Every tone is 2.4-4 kHz: the piezo (a 4 kHz part) is 15-20 dB quieter far below its resonance, and the
# faults players must hear are the loudest, at 4 kHz. Patterns are told apart by rhythm, not pitch.
#   press      one short beep: the press was taken (L1); nothing more means no card was fired
#   firing     three short beeps while the motor starts: cards are being fired (L2)
#   empty      three long beeps after a fire that found no card: check and reload (L4)
#   jam        two very long beeps: a card is wedged; open the lid and free it
#   stuck      one long then two short: a card is left in the exit slot; it belongs to the presser (T4)
#   battery    five fast chirps: the pack is low, fit new 3 x C cells (L5)
#   lid        two short beeps: the lid is open, the motor will not run
#   not_owed   one long low buzz: that press was not owed to anybody (sent by the host)
#   link_lost  three falling tones: the host went quiet; the launcher now works alone
# Waking from sleep gives no pattern at all (L3).

from unoxfw.link import ticks_diff

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        return value


_GAP_MS = const(150)
_QUEUE = const(4)

LOWEST_HZ = 2400  # the piezo's useful band (RULES: 2-4 kHz); tests hold every pattern to it
HIGHEST_HZ = 4000
PATTERNS = {
    "press": (3000, 80),
    "firing": (3400, 60, 0, 60, 3400, 60, 0, 60, 3400, 60),
    "empty": (4000, 300, 0, 150, 4000, 300, 0, 150, 4000, 300),
    "jam": (4000, 600, 0, 200, 4000, 600),
    "stuck": (4000, 500, 0, 100, 4000, 100, 0, 100, 4000, 100),
    "battery": (3600, 40, 0, 60, 3600, 40, 0, 60, 3600, 40, 0, 60, 3600, 40, 0, 60, 3600, 40),
    "lid": (3200, 100, 0, 100, 3200, 100),
    "not_owed": (2400, 450),
    "link_lost": (3600, 150, 0, 50, 3000, 150, 0, 50, 2400, 300),
}


class Beeper:
    def __init__(self, board):
        self._board = board
        self._queue = []
        self._steps = None
        self._i = 0
        self._until = 0
        self.played = 0

    def busy(self):
        return self._steps is not None or bool(self._queue)

    def play(self, name, now_ms):
        # Unknown names are refused by the caller (App checks PATTERNS first).
        if len(self._queue) >= _QUEUE:
            return
        self._queue.append(PATTERNS[name])
        self.played += 1
        if self._steps is None:
            self.tick(now_ms)

    def stop(self):
        self._queue = []
        self._steps = None
        self._board.tone(0)

    def tick(self, now_ms):
        # when the step playing is over: the next step, the gap after the pattern, or the next pattern queued
        # (or silence). Idle (nothing playing), a pattern just queued starts at once (play).
        steps = self._steps
        if steps is None:
            if not self._queue:
                return
        elif ticks_diff(now_ms, self._until) < 0:
            return
        i = self._i + 2
        if steps is None or i > len(steps):
            if not self._queue:
                self._steps = None
                self._board.tone(0)
                return
            steps = self._steps = self._queue.pop(0)
            i = 0
        self._i = i
        if i < len(steps):
            self._board.tone(steps[i])
            self._until = now_ms + steps[i + 1]
        else:
            # a short silence between two queued patterns, so they are heard as two
            self._board.tone(0)
            self._until = now_ms + _GAP_MS
