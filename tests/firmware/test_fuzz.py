"""Fuzz: random and mutated bytes into the frame parser, the endpoint and the whole firmware App.

No exception may escape, and the motor never runs unless a valid FIRE (checked here with an independent
CRC, binascii.crc_hqx) reached the firmware.
"""

import binascii
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from unoxfw.link import Decoder, Endpoint, encode
from unoxfw.settings import LIMITS
from unoxfw.signals import PATTERNS

LINE = re.compile(rb"^([0-9A-F]{2}) FIRE ([^ ]+) ([0-9A-F]{4})$")


def has_valid_fire(stream: bytes) -> bool:
    for line in stream.split(b"\n")[:-1]:
        m = LINE.match(line.rstrip(b"\r"))
        if m and m.group(1) != b"00" and binascii.crc_hqx(line[:-5], 0xFFFF) == int(m.group(3), 16):
            if m.group(2).isdigit() and 0 < int(m.group(2)) <= 40:
                return True
    return False


TOKEN = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=10)
SEQ = st.integers(1, 255)


@st.composite
def operation(draw):
    """One thing the host side does: a frame (FIRE always damaged by one byte) or raw garbage."""
    kinds = ["FIRE", "STATUS", "BEEP", "CONFIG", "HEARTBEAT", "ABORT", "NOPE", "GARBAGE"]
    kind = draw(st.sampled_from(kinds))
    if kind == "GARBAGE":
        return kind, draw(st.binary(max_size=40)), None
    if kind == "FIRE":
        args = [str(draw(st.integers(1, 40)))]
    elif kind == "BEEP":
        args = [draw(st.sampled_from(sorted(PATTERNS)) | TOKEN)]
    elif kind == "CONFIG":
        args = draw(st.lists(st.sampled_from(sorted(LIMITS)) | TOKEN, max_size=3))
    else:
        args = draw(st.lists(TOKEN, max_size=3))
    damage = None
    if kind == "FIRE" or draw(st.booleans()):
        damage = (draw(st.integers(0, 200)), draw(st.integers(1, 255)))
    return kind, args, damage


def damaged(frame: bytes, damage) -> bytes:
    """Replace one byte (never the final newline) by a different value."""
    i = damage[0] % (len(frame) - 1)
    out = bytearray(frame)
    out[i] = (out[i] + damage[1]) % 256
    return bytes(out)


@given(st.binary(max_size=3000))
def test_decoder_never_raises_and_accounts_for_every_line(data):
    decoder = Decoder()
    frames = decoder.feed(data)
    assert decoder.frames == len(frames)
    assert decoder.frames + decoder.errors <= data.count(b"\n")


ACKS = st.builds(lambda s: encode(s, "ACK", ("01", "0003")), SEQ)


@given(st.lists(st.binary(max_size=60) | ACKS, max_size=30))
def test_endpoint_never_raises_on_garbage(chunks):
    out = []
    endpoint = Endpoint(out.append, epoch=3)
    for now, chunk in enumerate(chunks):
        endpoint.receive(chunk, now * 10)
        endpoint.poll(now * 10)
    assert all(frame.endswith(b"\n") and 3 not in frame for frame in out)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.booleans(), st.lists(operation(), min_size=1, max_size=20))
def test_app_survives_garbage_and_never_runs_the_motor_without_a_valid_fire(make_rig, hello, ops):
    rig = make_rig(cards=20)
    rig.host.retransmit_ms = 10**9  # a damaged frame is never repaired by a retransmission
    delivered = []
    pending = []

    def wire(data: bytes) -> bytes:
        if pending:
            data = damaged(data, pending.pop())
        delivered.append(data)
        return data

    rig.wire_to_fw = wire
    if hello:
        rig.connect()
    for kind, args, damage in ops:
        if kind == "GARBAGE":
            rig.io.inbox += args
            delivered.append(args)
        else:
            if damage:
                pending.append(damage)
            rig.host.send(kind, args, rig.now)
        rig.run(20)
    rig.run(300)
    if not has_valid_fire(b"".join(delivered)):
        assert rig.max_motor_ms == 0
        assert rig.fired == 0
    assert rig.app.feeder.busy() or rig.motor() == 0
