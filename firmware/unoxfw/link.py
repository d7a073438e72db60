# unoxfw.link: the one wire codec and reliable endpoint, run by the firmware (MicroPython) and
# imported by the host (CPython). Specified in docs/protocol.md.
#
# Public API (stable):
#   PROTOCOL                       protocol version (int), sent in HELLO
#   crc16(data, crc=0xFFFF) -> int CRC-16/CCITT-FALSE (check value 0x29B1 on b"123456789");
#                                  binascii.crc_hqx where it exists (CPython), on the chip unoxfw.fast's
#                                  assembler, else a table lookup per byte (unoxfw.decode)
#   ticks_diff(now, then) -> int   time.ticks_diff on a 2**30 tick ring (on the chip that very function);
#                                  works on plain ints too
#   encode(seq, kind, args=()) -> bytes   one frame "SS KIND a1 a2 CCCC\n"; ValueError on bad input
#                                  (unoxfw.decode's; on the chip unoxfw.fast's, a bytearray)
#   Decoder(size=160): feed(data) -> sequence of (seq, kind, args); never raises on garbage;
#                      .errors (bad lines), .frames (good lines)
#   Endpoint(write, epoch=1, retransmit_ms=250, window=8): seq/ack/retransmit, used by both sides.
#     send(kind, args=(), now_ms=0, reply_to=0) -> seq      reliable frame, written at once
#     send_unreliable(kind, args=()) -> None                seq 00, never acked (HEARTBEAT)
#     hello(args, now_ms, reply_to=0) -> seq                new own epoch, fresh tx window, HELLO args+epoch
#     receive(data, now_ms) -> sequence of (seq, kind, args) new frames (ACKs consumed, dups dropped)
#     poll(now_ms) -> int                                   frames retransmitted now (go-back-N, backoff)
#     pending(seq) -> bool (sent, not ACKed yet); void(seq): an unACKed frame goes out as VOID from now on
#     .hold_acks = True: the ACKs receive() owes wait for flush_acks() (the firmware starts a FIRE's motor
#     before it writes the ACK; the same tick writes it)
#     epoch_hex() -> the own epoch in 4 hex digits
#     .session (bool), .peer_epoch, .epoch, .last_rx_ms, .unacked(), counters (retransmits, duplicates,
#     overflows, ahead, delivered)
#
# Only what both interpreters run: no typing, no dataclasses, no f-strings, const() for private constants.

import sys

try:
    from micropython import const
except ImportError:  # CPython (host, simulator, tests)

    def const(value):
        return value

if sys.implementation.name == "micropython":
    _crc_hqx = None  # its binascii has no crc_hqx (and may be a .py module costing RAM): unoxfw.fast runs
    try:
        from unoxfw import fast as _fast  # assembler and native code: the chip's hot path (unoxfw.fast)
    except (ImportError, SyntaxError):  # a port without the assembler or native code (WebAssembly)
        _fast = None
else:
    from binascii import crc_hqx as _crc_hqx  # CPython (host, simulator): the same CRC in C

    _fast = None

PROTOCOL = 2  # 2: FIRE n id, QUERY/RESULT, ALONE/TAKEN, host_beat_ms (issue 7)

_MAX_LINE = const(160)  # unoxfw.decode's encode and unoxfw.fast's hold the same limit
_TICKS_MASK = const(0x3FFFFFFF)
_TICKS_HALF = const(0x20000000)
_SEQ_SPAN = const(255)
_REPLY_CACHE = const(4)
_HEX = "0123456789ABCDEF"
_EMPTY = ()
# the codec's portable parts that the chip does not run (encode, Decoder.feed, their checks, the bitwise CRC
# and its table) are in unoxfw.decode: bound at the end of this module where they run (CPython,
# WebAssembly), imported on the chip only when asked (tests/pico compares them with unoxfw.fast), so the chip
# does not compile them at boot (docs/benchmarks.md, issue 22's fourth and fifth rounds).


def crc16(data, crc=0xFFFF):
    # binascii.crc_hqx is the same CRC in C (CPython: the host and the simulator); on the chip assembler;
    # else the table (unoxfw.decode's _crc16_lookup, bound below).
    if _crc_hqx is not None:
        return _crc_hqx(data, crc)
    if _fast is not None:
        return _fast.crc(data, len(data), crc)
    return _crc16_lookup(data, crc)


if _fast is not None:
    # the chip: time.ticks_diff is this same sum in C on the rp2 port's 2**30 tick ring, so no code is
    # compiled for it (tests/pico compares the two, negative and wrapping values too)
    from time import ticks_diff
