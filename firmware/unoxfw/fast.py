# ruff: noqa: F821, UP031  (the inline assembler's registers and instructions are its built-ins; % formats
# faster than str.format on the chip)
# unoxfw.fast: the link's hot path (CRC, framing, decoding) in MicroPython's inline Thumb assembler and
# native code, for the chip (rp2 port) only. unoxfw.link imports it when it compiles (a port without the
# inline assembler or the native emitter, such as the WebAssembly one, raises SyntaxError; CPython has no
# `micropython`; the WebAssembly port says "invalid micropython decorator") and else runs the portable code
# (unoxfw.decode), which stays the reference: tests/pico checks that both give the same frames and the same
# verdicts on the chip. Measured with bench/pico.py (frame_us, docs/benchmarks.md).
# Why assembler: viper and native code are compiled into the heap, 3-4x the size of bytecode; an assembler
# routine is its machine code only (the CRC loop: 32 B instead of 304 B in viper; the six viper loops,
# 4.5 KB, became four routines under 1 KB), and as fast (docs/benchmarks.md, issue 22's fifth round). The
# rp2's core is a Cortex-M0+: Thumb-1 only (no it blocks, no wide immediates: 0xFFFF is built by shifts;
# loads take an immediate offset only, so a pointer is advanced instead of indexed). An assembler function
# takes at most 4 arguments (r0-r3: an int as its value, a str, bytes or bytearray as a pointer to its first
# byte, never its length) and returns r0 as an int. The CRC is computed a bit at a time, its 16 bits kept in
# the top half of a register so the carry flag is the bit shifted out: no 512-byte table on the chip.
#   crc(data, n, crc) -> CRC-16/CCITT-FALSE of data[:n], from crc (0xFFFF for a whole frame)
#   encode(seq, kind, args=()) -> the frame (a bytearray); unoxfw.link.encode on the chip (bytecode around
#       the assembler)
#   feed(decoder, data) -> [(seq, kind, args), ...]; unoxfw.link.Decoder.feed on the chip (bytecode around
#       _scan: native code, 2 KB of heap, was barely faster)
#   read(ipoll, readinto, one, buf) -> n: main.py's USB input loop in native code

import micropython


@micropython.asm_thumb
def crc(r0, r1, r2):
    # r0 data, r1 n, r2 the CRC so far (0xFFFF to start): the CRC of data[:n], bitwise (the CRC and the
    # poly 0x1021 shifted into the top half)
    lsl(r2, r2, 16)
    mov(r5, 0x10)
    lsl(r5, r5, 8)
    add(r5, 0x21)
    lsl(r5, r5, 16)
    add(r1, r1, r0)
    label(byte)
    cmp(r0, r1)
    bcs(done)
    ldrb(r3, [r0, 0])
    add(r0, 1)
    lsl(r3, r3, 24)
    eor(r2, r3)
    mov(r4, 8)
    label(bit)
    lsl(r2, r2, 1)
    bcc(next)
    eor(r2, r5)
    label(next)
    sub(r4, 1)
    bne(bit)
    b(byte)
    label(done)
    lsr(r0, r2, 16)


@micropython.asm_thumb
def _put(r0, r1, r2, r3):
    # r0 out, r1 n, r2 text, r3 its length | 256 for a kind: out[n] = " ", then the text. A kind is 1-12 of
    # A-Z and _, an argument 1+ bytes of 0x21..0x7E (a non-ASCII character's first byte is above 0x7E, and
    # it comes within the first len(text) bytes). Returns the new n, or 0 when the text is not one of those.
    # The caller has checked the frame's size (at most 160), so the length fits its 8 bits.
    add(r0, r0, r1)
    mov(r4, 32)
    strb(r4, [r0, 0])
    add(r1, 1)
    lsr(r5, r3, 8)
    mov(r4, 0xFF)
    and_(r3, r4)
    beq(bad)
    add(r1, r1, r3)
    cmp(r5, 0)
    beq(loop)
    cmp(r3, 12)
    bhi(bad)
    label(loop)
    ldrb(r4, [r2, 0])
    add(r2, 1)
    add(r0, 1)
    strb(r4, [r0, 0])
    cmp(r5, 0)
    bne(kind)
    sub(r4, 33)
    cmp(r4, 93)
    bhi(bad)
    b(next)
    label(kind)
    cmp(r4, 95)
    beq(next)
    sub(r4, 65)
    cmp(r4, 25)
    bhi(bad)
    label(next)
    sub(r3, 1)
    bne(loop)
    mov(r0, r1)
    b(end)
    label(bad)
    mov(r0, 0)
    label(end)


