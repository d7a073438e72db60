# unoxfw.decode: unoxfw.link's portable codec parts that the chip does not run: encode, Decoder.feed and the
# CRC table. CPython (the host, the simulator) and a port without the assembler and native code (WebAssembly)
# run them: unoxfw.link binds them at its end. On the chip unoxfw.fast replaces them, so the chip does not
# compile this module at boot: unoxfw.link imports it when asked (a refused frame's ValueError says why;
# tests/pico compares the two), which leaves its bytecode out of the chip's heap (docs/benchmarks.md, issue
# 22's fourth and fifth rounds).
#   encode(seq, kind, args=()) -> bytes: unoxfw.link.encode
#   feed(decoder, data) -> sequence of (seq, kind, args): Decoder.feed, the decoder's state in its fields
#   _crc16_bits(data, crc=0xFFFF) -> int: the CRC one bit at a time (builds the table; the reference)
#   _crc16_lookup(data, crc=0xFFFF) -> int: the CRC by a 256-entry table (unoxfw.link.crc16 without
#       binascii.crc_hqx or unoxfw.fast)

from array import array

from unoxfw.link import _is_hex, crc16

_KIND_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_crc_table = None  # the CRC of each byte value from 0, 512 bytes: made on the first frame


def _crc16_bits(data, crc=0xFFFF):
    # CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor, one bit at a time.
    # Only builds the table below and is the reference of the tests and the benchmark (here, not in
    # unoxfw.link, so the chip does not compile it at boot): on the chip it costs about 10 ms for a 41-byte
    # frame.
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def _table():
    global _crc_table
    if _crc_table is None:
        _crc_table = array("H", [_crc16_bits(bytes((i,)), 0) for i in range(256)])
    return _crc_table


def _crc16_lookup(data, crc=0xFFFF):
    # The portable path without binascii.crc_hqx (MicroPython's has none): one lookup per byte instead of
    # eight shifts, 0.9 ms for a 41-byte frame on the chip (docs/pico.md); unoxfw.fast does it in assembler.
    table = _table()
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def _valid_kind(kind):
    # strips in C, as unoxfw.link's _is_hex: a kind made only of allowed characters strips to nothing
    return 0 < len(kind) <= 12 and not kind.strip(_KIND_CHARS)


def _valid_arg(arg):
    raw = arg.encode()
    return bool(raw) and min(raw) > 32 and max(raw) < 127


def encode(seq, kind, args=()):
    if not 0 <= seq <= 255:
        raise ValueError("seq must be 0..255")
    if not _valid_kind(kind):
        raise ValueError("kind must be 1-12 of A-Z and _")
    body = f"{seq:02X} {kind}"
    for arg in args:
        arg = str(arg)
        if not _valid_arg(arg):
            raise ValueError(f"an argument must be printable ASCII without spaces: {arg!r}")
        body += " " + arg
    raw = body.encode()
    if len(raw) + 6 > 160:  # the protocol's longest line (unoxfw.link's _MAX_LINE)
        raise ValueError("frame longer than 160 bytes")
    return raw + (f" {crc16(raw):04X}\n").encode()


def _parse(line):
    # line: memoryview of one line without "\n". Returns (seq, kind, args) or None.
    n = len(line)
    if n < 9 or line[n - 5] != 32:
        return None
    text = bytes(line).decode()
    parts = text.split(" ")
    if len(parts) < 3 or not _is_hex(parts[0], 2) or not _is_hex(parts[-1], 4):
        return None
    if not _valid_kind(parts[1]):
        return None
    for arg in parts[2:-1]:
        if not arg:
            return None
    if crc16(line[: n - 5]) != int(parts[-1], 16):
        return None
    return (int(parts[0], 16), parts[1], tuple(parts[2:-1]))


def feed(self, data):
    # A line at a time, its bytes checked and copied by C (find, min, max, a slice store): a Python
    # step per byte cost the chip more than the frame's CRC (docs/pico.md).
    if not isinstance(data, bytes):
        data = bytes(data)
    out = None
    buf, n, bad, size = self._buf, self._n, self._bad, len(self._buf)
    start, end = 0, len(data)
    while start < end:
        stop = data.find(b"\n", start)
        piece = data[start : end if stop < 0 else stop]
        if b"\r" in piece:
            piece = piece.replace(b"\r", b"")
        if piece and not bad:
            if min(piece) < 32 or max(piece) > 126 or n + len(piece) > size:
                bad = True
            else:
                buf[n : n + len(piece)] = piece
                n += len(piece)
        if stop < 0:
            break
        frame = None if bad or not n else _parse(self._view[:n])
        if frame is not None:
            self.frames += 1
            if out is None:
                out = []
            out.append(frame)
        elif bad or n:
            self.errors += 1
        n, bad, start = 0, False, stop + 1
    self._n, self._bad = n, bad
    return () if out is None else out