else:

    def ticks_diff(now, then):
        return ((now - then + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF


# The checks strip or scan in C, not a Python step per character (docs/pico.md): a text made only of
# allowed characters strips to nothing. (unoxfw.decode has the kind's and the argument's.)
def _is_hex(text, width):
    return len(text) == width and not text.strip(_HEX)


class Decoder:
    # Splits a byte stream into frames. A line with a bad byte, bad syntax, a bad CRC or more than
    # `size` bytes is dropped and counted in .errors; decoding resumes after the next "\n".
    def __init__(self, size=_MAX_LINE):
        self._buf = bytearray(size)
        self._view = memoryview(self._buf)
        self._n = 0
        self._bad = False
        self.errors = 0
        self.frames = 0


if _fast is not None:
    # the chip: the same framing in assembler and bytecode (unoxfw.fast); the portable code stays
    # reachable as unoxfw.decode.encode (which says why unoxfw.fast refuses a frame) and unoxfw.decode.feed
    # (tests/pico compares them)
    encode = _fast.encode
    Decoder.feed = _fast.feed
else:  # CPython and WebAssembly: the portable codec, bound once (every name it takes from here is defined)
    from unoxfw.decode import _crc16_lookup, encode, feed

    Decoder.feed = feed  # (a name the chip has interned already: a new one would cost it ~20 B of heap)


class Endpoint:
    # One side of the link. write(frame_bytes) is called for every outgoing frame.
    def __init__(self, write, epoch=1, retransmit_ms=250, window=8):
        self._write = write
        self.decoder = Decoder()
        self.epoch = (epoch & 0xFFFF) or 1
        self.peer_epoch = None
        self.retransmit_ms = retransmit_ms
        self._wait = retransmit_ms
        self.window = window
        self._tx = 1
        self._rx = 0
        self._unacked = []
        self._replies = []
        self.last_rx_ms = None
        self.retransmits = 0
        self.duplicates = 0
        self.overflows = 0
        self.ahead = 0  # frames dropped for arriving ahead of a gap (the gap's frames come again)
        self._epoch_made = None
        self._epoch_hex = ""
        self.hold_acks = False  # True: ACKs wait for flush_acks() (the firmware acts on a FIRE first)
        self._held = []
        self.delivered = 0  # frames delivered in order

    def epoch_hex(self):
        # the own epoch in 4 hex digits, made once per epoch (every ACK names it; a new str costs the chip
        # ~0.1 ms)
        if self._epoch_made != self.epoch:
            self._epoch_made = self.epoch
            self._epoch_hex = f"{self.epoch:04X}"
        return self._epoch_hex

    @property
    def session(self):
        return self._rx != 0

    def unacked(self):
        return len(self._unacked)

    def send(self, kind, args=(), now_ms=0, reply_to=0):
        seq = self._tx
        self._tx = 1 if seq >= 255 else seq + 1  # seq 0 is the unreliable frames'
        frame = encode(seq, kind, args)
        if len(self._unacked) >= self.window:
            self._unacked.pop(0)
            self.overflows += 1
        self._unacked.append([seq, frame, now_ms])
        if reply_to:
            if len(self._replies) >= _REPLY_CACHE:
                self._replies.pop(0)
            self._replies.append((reply_to, frame))
        self._write(frame)
        return seq

    def pending(self, seq):
        # seq was sent reliably and is not ACKed yet
        for entry in self._unacked:
            if entry[0] == seq:
                return True
        return False

    def void(self, seq):
        # takes an unACKed frame back: its seq goes out again as VOID, which the peer ACKs and ignores
        for entry in self._unacked:
            if entry[0] == seq:
                entry[1] = encode(seq, "VOID")

    def send_unreliable(self, kind, args=()):
        self._write(encode(0, kind, args))

    def hello(self, args, now_ms, reply_to=0):
        self.epoch = (self.epoch % 0xFFFF) + 1
        self._tx = 1
        self._unacked = []
        self._replies = []
        self._wait = self.retransmit_ms
        return self.send("HELLO", tuple(args) + (self.epoch_hex(),), now_ms, reply_to)

    def poll(self, now_ms):
        # Retransmit after retransmit_ms, doubling the wait (up to 4x) while nothing gets ACKed, so a
        # lost host is not flooded; any ACK progress resets the wait.
        if not self._unacked or ticks_diff(now_ms, self._unacked[0][2]) < self._wait:
            return 0
        for entry in self._unacked:
            entry[2] = now_ms
            self._write(entry[1])
        if self._wait < 4 * self.retransmit_ms:
            self._wait *= 2
        self.retransmits += len(self._unacked)
        return len(self._unacked)

    def _ack(self, seq):
        if self.hold_acks:
            self._held.append((seq, self.peer_epoch))
            return
        self._write(encode(0, "ACK", (f"{seq:02X}", self.peer_epoch)))

    def flush_acks(self):
        # hold_acks: the ACKs of what receive() delivered, written now (after the frames were acted on)
        held, self._held = self._held, []
        for seq, epoch in held:
            self._write(encode(0, "ACK", (f"{seq:02X}", epoch)))

    def _accept(self, seq, kind, args):
        # Returns True when the frame is new and must be delivered.
        if kind == "HELLO" and args and args[-1] != self.peer_epoch:
            self.peer_epoch = args[-1]
            self._replies = []
        elif not self._rx:
            return False
        elif seq != self._rx:
            if 0 < (self._rx - seq) % _SEQ_SPAN <= 127:  # already received: in the half window before _rx
                self.duplicates += 1
                self._ack(seq)
                for ref, frame in self._replies:  # its reply, if it had one, again
                    if ref == seq:
                        self._write(frame)
            else:
                self.ahead += 1
                self._ack(self._rx - 1 if self._rx > 1 else 255)
            return False
        self._rx = 1 if seq >= 255 else seq + 1
        self.delivered += 1
        self._ack(seq)
        return True

    def receive(self, data, now_ms):
        out = None
        for frame in self.decoder.feed(data):
            seq, kind, args = frame
            self.last_rx_ms = now_ms
            if kind == "ACK":
                # of the own epoch: its frame and every one before it are ACKed (inline, as the checks
                # above: every call costs the chip ~35 us on the FIRE's path)
                if len(args) == 2:
                    if self._epoch_made != self.epoch:
                        self.epoch_hex()
                    if args[1] == self._epoch_hex and _is_hex(args[0], 2):
                        seq = int(args[0], 16)
                        unacked = self._unacked
                        for i in range(len(unacked)):
                            if unacked[i][0] == seq:
                                del unacked[: i + 1]
                                self._wait = self.retransmit_ms
                                break
                continue
            if seq == 0:
                if kind == "HELLO":
                    continue
            elif not self._accept(seq, kind, args):
                continue
            if out is None:
                out = []
            out.append(frame)
        return _EMPTY if out is None else out
