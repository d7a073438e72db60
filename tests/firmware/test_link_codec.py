"""The wire codec: CRC variant, framing, resync and the byte rule that keeps Ctrl-C usable."""

import binascii
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from unoxfw.link import Decoder, crc16, encode, ticks_diff

TOKENS = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=8)
KINDS = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ_", min_size=1, max_size=12)


def test_crc16_is_ccitt_false_check_value():
    assert crc16(b"123456789") == 0x29B1


@given(st.integers(0, 255), KINDS, st.lists(TOKENS, max_size=6))
def test_round_trip_and_frames_never_contain_ctrl_c(seq, kind, args):
    frame = encode(seq, kind, args)
    assert 0x03 not in frame
    assert frame.endswith(b"\n") and frame.count(b"\n") == 1
    assert all(0x20 <= b <= 0x7E for b in frame[:-1])
    assert Decoder().feed(frame) == [(seq, kind, tuple(args))]


def test_frame_layout_is_seq_kind_args_crc():
    frame = encode(5, "FIRE", (3,))
    body = b"05 FIRE 3"
    assert frame == body + b" %04X\n" % binascii.crc_hqx(body, 0xFFFF)


def test_byte_at_a_time_feeding_gives_the_same_frames():
    stream = encode(1, "HELLO", ("1", "x", "00AB")) + encode(2, "FIRE", (4,))
    decoder = Decoder()
    frames = []
    for i in range(len(stream)):
        frames.extend(decoder.feed(stream[i : i + 1]))
    assert frames == [(1, "HELLO", ("1", "x", "00AB")), (2, "FIRE", ("4",))]


@pytest.mark.parametrize(
    "line",
    [
        b"05 FIRE 3 0000\n",  # wrong CRC
        b"5 FIRE 3 1234\n",  # seq not 2 hex digits
        b"05 fire 3 1234\n",  # kind not upper case
        b"05  FIRE 3 1234\n",  # empty token
        b"05 FIRE\x033 1234\n",  # control byte
        b"\xff\xfe\n",  # not ASCII
    ],
)
def test_malformed_lines_are_counted_not_raised(line):
    decoder = Decoder()
    assert list(decoder.feed(line)) == []
    assert decoder.errors == 1
    good = encode(7, "STATUS")
    assert decoder.feed(good) == [(7, "STATUS", ())]


def test_lowercase_hex_is_refused_so_each_frame_has_one_spelling():
    frames = [encode(seq, "STATUS") for seq in range(1, 40)]
    with_letters = [f for f in frames if f[-5:-1] != f[-5:-1].lower()]
    assert with_letters, "some CRC in 39 frames has a hex letter"
    decoder = Decoder()
    for frame in with_letters:
        assert list(decoder.feed(frame[:-5] + frame[-5:-1].lower() + b"\n")) == []
    assert decoder.errors == len(with_letters)


def test_overlong_line_is_dropped_and_decoder_resyncs():
    decoder = Decoder()
    frames = decoder.feed(b"A" * 1000 + b"\n" + encode(1, "ABORT"))
    assert frames == [(1, "ABORT", ())]
    assert decoder.errors == 1


def test_decoder_buffer_is_allocated_once():
    decoder = Decoder()
    buffer = decoder._buf
    decoder.feed(b"x" * 500 + b"\n" + encode(1, "STATUS") * 3)
    assert decoder._buf is buffer and len(buffer) == 160


@pytest.mark.parametrize(
    ("args", "why"),
    [((256, "FIRE", ()), "seq"), ((1, "fire", ()), "kind"), ((1, "BEEP", ("a b",)), "argument"),
     ((1, "BEEP", ("",)), "argument"), ((1, "BEEP", ("x" * 200,)), "longer")],
)
def test_encode_refuses_what_would_not_decode(args, why):
    with pytest.raises(ValueError, match=why):
        encode(*args)


def test_ticks_diff_handles_the_2_30_wrap():
    assert ticks_diff(3, (1 << 30) - 2) == 5
    assert ticks_diff(100, 250) == -150


FRAME_LINE = re.compile(rb"([0-9A-F]{2}) ([A-Z_]{1,12})((?: [!-~]+)*) ([0-9A-F]{4})")


def read_line_by_line(stream: bytes) -> tuple[list, int]:
    """The protocol's framing read independently (docs/protocol.md): a line is what ends in `\\n`, `\\r` is
    ignored, and a line with a byte outside 0x20-0x7E, longer than 160 bytes, malformed or with a wrong
    CRC (binascii's) is an error. Returns (frames, errors)."""
    frames, errors = [], 0
    for line in stream.split(b"\n")[:-1]:
        line = line.replace(b"\r", b"")
        if not line:
            continue
        match = FRAME_LINE.fullmatch(line)
        if (len(line) > 160 or match is None
                or binascii.crc_hqx(line[:-5], 0xFFFF) != int(match.group(4), 16)):
            errors += 1
            continue
        args = tuple(match.group(3).decode().split(" ")[1:])
        frames.append((int(match.group(1), 16), match.group(2).decode(), args))
    return frames, errors


def framed(body: bytes) -> bytes:
    """A line with the right CRC whatever its body, which encode would refuse to make."""
    return body + b" %04X\n" % binascii.crc_hqx(body, 0xFFFF)


LONGEST = framed(b"01 BEEP " + b"x" * 147)  # 160 bytes before its newline: the longest line taken


PIECES = st.one_of(
    st.builds(lambda seq, kind, args: encode(seq, kind, args), st.integers(0, 255), KINDS,
              st.lists(TOKENS, max_size=4)),
    st.binary(max_size=30),
    st.sampled_from([b"\r", b"\n", b"\r\n", b"\x03", b"\xff", b"A" * 170, b"05 FIRE 3 0000\n"]),
    st.sampled_from([LONGEST, LONGEST[:-1] + b"\r\n", b"\r" + LONGEST, b"A" + LONGEST]),  # 160 bytes, and 161
    # a bad byte under a right CRC: only the byte check refuses these
    st.sampled_from([framed(b"02 BEEP a\tb"), framed(b"02 BEEP a\x7fb"), framed(b"02 BEEP \xe9")]),
)


@given(st.lists(PIECES, max_size=12), st.lists(st.integers(1, 40), max_size=20))
def test_any_stream_in_any_chunks_decodes_as_read_line_by_line(pieces, cuts):
    # The decoder works a line at a time in C (find, min, max): it must still agree with the framing's
    # definition however the bytes arrive, one at a time or many lines in one read.
    stream = b"".join(pieces)
    expected_frames, expected_errors = read_line_by_line(stream)
    decoder, frames, start = Decoder(), [], 0
    for cut in cuts:
        frames.extend(decoder.feed(stream[start : start + cut]))
        start += cut
    frames.extend(decoder.feed(stream[start:]))
    assert frames == expected_frames
    assert (decoder.frames, decoder.errors) == (len(expected_frames), expected_errors)
