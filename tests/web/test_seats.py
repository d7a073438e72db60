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
    return Seats(("Ann", "Bob"), "1234", "987654", **options)


def wrong_pins(book: Seats, clock: Clock, pin: str, seat: str, *, times: int, every: float) -> None:
    """`times` different wrong PINs (`pin` and a count) from 10.0.0.7, `every` seconds apart: each 401."""
    for i in range(times):
        with pytest.raises(JoinRefused) as wrong:
            book.join("10.0.0.7", f"{pin}{i}", seat)
        assert wrong.value.status == 401
        clock.t += every


def test_five_wrong_pins_within_a_minute_lock_out_for_a_minute_then_the_pin_works_again():
    clock = Clock()
    book = seats(clock=clock)
    wrong_pins(book, clock, "9999", "Ann", times=5, every=5)
    with pytest.raises(JoinRefused) as locked:
        book.join("10.0.0.7", "1234", "Ann")
    assert locked.value.status == 429 and "locked for 55 s" in locked.value.message  # 60 s from the fifth
    assert book.join("10.0.0.8", "1234", "table")  # another client is not locked out
    clock.t += 61
    assert book.seat_of(book.join("10.0.0.7", "1234", "Ann")) == "Ann"


def test_the_same_wrong_pin_again_counts_once():
    """Issue 25 item 5: after a restart with a new PIN, every page of a device rejoins with the PIN it
    stored; that old PIN five times is one wrong PIN, so the new one still opens at once."""
    clock = Clock()
    book = seats(clock=clock)
    for _ in range(12):
        with pytest.raises(JoinRefused) as wrong:
            book.join("10.0.0.7", "4321", "Ann")
        assert wrong.value.status == 401
    assert book.seat_of(book.join("10.0.0.7", "1234", "Ann")) == "Ann"
    wrong_pins(book, clock, "55", "Bob", times=4, every=1)  # four other guesses make five: locked
    with pytest.raises(JoinRefused) as locked:
        book.join("10.0.0.7", "1234", "Bob")
    assert locked.value.status == 429


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


def test_a_flood_of_joins_never_pushes_out_a_players_token():
    """Finding 12: 500 joins (table views, the operator, a taken seat) leave Ann's and Bob's tokens."""
    from unox.web.seats import MAX_OPERATORS, MAX_VIEWS

    book = seats()
    ann, bob = book.join("10.0.0.7", "1234", "Ann"), book.join("10.0.0.8", "1234", "Bob")
    first_view = book.join("10.0.0.9", "1234", "table")
    refused = set()
    for i in range(500):
        seat = ("table", "operator", "Ann")[i % 3]
        try:
            book.join("10.0.0.66", "987654" if seat == "operator" else "1234", seat)
        except JoinRefused as taken:
            refused.add((seat, taken.status, taken.code))
    assert refused == {("Ann", 409, "seat_taken"), ("table", 409, "views_full")}
    assert book.seat_of(ann) == "Ann" and book.seat_of(bob) == "Bob"
    assert book.seat_of(first_view) == "table"  # the views already there stay: a new one is refused
    held = list(book.tokens.values())
    assert held.count("table") == MAX_VIEWS and held.count("operator") == MAX_OPERATORS
    assert len(book.tokens) == 2 + MAX_VIEWS + MAX_OPERATORS


def test_the_player_pin_never_opens_the_operators_seat():
    """Finding 2: only the operator PIN opens the operator's seat (403 otherwise, not a wrong PIN)."""
    book = seats()
    with pytest.raises(JoinRefused) as refused:
        book.join("10.0.0.7", "1234", "operator")
    assert (refused.value.status, refused.value.code) == (403, "operator_pin")
    assert "operator PIN" in refused.value.message
    assert book.seat_of(book.join("10.0.0.7", "987654", "operator")) == "operator"
    assert not book.by_address  # a player PIN at the wrong seat is no wrong PIN


def test_a_taken_players_seat_is_refused_until_the_operator_frees_it():
    """Finding 2: another phone (or a PIN holder) cannot join as Ann while Ann's phone holds her seat."""
    book = seats()
    ann = book.join("10.0.0.7", "1234", "Ann")
    with pytest.raises(JoinRefused) as taken:
        book.join("10.0.0.8", "1234", "Ann")
    assert (taken.value.status, taken.value.code) == (409, "seat_taken")
    assert "ask the operator to free Ann's seat" in taken.value.message
    assert book.taken() == ["Ann"]
    assert book.free("Ann") and book.seat_of(ann) is None and book.taken() == []
    assert book.seat_of(book.join("10.0.0.8", "1234", "Ann")) == "Ann"


