# ruff: noqa: F821, UP031  (viper's ptr8/ptr16 are its built-ins; % formats faster than str.format on the chip)
# unoxfw.fast: the link's hot path (CRC, framing, decoding) in MicroPython's viper and native code, for the
# chip (rp2 port) only. unoxfw.link imports it when it compiles (a port without the native emitters, such
# as the WebAssembly one, raises SyntaxError; CPython has no `micropython`) and else runs its own portable
# code, which stays the reference: tests/pico checks that both give the same frames and the same verdicts
# on the chip. Measured with bench/pico.py (frame_us, docs/benchmarks.md). Viper functions are the only
# firmware code with annotations: they are its types (native ints), not hints.
#   use(table, refuse): unoxfw.link hands over its CRC table and its portable encode (which says why a
#       frame is refused) once, at import
#   crc(data, start, end, table) -> CRC-16/CCITT-FALSE of data[start:end]
#   encode(seq, kind, args=()) -> the frame (a bytearray); unoxfw.link.encode on the chip (bytecode around
#       viper parts)
#   feed(decoder, data) -> [(seq, kind, args), ...]; unoxfw.link.Decoder.feed on the chip
#   read(ipoll, readinto, one, buf) -> n: main.py's USB input loop in native code

import micropython

_HEXB = b"0123456789ABCDEF"


_table = None
_refuse = None


def use(table, refuse):
    global _table, _refuse
    _table = table
    _refuse = refuse


@micropython.viper
def crc(data, start: int, end: int, table) -> int:
    p = ptr8(data)
    t = ptr16(table)
    c = 0xFFFF
    i = start
    while i < end:
        c = ((c << 8) & 0xFFFF) ^ t[(c >> 8) ^ p[i]]
        i += 1
    return c


@micropython.viper
def _head(seq: int, kind, out) -> int:
    # out[0:] = "SS KIND" when seq is 0..255 and the kind 1-12 of A-Z and _; returns its length, else 0
    o = ptr8(out)
    if seq < 0 or seq > 255:
        return 0
    h = ptr8(_HEXB)
    o[0] = h[seq >> 4]
    o[1] = h[seq & 15]
    o[2] = 32
    k = ptr8(kind)
    nk = int(len(kind))
    if nk < 1 or nk > 12:
        return 0
    i = 0
    while i < nk:
        c = k[i]
        if not ((c >= 65 and c <= 90) or c == 95):
            return 0
        o[3 + i] = c
        i += 1
    return 3 + nk


@micropython.viper
def _arg(arg, out, n: int) -> int:
    # out[n:] = " " + arg when arg is 1+ bytes of printable ASCII without spaces; returns the new length,
    # else 0
    o = ptr8(out)
    a = ptr8(arg)
    na = int(len(arg))
    if na < 1 or n + 1 + na > int(len(out)):
        return 0
    o[n] = 32
    n += 1
    i = 0
    while i < na:
        c = a[i]
        if c <= 32 or c > 126:
            return 0
        o[n] = c
        n += 1
        i += 1
    return n


@micropython.viper
def _tail(out, n: int, table) -> bool:
    # out[n:] = " CCCC\n", the CRC of out[:n]; True when that fills out exactly (at most 160 bytes)
    o = ptr8(out)
    size = int(len(out))
    if size > 160 or n + 6 != size:
        return False
    h = ptr8(_HEXB)
    t = ptr16(table)
    c = 0xFFFF
    i = 0
    while i < n:
        c = ((c << 8) & 0xFFFF) ^ t[(c >> 8) ^ o[i]]
        i += 1
    o[n] = 32
    o[n + 1] = h[(c >> 12) & 15]
    o[n + 2] = h[(c >> 8) & 15]
    o[n + 3] = h[(c >> 4) & 15]
    o[n + 4] = h[c & 15]
    o[n + 5] = 10
    return True


def encode(seq, kind, args=()):
    # each argument is written by _arg straight into the frame: no joined str (a new str costs the chip
    # ~0.1 ms: it is looked up among the interned strings). Bytecode, not native: native code lives in the
    # heap, and here it saved 34 us for 512 bytes (docs/benchmarks.md, issue 22's fourth round)
    size = len(kind) + 9
    for arg in args:
        if type(arg) is not str:
            return _encode_mixed(seq, kind, args)
        size += len(arg) + 1
    out = bytearray(size)
    n = _head(seq, kind, out)
    if n:
        for arg in args:
            n = _arg(arg, out, n)
            if not n:
                break
    if n and _tail(out, n, _table):
        return out
    return _refuse(seq, kind, args)  # raises ValueError, saying why (or frames what this code cannot)


def _encode_mixed(seq, kind, args):
    # an argument that is not a str (an int): each made a str first
    return encode(seq, kind, tuple([str(arg) for arg in args]))