@micropython.asm_thumb
def _seal(r0, r1, r2):
    # r0 out, r1 n, r2 seq: out[0:2] = seq in hex, out[2] = " ", out[n:n + 6] = " CCCC\n", the CRC of
    # out[:n]. Returns 1, or 0 (nothing written) when seq is not 0..255 (a negative one is above 255
    # unsigned).
    cmp(r2, 255)
    bhi(bad)
    mov(r6, r0)
    lsr(r4, r2, 4)
    bl(hexd)
    strb(r4, [r6, 0])
    mov(r4, 15)
    and_(r4, r2)
    bl(hexd)
    strb(r4, [r6, 1])
    mov(r4, 32)
    strb(r4, [r6, 2])
    mov(r2, 0xFF)
    lsl(r2, r2, 8)
    add(r2, 0xFF)
    lsl(r2, r2, 16)
    mov(r5, 0x10)
    lsl(r5, r5, 8)
    add(r5, 0x21)
    lsl(r5, r5, 16)
    add(r6, r6, r1)
    label(byte)
    cmp(r0, r6)
    bcs(done)
    ldrb(r3, [r0, 0])
    add(r0, 1)
    lsl(r3, r3, 24)
    eor(r2, r3)
    mov(r4, 8)
    label(bit)
    lsl(r2, r2, 1)
    bcc(next)
    eor(r2, r5)
    label(next)
    sub(r4, 1)
    bne(bit)
    b(byte)
    label(done)
    mov(r4, 32)
    strb(r4, [r6, 0])
    mov(r7, 15)
    lsr(r4, r2, 28)
    bl(hexd)
    strb(r4, [r6, 1])
    lsr(r4, r2, 24)
    and_(r4, r7)
    bl(hexd)
    strb(r4, [r6, 2])
    lsr(r4, r2, 20)
    and_(r4, r7)
    bl(hexd)
    strb(r4, [r6, 3])
    lsr(r4, r2, 16)
    and_(r4, r7)
    bl(hexd)
    strb(r4, [r6, 4])
    mov(r4, 10)
    strb(r4, [r6, 5])
    mov(r0, 1)
    b(end)
    label(hexd)
    # r4 = the hex digit of r4 (0..15), upper case
    add(r4, 48)
    cmp(r4, 57)
    bls(digit)
    add(r4, 7)
    label(digit)
    bx(lr)
    label(bad)
    mov(r0, 0)
    label(end)


def encode(seq, kind, args=()):
    # each argument is written by _put straight into the frame: no joined str (a new str costs the chip
    # ~0.1 ms: it is looked up among the interned strings). Bytecode around the assembler: native code lives
    # in the heap (docs/benchmarks.md, issue 22's fourth round)
    size = len(kind) + 9
    for arg in args:
        if type(arg) is not str:  # an int: each argument made a str first
            return encode(seq, kind, tuple(map(str, args)))  # map: no comprehension's code object
        size += len(arg) + 1
    if size <= 160:
        out = bytearray(size)
        n = _put(out, 2, kind, len(kind) | 256)
        for arg in args:
            if not n:
                break
            n = _put(out, n, arg, len(arg))
        if n and _seal(out, n, seq):
            return out
    # refused: the portable encode (unoxfw.decode, imported only now) raises ValueError saying why; the
    # module is dropped again unless something else had it (a refused frame is rare: 2,928 B kept, 1,168 with
    # the drop, its names stay interned)
    import sys

    kept = "unoxfw.decode" in sys.modules
    from unoxfw.decode import encode as why

    if not kept:
        import unoxfw

        del sys.modules["unoxfw.decode"], unoxfw.decode
    return why(seq, kind, args)


