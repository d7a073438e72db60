# unoxfw.profile: the built-in eject profile used when no host drives the launcher (standalone), so a
# game can go on like with the original launcher: a press often fires nothing, sometimes a few cards.
#
# Standalone(seed).next_count() -> 0..6, drawn with the weights below from a 16-bit LCG seeded at boot
# (from ticks_ms and the battery ADC), so every run with the same seed is identical.

# weight (out of 100) of firing 0, 1, 2, ... cards
WEIGHTS = (40, 22, 14, 10, 7, 4, 3)


class Standalone:
    def __init__(self, seed):
        self._x = (seed & 0xFFFF) or 1

    def next_count(self):
        self._x = (self._x * 25173 + 13849) & 0xFFFF
        r = (self._x >> 4) % 100
        for count in range(len(WEIGHTS)):
            if r < WEIGHTS[count]:
                return count
            r -= WEIGHTS[count]
        return 0
