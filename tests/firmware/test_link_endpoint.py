"""The reliable endpoint: seq/ack/retransmit, duplicates, epochs (HELLO), over a lossy virtual wire."""

import random

from unoxfw.link import Endpoint, encode


class LossyWire:
    """Frames written by one endpoint, delivered to the other with drops, duplicates and corruption."""

    def __init__(self, rng: random.Random, loss: float = 0.0):
        self.rng = rng
        self.loss = loss
        self.queue: list[bytes] = []

    def write(self, frame: bytes) -> None:
        roll = self.rng.random()
        if roll < self.loss:
            return  # dropped
        if roll < 2 * self.loss:
            i = self.rng.randrange(len(frame) - 1)
            frame = frame[:i] + bytes([0x21 + (frame[i] - 0x20) % 94]) + frame[i + 1 :]  # corrupted
        elif roll < 3 * self.loss:
            self.queue.append(frame)  # duplicated
        self.queue.append(frame)

    def take(self) -> bytes:
        data = b"".join(self.queue)
        self.queue = []
        return data


def connect(loss=0.0, seed=1):
    rng = random.Random(seed)
    to_b, to_a = LossyWire(rng, loss), LossyWire(rng, loss)
    a = Endpoint(to_b.write, epoch=0x1000)
    b = Endpoint(to_a.write, epoch=0x2000)
    return a, to_b, b, to_a


def handshake(a, to_b, b, to_a, now=0):
    a.hello(("1", "host"), now)
    for frame in b.receive(to_b.take(), now):
        if frame[1] == "HELLO":
            b.hello(("1", "fw"), now, reply_to=frame[0])
    a.receive(to_a.take(), now)
    assert a.session and b.session


def test_every_message_arrives_exactly_once_in_order_over_a_lossy_wire():
    """10 % dropped, 10 % corrupted, 10 % duplicated, both ways; senders keep within half the window."""
    a, to_b, b, to_a = connect(loss=0.1, seed=7)
    a.hello(("1", "host"), 0)
    got_b, got_a, sent_b = [], [], []
    sent = 0
    for now in range(0, 600_000, 10):
        if now % 200 == 0 and sent < 600 and a.unacked() < 4:
            a.send("FIRE", (sent,), now)
            sent += 1
        if now % 200 == 100 and b.session and len(sent_b) < 600 and b.unacked() < 4:
            b.send("BUTTON", (len(sent_b),), now)
            sent_b.append(len(sent_b))
        for seq, kind, args in b.receive(to_b.take(), now):
            if kind == "HELLO":
                b.hello(("1", "fw"), now, reply_to=seq)
            else:
                got_b.append(int(args[0]))
        got_a.extend(int(f[2][0]) for f in a.receive(to_a.take(), now) if f[1] == "BUTTON")
        a.poll(now)
        b.poll(now)
    assert sent == 600 and len(sent_b) == 600
    assert got_b == list(range(600))
    assert got_a == sent_b
    assert a.retransmits > 0 and b.duplicates > 0 and a.overflows == b.overflows == 0


def test_sequence_numbers_wrap_past_255_without_loss():
    a, to_b, b, to_a = connect()
    handshake(a, to_b, b, to_a)
    got = []
    for i in range(700):
        a.send("BEEP", ("press",), i)
        got.extend(b.receive(to_b.take(), i))
        a.receive(to_a.take(), i)
    assert len(got) == 700
    assert a.unacked() == 0
    assert {f[0] for f in got} == set(range(1, 256))  # seq 0 is never used by reliable frames


def test_duplicate_fire_is_dropped_and_its_reply_is_sent_again_byte_for_byte():
    a, to_b, b, to_a = connect()
    handshake(a, to_b, b, to_a)
    a.send("FIRE", (3,), 0)
    fire = to_b.take()
    [(seq, kind, args)] = b.receive(fire, 1)
    to_a.take()
    b.send("FIRED", (3, 3, "-", f"{seq:02X}"), 2, reply_to=seq)
    reply = to_a.take()
    assert b.receive(fire, 3) == ()
    again = to_a.take()
    assert reply in again
    assert [f[1] for f in a.receive(reply + again, 4)] == ["FIRED"]  # the host sees one FIRED