@micropython.asm_thumb
def _scan(r0, r1, r2, r3):
    # r0 data, r1 buf, r2 end, r3 state = (start << 17) | (bad << 16) | (n << 8) | size: copies data[start:]
    # up to the next "\n" into buf from n ("\r" dropped); a byte outside 0x20..0x7E or a line longer than
    # size makes it bad. Returns (stop << 17) | (bad << 16) | (n << 8) | seq; stop = end: no "\n" yet.
    # At a "\n", a line that is not bad and not empty is checked whole: "SS KIND [args] CCCC", upper-case
    # hex, the kind 1-12 of A-Z and _, no empty field, its CRC; a wrong one comes back bad.
    add(r2, r2, r0)
    push({r0, r1})
    lsr(r4, r3, 17)
    add(r0, r0, r4)
    lsl(r6, r3, 15)
    lsr(r6, r6, 31)
    lsl(r4, r3, 16)
    lsr(r4, r4, 24)
    mov(r7, 0xFF)
    and_(r3, r7)
    add(r3, r3, r1)
    add(r1, r1, r4)
    label(copy)
    # r0 data walked to r2 its end, r1 buf walked to r3 its end, r6 bad
    cmp(r0, r2)
    bcs(done)
    ldrb(r7, [r0, 0])
    cmp(r7, 10)
    beq(done)
    add(r0, 1)
    cmp(r7, 13)
    beq(copy)
    cmp(r6, 0)
    bne(copy)
    sub(r7, 32)
    cmp(r7, 94)
    bhi(wrong)
    cmp(r1, r3)
    bcs(wrong)
    add(r7, 32)
    strb(r7, [r1, 0])
    add(r1, 1)
    b(copy)
    label(wrong)
    mov(r6, 1)
    b(copy)
    label(done)
    sub(r3, r2, r0)
    pop({r4, r5})
    sub(r0, r0, r4)
    sub(r1, r1, r5)
    lsl(r0, r0, 17)
    lsl(r4, r1, 8)
    orr(r0, r4)
    cmp(r3, 0)
    beq(result)
    cmp(r6, 0)
    bne(result)
    cmp(r1, 0)
    beq(result)
    # the whole line: r5 buf, r1 n, r2 its end; r0 the result so far
    cmp(r1, 9)
    blt(no)
    ldrb(r4, [r5, 2])
    cmp(r4, 32)
    bne(no)
    add(r2, r5, r1)
    sub(r4, r2, 5)
    ldrb(r4, [r4, 0])
    cmp(r4, 32)
    bne(no)
    mov(r3, r5)
    mov(r7, 32)
    label(space)
    # no field empty: no space first, none after another
    ldrb(r4, [r3, 0])
    cmp(r4, 32)
    bne(other)
    cmp(r7, 32)
    beq(no)
    label(other)
    mov(r7, r4)
    add(r3, 1)
    cmp(r3, r2)
    bne(space)
    ldrb(r4, [r5, 0])
    bl(hexv)
    cmp(r4, 15)
    bhi(no)
    lsl(r3, r4, 4)
    ldrb(r4, [r5, 1])
    bl(hexv)
    cmp(r4, 15)
    bhi(no)
    orr(r3, r4)
    orr(r0, r3)
    add(r3, r5, 3)
    label(kind)
    ldrb(r4, [r3, 0])
    cmp(r4, 32)
    beq(kinded)
    cmp(r4, 95)
    beq(letter)
    sub(r4, 65)
    cmp(r4, 25)
    bhi(no)
    label(letter)
    add(r3, 1)
    b(kind)
    label(kinded)
    sub(r3, r3, r5)
    cmp(r3, 15)
    bhi(no)
    sub(r3, r2, 4)
    mov(r7, 0)
    label(want)
    ldrb(r4, [r3, 0])
    bl(hexv)
    cmp(r4, 15)
    bhi(no)
    lsl(r7, r7, 4)
    orr(r7, r4)
    add(r3, 1)
    cmp(r3, r2)
    bne(want)
    push({r0, r7})
    sub(r2, r2, 5)
    mov(r3, 0xFF)
    lsl(r3, r3, 8)
    add(r3, 0xFF)
    lsl(r3, r3, 16)
    mov(r7, 0x10)
    lsl(r7, r7, 8)
    add(r7, 0x21)
    lsl(r7, r7, 16)
    label(byte)
    ldrb(r4, [r5, 0])
    add(r5, 1)
    lsl(r4, r4, 24)
    eor(r3, r4)
    mov(r0, 8)
    label(bit)
    lsl(r3, r3, 1)
    bcc(next)
    eor(r3, r7)
    label(next)
    sub(r0, 1)
    bne(bit)
    cmp(r5, r2)
    bne(byte)
    lsr(r3, r3, 16)
    pop({r0, r7})
    cmp(r3, r7)
    beq(result)
    label(no)
    mov(r6, 1)
    label(result)
    lsl(r6, r6, 16)
    orr(r0, r6)
    b(end)
    label(hexv)
    # r4 = the value of the upper-case hex digit r4, or 16
    sub(r4, 48)
    cmp(r4, 9)
    bls(value)
    sub(r4, 17)
    cmp(r4, 5)
    bhi(nohex)
    add(r4, 10)
    bx(lr)
    label(nohex)
    mov(r4, 16)
    label(value)
    bx(lr)
    label(end)


