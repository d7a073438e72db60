"""CRC-16/CCITT-FALSE on both paths: binascii.crc_hqx (CPython, the host) and the table lookup (MicroPython).

`crc16` picks crc_hqx where it exists; the lookup (unoxfw.decode) is what a MicroPython without unoxfw.fast
runs (its binascii has no crc_hqx; the Pico runs unoxfw.fast's assembler loop, compared with the bitwise loop
by tests/pico/test_pico_link_fast.py), so it is tested here explicitly under CPython, and under MicroPython by
`node firmware/tests/run_mp.mjs`. Its table is made by the bitwise loop, which is tested on its own against
the check value.
"""

import binascii

from hypothesis import given
from hypothesis import strategies as st
from unoxfw import decode, link

CHECK = b"123456789"  # the catalogue's check input; CRC-16/CCITT-FALSE gives 0x29B1


def test_the_bitwise_loop_that_makes_the_table_gives_the_check_value():
    assert decode._crc16_bits(CHECK) == 0x29B1


def test_the_table_lookup_gives_the_check_value():
    assert link._crc16_lookup(CHECK) == 0x29B1


def test_the_public_crc16_gives_the_check_value():
    assert link.crc16(CHECK) == 0x29B1


def test_cpython_takes_the_c_path():
    assert link._crc_hqx is binascii.crc_hqx


def test_without_crc_hqx_the_public_crc16_runs_the_lookup(monkeypatch):
    monkeypatch.setattr(link, "_crc_hqx", None)  # as on MicroPython
    assert link.crc16(CHECK) == 0x29B1
    assert link.crc16(b"") == 0xFFFF  # init value, nothing shifted in


@given(st.binary(max_size=200), st.integers(0, 0xFFFF))
def test_the_lookup_and_the_loop_match_binascii_crc_hqx_from_any_start(data, start):
    # crc_hqx with init 0xFFFF is CRC-16/CCITT-FALSE: an independent implementation
    assert link._crc16_lookup(data, start) == binascii.crc_hqx(data, start)
    assert decode._crc16_bits(data, start) == binascii.crc_hqx(data, start)


@given(st.binary(max_size=100), st.binary(max_size=100))
def test_both_paths_chain_and_take_the_decoders_memoryviews(head, tail):
    whole = link._crc16_lookup(head + tail)
    assert link._crc16_lookup(tail, link._crc16_lookup(head)) == whole
    assert link.crc16(memoryview(bytearray(head + tail))) == whole  # Decoder passes a memoryview slice
    assert link.crc16(tail, link.crc16(head)) == whole
