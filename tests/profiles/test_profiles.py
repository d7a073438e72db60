"""Every profile: bounds on a press, Wild Hit-Fire ends, seeds repeat, the OS's entropy by default."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from unox.profiles import PROFILE_NAMES, EjectProfile, ProfileError, get_profile
from unox.profiles.stats import press_statistics


def _counts(name, seed, presses, available):
    profile = get_profile(name, rng=random.Random(seed))
    return [profile.next_count(available) for _ in range(presses)]


@pytest.mark.parametrize("name", PROFILE_NAMES)
@given(seed=st.integers(0, 2**32), available=st.integers(0, 20))
def test_R2_never_fires_more_than_the_launcher_holds(name, seed, available):
    counts = _counts(name, seed, 60, available)
    assert all(0 <= c <= available for c in counts)
    # A8: no profile goes max_gap presses without firing, so 60 presses on a loaded launcher fire some
    assert (sum(counts) > 0) is (available > 0)


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_R2_empty_launcher_fires_nothing(name):
    assert _counts(name, 5, 500, 0) == [0] * 500


@pytest.mark.parametrize("name", PROFILE_NAMES)
@given(seed=st.integers(0, 2**32), available=st.integers(1, 112))
def test_A8_pressing_until_it_fires_always_ends(name, seed, available):
    profile = get_profile(name, rng=random.Random(seed))
    for _ in range(20):
        counts = profile.until_fire(available)
        assert 1 <= len(counts) <= profile.max_gap
        assert counts[:-1] == [0] * (len(counts) - 1)
        assert 1 <= counts[-1] <= available


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_A8_no_profile_goes_more_than_max_gap_presses_without_firing(name):
    profile = get_profile(name, rng=random.Random(3))
    run = longest = 0
    for _ in range(50_000):
        run = 0 if profile.next_count(112) else run + 1
        longest = max(longest, run)
    assert longest < profile.max_gap
    assert profile.spec.fire_hazard[-1] == 1.0


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_A8_must_fire_fires_on_this_press(name):
    profile = get_profile(name, rng=random.Random(4))
    for _ in range(200):
        assert profile.next_count(112, must_fire=True) >= 1
        assert profile.last_fired and profile.presses_since_fire == 0


def test_R2_empty_launcher_firing_still_counts_as_a_firing():
    profile = get_profile("measured", rng=random.Random(2))
    assert profile.until_fire(0)[-1] == 0
    assert profile.last_fired and profile.presses_since_fire == 0


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_same_seed_same_counts(name):
    assert _counts(name, 42, 300, 13) == _counts(name, 42, 300, 13)
    assert _counts(name, 42, 300, 13) != _counts(name, 43, 300, 13)


def test_unpredictable_by_default_uses_the_os_entropy():
    profile = get_profile("measured")
    assert isinstance(profile.rng, random.SystemRandom)


def test_negative_available_is_refused():
    with pytest.raises(ProfileError, match="0 or more"):
        get_profile("measured", rng=random.Random(1)).next_count(-1)


def test_unknown_profile_lists_the_valid_names():
    with pytest.raises(ProfileError) as info:
        get_profile("wild")
    for name in PROFILE_NAMES:
        assert name in str(info.value)


def test_arduino_flat_40_percent_of_presses_fire_nothing_bursts_of_2_to_4():
    stats = press_statistics(get_profile("arduino", rng=random.Random(8)), 100_000)
    assert stats["fire_rate"] == pytest.approx(0.60, abs=0.01)
    assert 2 <= stats["cards_per_fire_min"] and stats["cards_per_fire_max"] <= 4
    # flat: the chance to fire does not depend on the presses since the last firing
    assert stats["fire_gaps"]["2"] / stats["fire_gaps"]["1"] == pytest.approx(0.4, abs=0.02)


def _stats(name):
    return press_statistics(get_profile(name, rng=random.Random(9)), 50_000)


def test_gentle_fires_fewer_and_smaller_bursts_than_measured():
    gentle, measured = _stats("gentle"), _stats("measured")
    assert gentle["fire_rate"] < measured["fire_rate"]
    assert gentle["cards_per_fire_max"] < measured["cards_per_fire_max"]
    assert gentle["cards_per_fire_mean"] < measured["cards_per_fire_mean"] / 1.5


def test_brutal_fires_more_and_bigger_bursts_than_measured():
    brutal, measured = _stats("brutal"), _stats("measured")
    assert brutal["fire_rate"] > measured["fire_rate"]
    assert brutal["cards_per_fire_mean"] > measured["cards_per_fire_mean"]
    assert brutal["cards_per_press_mean"] > 1.5 * measured["cards_per_press_mean"]


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_gap_shares_from_the_hazard_match_the_simulated_ones(name):
    profile = get_profile(name, rng=random.Random(10))
    stats = press_statistics(profile, 100_000)
    expected = profile.spec.gap_shares()
    assert stats["fire_gaps"], "100 000 presses fired nothing"
    for gap, share in stats["fire_gaps"].items():
        assert share == pytest.approx(expected[int(gap) - 1], abs=0.01)
    assert sum(expected) == pytest.approx(1.0)


def test_reset_forgets_the_presses_since_the_last_firing():
    profile = get_profile("measured", rng=random.Random(0))
    while profile.next_count(50):
        pass
    assert profile.presses_since_fire >= 1
    profile.reset()
    assert profile.presses_since_fire == 0 and not profile.last_fired
    assert isinstance(profile, EjectProfile)