def test_frame_ahead_of_the_window_is_not_delivered_until_the_gap_is_filled():
    a, to_b, b, to_a = connect()
    handshake(a, to_b, b, to_a)
    a.send("BEEP", ("press",), 0)
    first = to_b.take()
    a.send("BEEP", ("lid",), 0)
    second = to_b.take()
    assert b.receive(second, 1) == ()  # go-back-N: out of order is dropped
    a.receive(to_a.take(), 1)
    assert a.unacked() == 2
    assert a.poll(300) == 2
    assert [f[2] for f in b.receive(to_b.take(), 300)] == [("press",), ("lid",)]
    assert first not in second  # the first frame was lost on purpose; only the retransmission carried it


def test_new_hello_epoch_resets_the_windows_of_a_restarted_host():
    a, to_b, b, to_a = connect()
    handshake(a, to_b, b, to_a)
    for i in range(5):
        a.send("BEEP", ("press",), i)
    b.receive(to_b.take(), 5)
    a2 = Endpoint(to_b.write, epoch=0x7A31)  # the host restarts (random epoch): its seq starts at 1 again
    to_a.take()
    a2.hello(("1", "host"), 10)
    frames = b.receive(to_b.take(), 10)
    assert [f[1] for f in frames] == ["HELLO"]
    a2.send("FIRE", (1,), 11)
    assert [f[1] for f in b.receive(to_b.take(), 11)] == ["FIRE"]  # seq 2 again, but a new epoch


def test_ack_for_another_epoch_is_ignored():
    a, to_b, b, to_a = connect()
    handshake(a, to_b, b, to_a)
    seq = a.send("BEEP", ("press",), 0)
    a.receive(encode(0, "ACK", (f"{seq:02X}", "FFFF")), 1)
    assert a.unacked() == 1


def test_ack_is_checked_against_the_current_epoch_even_before_its_hex_was_made():
    # _on_ack compares with the cached hex of the own epoch: a new epoch must refresh it first
    a, to_b, b, to_a = connect()
    handshake(a, to_b, b, to_a)
    seq = a.send("BEEP", ("press",), 0)
    old = a.epoch_hex()
    a.epoch = (a.epoch % 0xFFFF) + 1  # a new epoch, its hex not made yet
    a.receive(encode(0, "ACK", (f"{seq:02X}", old)), 1)
    assert a.unacked() == 1  # the old epoch's ACK is ignored
    a.receive(encode(0, "ACK", (f"{seq:02X}", f"{a.epoch:04X}")), 2)
    assert a.unacked() == 0


def test_no_session_means_frames_are_neither_delivered_nor_acked():
    a, to_b, b, to_a = connect()
    a.send("FIRE", (2,), 0)  # no HELLO first
    assert b.receive(to_b.take(), 0) == ()
    assert to_a.take() == b""


def test_window_overflow_drops_the_oldest_and_counts_it():
    a, to_b, b, to_a = connect()
    handshake(a, to_b, b, to_a)
    for i in range(a.window + 3):
        a.send("BEEP", ("press",), i)
    assert a.unacked() == a.window
    assert a.overflows == 3


def test_retransmission_backs_off_while_unacked_and_resets_on_ack():
    a, to_b, b, to_a = connect()
    handshake(a, to_b, b, to_a)
    a.send("BEEP", ("press",), 0)
    to_b.take()
    base = a.retransmit_ms
    times = [t for t in range(0, 20 * base, 10) if a.poll(t)]
    gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
    assert times[0] == base
    assert gaps[:3] == [2 * base, 4 * base, 4 * base]  # doubles, capped at 4x
    b.receive(to_b.take(), times[-1])
    a.receive(to_a.take(), times[-1])
    assert a.unacked() == 0
    a.send("BEEP", ("lid",), 10_000)
    assert a.poll(10_000 + base) == 1  # back to the short wait after an ACK
