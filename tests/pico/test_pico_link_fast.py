"""8. The link's hot path on the chip (unoxfw.fast, assembler and native code) against the portable code it
replaces there (unoxfw.decode's, which CPython and the WebAssembly MicroPython run): the same frames from
encode, the same refusals, and the same frames, errors and counts from Decoder.feed on a stream of good
frames, corrupted ones, control bytes, `\\r`, long lines and lines split at any byte."""

from __future__ import annotations

from unoxsim.pico import repl_exec

COMPARE = """
import random
from unoxfw import link
from unoxfw.link import Decoder
random.seed(22)
from unoxfw.decode import encode as reference
from unoxfw.decode import feed as portable_feed
assert link._fast is not None and link.encode is link._fast.encode, "no fast path on the chip"
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
    fast, portable = outcome(link.encode, seq, kind, args), outcome(reference, seq, kind, args)
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
    got_b += list(portable_feed(b, chunk))
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


EDGES = """
from unoxfw import link
from unoxfw.link import Decoder
fast = link._fast
from unoxfw.decode import _crc16_bits
from unoxfw.decode import encode as portable
from unoxfw.decode import feed as portable_feed
assert fast is not None and link.encode is fast.encode, "no fast path on the chip"
def outcome(fn, seq, kind, args):
    try:
        return bytes(fn(seq, kind, args))
    except ValueError:
        return "ValueError"
# the CRC: the assembler's bitwise loop against the portable one, every byte value alone and longer data
crcs = 0
for i in range(256):
    one = bytes((i,))
    assert fast.crc(one, 1, 0xFFFF) == _crc16_bits(one), i
    data = bytes((i + k * 7) & 255 for k in range(i % 41))
    assert fast.crc(data, len(data), i * 257) == _crc16_bits(data, i * 257), (i, data)
    assert link.crc16(bytearray(data)) == _crc16_bits(data)
    assert link.crc16(data, i) == _crc16_bits(data, i)
    crcs += 2