@micropython.viper
def _take(data, start: int, end: int, buf, n: int, bad: int) -> int:
    # copies data[start:] up to the next "\n" into buf from n ("\r" dropped); a byte outside 0x20..0x7E or
    # a line longer than buf makes it bad. Returns (stop << 9) | (n << 1) | bad; stop = end: no "\n" yet.
    p = ptr8(data)
    b = ptr8(buf)
    size = int(len(buf))
    i = start
    k = n
    wrong = bad
    while i < end:
        c = p[i]
        if c == 10:
            break
        if c != 13 and not wrong:
            if c < 32 or c > 126 or k >= size:
                wrong = 1
            else:
                b[k] = c
                k += 1
        i += 1
    return (i << 9) | (k << 1) | wrong


@micropython.viper
def _line(buf, n: int, table) -> int:
    # a whole line "SS KIND [args] CCCC": upper-case hex, the kind 1-12 of A-Z and _, no empty field, its
    # CRC. Returns seq + 1, or 0 when the line must be dropped.
    p = ptr8(buf)
    if n < 9 or p[2] != 32 or p[n - 5] != 32:
        return 0
    i = 0
    prev = 32
    while i < n:
        if p[i] == 32 and prev == 32:
            return 0
        prev = p[i]
        i += 1
    seq = 0
    i = 0
    while i < 2:
        c = p[i]
        if c >= 48 and c <= 57:
            seq = (seq << 4) | (c - 48)
        elif c >= 65 and c <= 70:
            seq = (seq << 4) | (c - 55)
        else:
            return 0
        i += 1
    i = 3
    while p[i] != 32:
        c = p[i]
        if not ((c >= 65 and c <= 90) or c == 95):
            return 0
        i += 1
    if i - 3 > 12:
        return 0
    want = 0
    i = n - 4
    while i < n:
        c = p[i]
        if c >= 48 and c <= 57:
            want = (want << 4) | (c - 48)
        elif c >= 65 and c <= 70:
            want = (want << 4) | (c - 55)
        else:
            return 0
        i += 1
    t = ptr16(table)
    c = 0xFFFF
    i = 0
    while i < n - 5:
        c = ((c << 8) & 0xFFFF) ^ t[(c >> 8) ^ p[i]]
        i += 1
    if want != c:
        return 0
    return seq + 1


_NONE = ()
# the kinds the firmware receives (docs/protocol.md), as bytes -> the same str: no str made for them
_KINDS = {
    b"ACK": "ACK",
    b"HEARTBEAT": "HEARTBEAT",
    b"HELLO": "HELLO",
    b"FIRE": "FIRE",
    b"BEEP": "BEEP",
    b"STATUS": "STATUS",
    b"ABORT": "ABORT",
    b"CONFIG": "CONFIG",
    b"QUERY": "QUERY",
    b"TAKEN": "TAKEN",
    b"REPL": "REPL",
    b"VOID": "VOID",
}


@micropython.native
def feed(dec, data):
    out = _NONE
    buf = dec._buf
    n = dec._n
    bad = 1 if dec._bad else 0
    start = 0
    end = len(data)
    while start < end:
        r = _take(data, start, end, buf, n, bad)
        stop = r >> 9
        n = (r >> 1) & 255
        bad = r & 1
        if stop >= end:
            break
        seq = 0 if bad or not n else _line(buf, n, _table)
        if seq:
            # split as bytes (a str's split cost ~0.55 ms a frame: each new str is looked up among the
            # interned strings); then only the kind (mostly from _KINDS) and the arguments become str
            parts = bytes(buf[: n - 5]).split(b" ")
            kind = _KINDS.get(parts[1])
            if kind is None:
                kind = str(parts[1], "ascii")
            k = len(parts)
            if k == 2:
                args = _NONE
            elif k == 3:
                args = (str(parts[2], "ascii"),)
            elif k == 4:
                args = (str(parts[2], "ascii"), str(parts[3], "ascii"))
            elif k == 5:
                args = (str(parts[2], "ascii"), str(parts[3], "ascii"), str(parts[4], "ascii"))
            else:
                args = tuple([str(part, "ascii") for part in parts[2:]])
            dec.frames += 1
            if out is _NONE:
                out = []
            out.append((seq - 1, kind, args))
        elif bad or n:
            dec.errors += 1
        n = 0
        bad = 0
        start = stop + 1
    dec._n = n
    dec._bad = bad == 1
    return out


@micropython.native
def read(ipoll, readinto, one, buf):
    # main.py's UsbIO.read: up to len(buf) bytes into buf, one at a time while ipoll(0) says one is there
    # (RP2 USB stdin has no partial reads); native code, nothing allocated. Returns how many.
    n = 0
    size = len(buf)
    while n < size:
        ready = False
        for _ in ipoll(0):
            ready = True
            break  # one ready object is all: a second step of the iterator cost ~2.4 us a byte
        if not ready:
            break
        readinto(one)
        buf[n] = one[0]
        n += 1
    return n
