"""Every simulated game ends, whatever the seed, the player count (2-10) and the bots.

The safety cap is generous (about 15 times the longest game seen) and reaching it raises, so a game that
never ends fails the test instead of stopping quietly.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from unox.simulation import MAX_ACTIONS, SimulationError, play_game, seat_bots


@settings(max_examples=60)
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(2, 10),
    bot=st.sampled_from(["heuristic", "mix"]),
    profile=st.sampled_from(["measured", "arduino", "gentle", "brutal"]),
    scoring=st.sampled_from(["g1", "g2", "g3"]),
)
def test_every_game_ends_with_one_winner(seed, players, bot, profile, scoring):
    record = play_game(seed, seat_bots(bot, players, seed % 2), profile=profile, scoring=scoring)
    assert 1 <= record.winner_seat <= players
    assert record.hands >= 1 and record.actions <= MAX_ACTIONS


@settings(max_examples=12)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 10))
def test_every_game_of_uniform_random_bots_ends(seed, players):
    """Random bots press as often as they play a given card, so their hands run long: a short target."""
    record = play_game(seed, ["random"] * players, target=100)
    assert 1 <= record.winner_seat <= players


def test_a_game_over_the_cap_is_a_failure_not_a_pass():
    with pytest.raises(SimulationError, match="did not end within 50 actions"):
        play_game(1, ["random"] * 4, max_actions=50)
