# unittest tests of unoxfw.link, run under the real MicroPython interpreter by run_mp.mjs.
import unittest

from unoxfw.link import Decoder, Endpoint, crc16, encode, ticks_diff


def crc_reference(data):
    # An independent CRC-16/CCITT-FALSE: MSB-first long division of data * x^16, init folded in.
    value = 0xFFFF
    for byte in data:
        for bit in range(7, -1, -1):
            top = (value >> 15) & 1
            value = (value << 1) & 0xFFFF
            if top ^ ((byte >> bit) & 1):
                value ^= 0x1021
    return value


class Wire:
    def __init__(self):
        self.data = b""

    def write(self, frame):
        self.data += frame

    def take(self):
        data = self.data
        self.data = b""
        return data


class TestCrc(unittest.TestCase):
    def test_check_value_of_ccitt_false(self):
        self.assertEqual(crc16(b"123456789"), 0x29B1)

    def test_matches_independent_bitwise_reference(self):
        for data in (b"", b"A", b"05 FIRE 3", bytes(range(32, 127))):
            self.assertEqual(crc16(data), crc_reference(data))


class TestCodec(unittest.TestCase):
    def test_round_trip_and_no_ctrl_c(self):
        frame = encode(0x2A, "FIRED", (3, 3, "-", "07"))
        self.assertFalse(3 in frame)
        self.assertEqual(Decoder().feed(frame), [(0x2A, "FIRED", ("3", "3", "-", "07"))])

    def test_bad_crc_is_counted_and_next_frame_still_decodes(self):
        good = encode(1, "FIRE", (2,))
        bad = good[:-2] + (b"0" if good[-2:-1] != b"0" else b"1") + b"\n"
        d = Decoder()
        self.assertEqual(len(d.feed(bad + good)), 1)
        self.assertEqual(d.errors, 1)

    def test_overlong_line_resyncs_on_newline(self):
        d = Decoder(32)
        frames = d.feed(b"X" * 100 + b"\n" + encode(3, "STATUS"))
        self.assertEqual(frames, [(3, "STATUS", ())])
        self.assertEqual(d.errors, 1)

    def test_every_byte_value_is_survived(self):
        d = Decoder()
        junk = bytes(range(256)) + b"\n" + bytes(range(255, -1, -1)) + b"\n"
        good = encode(4, "BEEP", ("press",))
        self.assertEqual(d.feed(junk + good + junk), [(4, "BEEP", ("press",))])
        self.assertEqual(d.errors, 2 * junk.count(b"\n"))  # every junk line holds a byte outside 0x20-0x7E

    def test_encode_refuses_spaces_and_bad_kind(self):
        self.assertRaises(ValueError, encode, 1, "FIRE", ("a b",))
        self.assertRaises(ValueError, encode, 1, "fire", ())
        self.assertRaises(ValueError, encode, 256, "FIRE", ())

    def test_ticks_diff_wraps(self):
        self.assertEqual(ticks_diff(5, 0x3FFFFFFF), 6)
        self.assertEqual(ticks_diff(0, 10), -10)


class TestEndpoint(unittest.TestCase):
    def pair(self):
        a_wire, b_wire = Wire(), Wire()
        a = Endpoint(a_wire.write, epoch=100)
        b = Endpoint(b_wire.write, epoch=200)
        return a, a_wire, b, b_wire

    def test_duplicate_command_is_delivered_once_and_reply_is_resent(self):
        a, a_wire, b, b_wire = self.pair()
        a.hello(("1", "t"), 0)
        self.assertEqual(len(b.receive(a_wire.take(), 0)), 1)
        a.send("FIRE", (3,), 0)
        fire = a_wire.take()
        self.assertEqual(len(b.receive(fire, 1)), 1)
        b_wire.take()
        b.send("FIRED", (3, 3, "-", "02"), 2, reply_to=2)
        reply = b_wire.take()
        self.assertEqual(len(b.receive(fire, 3)), 0)
        self.assertIn(reply, b_wire.take())
        self.assertEqual(b.duplicates, 1)

    def test_unacked_frame_is_retransmitted_until_acked(self):
        a, a_wire, b, b_wire = self.pair()
        a.hello(("1", "t"), 0)
        b.receive(a_wire.take(), 0)
        a.receive(b_wire.take(), 0)
        self.assertEqual(a.unacked(), 0)
        a.send("BEEP", ("press",), 0)
        a_wire.take()
        self.assertEqual(a.poll(100), 0)
        self.assertEqual(a.poll(300), 1)
        self.assertEqual(len(b.receive(a_wire.take(), 300)), 1)
        a.receive(b_wire.take(), 301)
        self.assertEqual(a.unacked(), 0)


if __name__ == "__main__":
    unittest.main()