# the kinds the firmware receives most (docs/protocol.md), as bytes -> the same str: no str made for them.
# The ACK and the FIRE are the hosted press's path, the HEARTBEAT comes every host beat; the rest (HELLO,
# STATUS, QUERY, TAKEN, ...) come once in a while, and str() finds their interned name (~0.1 ms): each
# entry costs the heap about 45 B (docs/benchmarks.md, issue 22's fifth round)
_KINDS = {b"ACK": "ACK", b"FIRE": "FIRE", b"HEARTBEAT": "HEARTBEAT"}


def feed(dec, data):
    end = len(data)
    if end > 4096:  # _scan's result holds positions below 8192: a longer chunk goes in parts
        return list(feed(dec, data[:4096])) + list(feed(dec, data[4096:]))
    out = ()  # MicroPython's one empty tuple: nothing allocated when no frame comes
    buf = dec._buf
    size = len(buf)
    if size > 255:  # _scan's state holds 8 bits of size; the protocol's lines are at most 160 bytes
        size = 255
    st = (dec._n << 8) | size
    if dec._bad:
        st |= 0x10000
    start = 0
    while start < end:
        r = _scan(data, buf, end, (start << 17) | st)
        start = (r >> 17) + 1
        if start > end:  # no "\n" yet: the line so far waits for the next chunk
            st = (r & 0x1FF00) | size
            break
        st = size
        if r & 0x10000:
            dec.errors += 1
        elif r & 0xFF00:
            # the fields after the seq, split as bytes (a str's split cost ~0.55 ms a frame: each new str
            # is looked up among the interned strings); then only the kind (mostly from _KINDS) and the
            # arguments become str, the usual counts without map()'s call per argument
            parts = bytes(dec._view[3 : ((r >> 8) & 255) - 5]).split()  # only spaces, no empty field
            kind = _KINDS.get(parts[0]) or str(parts[0], "ascii")
            k = len(parts)
            if k == 1:
                args = ()
            elif k == 2:
                args = (str(parts[1], "ascii"),)
            elif k == 3:
                args = (str(parts[1], "ascii"), str(parts[2], "ascii"))
            elif k == 4:
                args = (str(parts[1], "ascii"), str(parts[2], "ascii"), str(parts[3], "ascii"))
            else:
                args = tuple(map(bytes.decode, parts[1:]))  # map: no comprehension's code object
            dec.frames += 1
            if not out:
                out = []
            out.append((r & 255, kind, args))
    dec._n = (st >> 8) & 255
    dec._bad = st > 0xFFFF
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
