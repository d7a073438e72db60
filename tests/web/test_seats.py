"""Seats and the PIN on their own: the lockout's minute, and which requests each seat may send."""

from __future__ import annotations

import pytest
from unox.web.seats import JoinRefused, Seats, check_pin, check_player_names


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def seats(**options) -> Seats:
    return Seats(("Ann", "Bob"), "1234", **options)


def wrong_pins(book: Seats, clock: Clock, pin: str, seat: str, *, times: int, every: float) -> None:
    """`times` wrong PINs from 10.0.0.7, `every` seconds apart: each one is refused with 401."""
    for _ in range(times):
        with pytest.raises(JoinRefused) as wrong:
            book.join("10.0.0.7", pin, seat)
        assert wrong.value.status == 401
        clock.t += every


def test_five_wrong_pins_within_a_minute_lock_out_for_a_minute_then_the_pin_works_again():
    clock = Clock()
    book = seats(clock=clock)
    wrong_pins(book, clock, "9999", "Ann", times=5, every=5)
    with pytest.raises(JoinRefused) as locked:
        book.join("10.0.0.7", "1234", "Ann")
    assert locked.value.status == 429
    assert book.join("10.0.0.8", "1234", "Ann")  # another client is not locked out
    clock.t += 61
    assert book.seat_of(book.join("10.0.0.7", "1234", "Ann")) == "Ann"


def test_wrong_pins_spread_over_more_than_a_minute_do_not_lock_out():
    clock = Clock()
    book = seats(clock=clock)
    wrong_pins(book, clock, "0000", "Bob", times=8, every=16)  # four in any minute
    assert book.seat_of(book.join("10.0.0.7", "1234", "Bob")) == "Bob"


@pytest.mark.parametrize(
    ("seat", "request_", "allowed"),
    [
        ("Ann", {"cmd": "play", "player": "Ann", "card": "R5"}, True),
        ("Ann", {"cmd": "play", "player": "Bob", "card": "R5"}, False),
        ("Ann", {"cmd": "press", "player": "Ann"}, True),
        ("Ann", {"cmd": "press"}, False),  # unnamed: anyone's; a phone names its player
        ("Ann", {"cmd": "press", "player": "Bob", "fired": 2}, False),
        ("Ann", {"cmd": "uno", "player": "Ann"}, True),
        ("Ann", {"cmd": "uno", "player": "Bob"}, False),
        ("Ann", {"cmd": "catch", "player": "Bob", "by": "Ann"}, True),
        ("Ann", {"cmd": "catch", "player": "Bob", "by": "Bob"}, False),
        ("Ann", {"cmd": "undo"}, False),
        ("Ann", {"cmd": "deal", "dealer": "Ann"}, False),
        ("Ann", {"cmd": "state"}, True),
        ("operator", {"cmd": "penalty", "player": "Bob", "kind": "advice"}, True),
        ("operator", {"cmd": "press"}, True),
        ("table", {"cmd": "uno", "player": "Ann"}, False),
        ("table", {"cmd": "state"}, True),
    ],
)
def test_each_seat_may_send_only_its_own_requests(seat, request_, allowed):
    refusal = seats().refusal(seat, request_)
    assert (refusal is None) == allowed, refusal


def test_a_read_only_table_refuses_every_change_even_to_the_operator():
    book = seats(read_only=True)
    assert "read-only" in book.refusal("operator", {"cmd": "reload"})
    assert book.refusal("Ann", {"cmd": "state"}) is None


def test_pins_and_reserved_names_are_checked():
    assert check_pin("0042") == "0042"
    for bad in ("123", "12345678901234", "12a4", "١٢٣٤"):
        with pytest.raises(ValueError, match="4 to 12 digits"):
            check_pin(bad)
    with pytest.raises(ValueError, match="'Operator'"):
        check_player_names(("Ann", "Operator"))


def test_tokens_are_bounded_the_oldest_goes_first():
    from unox.web.seats import MAX_TOKENS

    book = seats()
    first = book.join("10.0.0.7", "1234", "Ann")
    last = [book.join("10.0.0.7", "1234", "Bob") for _ in range(MAX_TOKENS)][-1]
    assert book.seat_of(first) is None and book.seat_of(last) == "Bob" and len(book.tokens) == MAX_TOKENS