def test_wrong_pins_from_many_addresses_lock_everyone_out_with_a_growing_backoff():
    """Finding 3: 40 addresses cannot share the guessing; each lockout lasts twice the last."""
    from unox.web.seats import MAX_WRONG_PINS_ALL

    clock = Clock()
    book = seats(clock=clock)
    statuses = []
    for i in range(200):
        try:
            book.join(f"10.0.1.{i % 40}", f"{i:06d}", "Ann")
        except JoinRefused as refused:
            statuses.append(refused.status)
    assert statuses[:MAX_WRONG_PINS_ALL] == [401] * MAX_WRONG_PINS_ALL
    assert set(statuses[MAX_WRONG_PINS_ALL:]) == {429}
    with pytest.raises(JoinRefused) as locked:
        book.join("10.0.2.1", "1234", "Ann")  # even the right PIN waits: a guess would not be told apart
    assert "locked for 60 s" in locked.value.message
    clock.t += 61
    for i in range(MAX_WRONG_PINS_ALL):
        with pytest.raises(JoinRefused):
            book.join(f"10.0.3.{i}", f"{i:06d}", "Ann")
    with pytest.raises(JoinRefused) as longer:
        book.join("10.0.2.1", "1234", "Ann")
    assert "locked for 120 s" in longer.value.message
    clock.t += 121
    assert book.seat_of(book.join("10.0.2.1", "1234", "Ann")) == "Ann"


def test_a_six_digit_pin_outlasts_an_evening_of_guessing():
    """Finding 3: all addresses together get far fewer than 10**6 / 2 wrong PINs checked in 12 hours."""
    from unox.web.seats import MAX_LOCKOUT_S, MAX_WRONG_PINS_ALL

    clock = Clock()
    book = seats(clock=clock)
    guesses, end = 0, clock.t + 12 * 3600
    while clock.t < end:
        try:
            book.join(f"10.0.{guesses % 250}.{guesses % 7}", f"{guesses:06d}", "Bob")
            raise AssertionError("a wrong PIN was taken")
        except JoinRefused as refused:
            guesses += refused.status == 401
            clock.t += 1.0 if refused.status == 401 else max(1.0, book.everyone.until - clock.t)
    assert guesses < 12 * 3600 / MAX_LOCKOUT_S * MAX_WRONG_PINS_ALL + 200 < 10**6 / 2


def test_the_operators_sign_out_closes_the_table_view_to_the_player_pin_until_it_is_opened_again():
    """Item 2 of round two: right after the operator signed the table views out, anyone with the player PIN
    took their places back. Now the sign-out closes the table view to the player PIN (403 `views_closed`),
    the players' seats stay open, the operator PIN still opens a view, and `open_views` lets them in again."""
    book = seats()
    view = book.join("10.0.0.9", "1234", "table")
    assert book.free("table") and book.seat_of(view) is None and not book.views_open
    with pytest.raises(JoinRefused) as closed:
        book.join("10.0.0.66", "1234", "table")
    assert (closed.value.status, closed.value.code) == (403, "views_closed")
    assert "ask the operator to let table views join again" in closed.value.message
    assert [t for t, s in book.tokens.items() if s == "table"] == []  # the refused join left no token
    assert book.seat_of(book.join("10.0.0.7", "1234", "Ann")) == "Ann"
    assert book.seat_of(book.join("10.0.0.8", "987654", "table")) == "table"  # the operator's own PIN
    book.open_views()
    assert book.seat_of(book.join("10.0.0.66", "1234", "table")) == "table"


def test_checking_a_pin_takes_no_token_and_counts_a_wrong_one_like_a_join():
    """The join page checks the PIN first; that once took a table view per visit (and pushed out the TV)."""
    book = seats()
    assert book.check("10.0.0.7", "1234") == "players" and book.check("10.0.0.7", "987654") == "operator"
    assert book.tokens == {}
    for i in range(5):
        with pytest.raises(JoinRefused):
            book.check("10.0.0.7", f"000{i}")
    with pytest.raises(JoinRefused) as locked:
        book.check("10.0.0.7", "1234")
    assert locked.value.code == "locked_out"
