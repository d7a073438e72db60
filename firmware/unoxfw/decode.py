# unoxfw.decode: unoxfw.link's portable Decoder.feed, the one CPython (the host, the simulator) and a port
# without the native emitters (WebAssembly) run. On the chip unoxfw.fast.feed replaces it, so the chip does
# not compile this module at boot: Decoder._feed imports it when asked (tests/pico compares the two), which
# leaves its bytecode out of the chip's heap (docs/benchmarks.md, issue 22's fourth round).
#   feed(decoder, data) -> sequence of (seq, kind, args): Decoder.feed, the decoder's state in its fields

from unoxfw.link import _is_hex, _valid_kind, crc16


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
