"""8. The link's hot path on the chip (unoxfw.fast, viper and native code) against the portable code it
replaces there (unoxfw.link's own, which CPython and the WebAssembly MicroPython run): the same frames from
encode, the same refusals, and the same frames, errors and counts from Decoder.feed on a stream of good
frames, corrupted ones, control bytes, `\\r`, long lines and lines split at any byte."""

from __future__ import annotations

from unoxsim.pico import repl_exec

COMPARE = """
import random
from unoxfw import link
from unoxfw.link import Decoder
random.seed(22)
assert link._fast is not None and link.encode is not link._encode, "no fast path on the chip"
KINDS = ("HEARTBEAT", "FIRE", "BUTTON", "ACK", "X", "Q_Q", "bad", "TOO_LONG_KIND_", "")
ARGS = ("1", "42", "ABCD", "a=b", "", "two words", "x" * 40, "~!", 7, 1234567)
def pick(seq):
    return seq[random.getrandbits(8) % len(seq)]
def outcome(fn, seq, kind, args):
    try:
        return bytes(fn(seq, kind, args))
    except ValueError:
        return "ValueError"
good, refused, stream = 0, 0, bytearray()
for i in range(300):
    seq = pick((0, 1, 0x7F, 255, 256, -1))
    kind = pick(KINDS)
    args = tuple(pick(ARGS) for _ in range(random.getrandbits(2)))
    fast, portable = outcome(link.encode, seq, kind, args), outcome(link._encode, seq, kind, args)
    assert fast == portable, (seq, kind, args, fast, portable)
    if fast == "ValueError":
        refused += 1
        continue
    good += 1
    frame = bytearray(fast)
    r = random.getrandbits(4)
    if r == 0:
        frame[random.getrandbits(8) % (len(frame) - 1)] ^= 1 << (random.getrandbits(3))
    elif r == 1:
        frame = frame[:-1] + b"\\r\\n"
    elif r == 2:
        frame = bytes((random.getrandbits(8) % 6,)) + frame
    elif r == 3:
        frame = b"Z" * 170 + b"\\n" + frame
    stream += frame
a, b = Decoder(), Decoder()
got_a, got_b, at = [], [], 0
while at < len(stream):
    step = 1 + random.getrandbits(6)
    chunk = bytes(stream[at:at + step])
    got_a += list(a.feed(chunk))
    got_b += list(b._feed(chunk))
    at += step
assert got_a == got_b, "feed differs"
assert (a.frames, a.errors) == (b.frames, b.errors), (a.frames, a.errors, b.frames, b.errors)
print("ok", good, refused, a.frames, a.errors)
"""


def test_the_fast_framing_equals_the_portable_one_on_the_chip(pico):
    device = pico(seed=2)
    out = repl_exec(device, COMPARE, limit_ms=120_000).split()
    assert out[0] == "ok", out
    good, refused, frames, errors = (int(x) for x in out[1:])
    assert good > 50 and refused > 50 and frames > 50 and errors > 20  # every path was taken
