"""CRC-16/CCITT-FALSE on both paths: binascii.crc_hqx (CPython, the host) and the bitwise loop (MicroPython).

`crc16` picks crc_hqx where it exists; the loop is what the Pico runs (its binascii has no crc_hqx), so it
is tested here explicitly under CPython, and under MicroPython by `node firmware/tests/run_mp.mjs`.
"""

import binascii

from hypothesis import given
from hypothesis import strategies as st
from unoxfw import link

CHECK = b"123456789"  # the catalogue's check input; CRC-16/CCITT-FALSE gives 0x29B1


def test_the_fallback_loop_gives_the_check_value():
    assert link._crc16_loop(CHECK) == 0x29B1


def test_the_public_crc16_gives_the_check_value():
    assert link.crc16(CHECK) == 0x29B1


def test_cpython_takes_the_c_path():
    assert link._crc_hqx is binascii.crc_hqx


def test_without_crc_hqx_the_public_crc16_runs_the_loop(monkeypatch):
    monkeypatch.setattr(link, "_crc_hqx", None)  # as on MicroPython
    assert link.crc16(CHECK) == 0x29B1
    assert link.crc16(b"") == 0xFFFF  # init value, nothing shifted in


@given(st.binary(max_size=200), st.integers(0, 0xFFFF))
def test_the_loop_matches_binascii_crc_hqx_from_any_start(data, start):
    # crc_hqx with init 0xFFFF is CRC-16/CCITT-FALSE (PITFALLS.md): an independent implementation
    assert link._crc16_loop(data, start) == binascii.crc_hqx(data, start)


@given(st.binary(max_size=100), st.binary(max_size=100))
def test_both_paths_chain_and_take_the_decoders_memoryviews(head, tail):
    whole = link._crc16_loop(head + tail)
    assert link._crc16_loop(tail, link._crc16_loop(head)) == whole
    assert link.crc16(memoryview(bytearray(head + tail))) == whole  # Decoder passes a memoryview slice
    assert link.crc16(tail, link.crc16(head)) == whole
