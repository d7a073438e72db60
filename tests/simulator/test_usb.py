"""The virtual USB cable: frames pass whole, and faults hit frames at the parameterised rates."""

import math
import random

import pytest
from unoxsim.usb import FaultyChannel, UsbCable

FRAME = b"05 FIRE 3 BCD9\n"


def test_without_faults_bytes_pass_at_once_even_mid_frame():
    channel = FaultyChannel(random.Random(1))
    channel.send(b"05 FI")
    assert channel.receive() == b"05 FI"


def test_with_faults_a_frame_is_held_until_complete():
    channel = FaultyChannel(random.Random(1), dup=1.0)
    channel.send(FRAME[:5])
    assert channel.pending() == 0
    channel.send(FRAME[5:])
    assert channel.receive() == FRAME + FRAME


@pytest.mark.parametrize("fate", ["drop", "corrupt", "dup"])
def test_each_fault_hits_frames_at_its_rate(fate):
    rate, frames = 0.1, 5000
    channel = FaultyChannel(random.Random(2), **{fate: rate})
    for _ in range(frames):
        channel.send(FRAME)
    out = channel.receive()
    lines = out.split(b"\n")[:-1]
    if fate == "drop":
        hits = frames - len(lines)
    elif fate == "dup":
        hits = len(lines) - frames
    else:
        hits = sum(1 for line in lines if line + b"\n" != FRAME) + (frames - len(lines))
    sigma = math.sqrt(frames * rate * (1 - rate))
    assert abs(hits - frames * rate) < 4 * sigma


def test_a_corrupted_frame_differs_in_exactly_one_bit():
    channel = FaultyChannel(random.Random(3), corrupt=1.0)
    channel.send(FRAME)
    damaged = channel.receive()
    flipped = [a ^ b for a, b in zip(damaged, FRAME, strict=True) if a != b]
    assert len(flipped) == 1 and bin(flipped[0]).count("1") == 1


def test_unplugged_cable_carries_nothing_and_loses_what_was_in_flight():
    cable = UsbCable()
    cable.host_write(b"in flight\n")
    cable.unplug()
    cable.host_write(FRAME)
    cable.board_write(FRAME)
    assert cable.board_read() == b"" and cable.host_read() == b""
    cable.plug()
    cable.host_write(FRAME)
    assert cable.board_read() == FRAME


def test_fault_rates_out_of_range_are_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        UsbCable(drop=-0.1)