# ticks_diff is the chip's own time.ticks_diff (issue 22, fifth round): the same sum as the portable one on
# its 2**30 ring, for negative (the firmware's -1 marks), wrapping and far-apart values
import time
assert link.ticks_diff is time.ticks_diff
marks = (0, 1, -1, 5, 150, 250, (1 << 29) - 1, 1 << 29, (1 << 30) - 2, (1 << 30) - 1, -(1 << 29))
for now in marks:
    for then in marks:
        want = ((now - then + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29)
        assert link.ticks_diff(now, then) == want, (now, then)
# encode: every byte value as a kind and as an argument (128..255 as non-ASCII characters), every kind and
# argument length around the limits, seq around its range
cases = []
for i in range(256):
    cases.append((1, chr(i), ()))
    cases.append((1, "FIRE", (chr(i),)))
    cases.append((1, "FIRE", ("A" + chr(i) + "B", "1")))
for n in range(15):
    cases.append((2, "K" * n, ("1",)))
for n in (0, 1, 148, 149, 150, 151, 160):
    cases.append((3, "X", ("a" * n,)))
    cases.append((3, "X", ("a" * n, "")))
for seq in (-256, -1, 0, 1, 15, 16, 254, 255, 256, 4096, True, False):
    cases.append((seq, "HELLO", ("1", "2", "3", "4")))
cases.append((9, "_", (0, -5, "x", 123456789)))
framed, refused = [], 0
for seq, kind, args in cases:
    got, want = outcome(link.encode, seq, kind, args), outcome(portable, seq, kind, args)
    assert got == want, (seq, kind, args, got, want)
    if got == "ValueError":
        refused += 1
    else:
        # made by the assembler (a bytearray), not handed to the portable encode as if refused
        assert type(link.encode(seq, kind, args)) is bytearray, (seq, kind, args)
        framed.append((seq, kind, args))
# feed: a good frame with every byte value at a digit of its seq, of its kind, of an argument and of its
# CRC, each field emptied, lower-case hex, every kind, and lines around the 160-byte limit
good = bytes(portable(0x3C, "FIRE", ("12", "ab")))
def lines():
    for seq, kind, args in framed:
        yield link.encode(seq, kind, args)
    for at in (0, 1, 3, 8, len(good) - 3, len(good) - 2):
        for i in range(256):
            line = bytearray(good)
            line[at] = i
            yield bytes(line)
    for at in range(len(good) - 1):
        yield good[:at] + good[at + 1:]
        yield good[:at] + b" " + good[at:]
        yield good[:at] + b"\\r" + good[at:]
    yield good.lower()
    for kind in ("ACK", "HEARTBEAT", "HELLO", "FIRE", "BEEP", "STATUS", "ABORT", "CONFIG", "QUERY", "TAKEN",
                 "REPL", "VOID", "BUTTON", "Z", "ABCDEFGHIJKL"):
        for args in ((), ("1",), ("1", "2"), ("1", "2", "3"), ("1", "2", "3", "4", "5")):
            yield bytes(portable(7, kind, args))
    # right CRCs on lines the syntax refuses (and two it takes): a 13-letter kind, lower case, a field empty
    for body in (b"01 ABCDEFGHIJKLM 1", b"01 ABCDEFGHIJKL 1", b"01 fire 1", b"0a FIRE", b"01 FI-E 1",
                 b"01 FIRE  1", b"01 FIRE 1 ", b" 01 FIRE", b"01  FIRE", b"011 FIRE", b"01 FIRE 1\\x7f",
                 b"1 FIRE", b"01 A", b"01 A 1"):
        crc = _crc16_bits(body)
        yield body + (" %04X\\n" % crc).encode()
        yield body + (" %04x\\n" % crc).encode()
    for n in range(145, 165):
        yield bytes(portable(1, "X", ("y" * n,))) if n < 150 else b"Z" * n + b"\\n"
    yield b"\\n\\n\\r\\n"
a, b = Decoder(), Decoder()
count, chunk = 0, b""
for line in lines():
    count += 1
    chunk += line
    if count % 8 == 0:
        got, want = list(a.feed(chunk)), list(portable_feed(b, chunk))
        assert got == want and (a.frames, a.errors) == (b.frames, b.errors), (chunk, got, want)
        chunk = b""
got, want = list(a.feed(chunk)), list(portable_feed(b, chunk))
assert got == want and (a.frames, a.errors) == (b.frames, b.errors), (chunk, got, want)
# one chunk longer than 4096 bytes (unoxfw.fast.feed takes it in parts), ending mid-line
import gc
gc.collect()
big = bytearray()
for line in lines():
    big += line
    if len(big) > 4500:
        break
big = bytes(big)
x = list(a.feed(big[:4201]))
y = list(portable_feed(b, big[:4201]))
assert x == y and (a.frames, a.errors) == (b.frames, b.errors)
x, y = list(a.feed(big[4201:])), list(portable_feed(b, big[4201:]))
assert x == y and (a.frames, a.errors) == (b.frames, b.errors)
print("ok", crcs, len(cases), refused, count, a.frames, a.errors)
"""


def test_the_fast_framing_equals_the_portable_one_at_every_byte_and_limit(pico):
    # issue 22, fifth round: the assembler routines (the bitwise CRC, _put, _seal, _scan) against the
    # portable code, byte by byte at every field and around every limit
    device = pico(seed=3)
    out = repl_exec(device, EDGES, limit_ms=300_000).split()
    assert out[0] == "ok", out
    crcs, cases, refused, lines, frames, errors = (int(x) for x in out[1:])
    assert crcs == 512 and refused > 300 and cases - refused > 200  # both verdicts at every kind of input
    assert frames > 150 and errors > 1500 and lines > 1700  # good and bad lines were both fed


DROP = """
import gc, sys
import unoxfw
from unoxfw.link import encode
sys.modules.pop("unoxfw.decode", None)  # as after boot: the chip has not imported it
if hasattr(unoxfw, "decode"):
    del unoxfw.decode
gc.collect()
free = gc.mem_free()
try:
    encode(0, "fire", ())
    print("accepted")
except ValueError as exc:
    print("refused", str(exc).split()[0])
gc.collect()
print("unoxfw.decode" in sys.modules, hasattr(unoxfw, "decode"), free - gc.mem_free())
import unoxfw.decode as kept
try:
    encode(0, "FIRE", ("a b",))
except ValueError as exc:
    print("refused", str(exc).split()[0])
print(sys.modules.get("unoxfw.decode") is kept)
"""


def test_a_refused_frame_does_not_keep_the_portable_codec_in_the_heap(pico):
    # issue 22, fifth round: unoxfw.fast.encode imports unoxfw.decode only to say why it refuses a frame,
    # then drops it (kept, it held 2,928 B; what stays are the names it interned), unless it was loaded
    device = pico(seed=4)
    out = repl_exec(device, DROP, limit_ms=60_000).split()
    assert out[:2] == ["refused", "kind"], out
    assert out[2:4] == ["False", "False"], out  # neither in sys.modules nor on the package
    assert int(out[4]) < 2000, out
    assert out[5:] == ["refused", "an", "True"], out  # someone else's import is left alone
