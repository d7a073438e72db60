"""Custom eject profiles from the config file: checked against bounds, with an error naming the bad value."""

import random

import pytest
from unox.profiles import ProfileError, get_profile
from unox.profiles.stats import press_statistics


def test_custom_profile_overrides_its_base():
    config = {"base": "measured", "fire_hazard": [0.5, 1.0], "cards": {"min": 2, "max": 4, "means": [3, 3.5]}}
    profile = get_profile("mine", rng=random.Random(1), config=config)
    stats = press_statistics(profile, 40_000)
    assert profile.name == "mine" and profile.max_gap == 2
    assert stats["fire_gaps"]["1"] == pytest.approx(0.5, abs=0.01)
    assert stats["fire_gaps"]["2"] == pytest.approx(0.5, abs=0.01)
    assert 2 <= stats["cards_per_fire_min"] and stats["cards_per_fire_max"] <= 4
    assert stats["cards_by_gap_mean"]["2"] == pytest.approx(3.5, abs=0.05)


def test_custom_profile_keeps_what_it_does_not_override():
    profile = get_profile("mine", rng=random.Random(1), config={"base": "brutal", "cards": {"max": 9}})
    brutal = get_profile("brutal").spec
    assert profile.spec.fire_hazard == brutal.fire_hazard
    assert profile.spec.card_min == brutal.card_min and profile.spec.card_max == 9


def test_custom_profile_single_mean_applies_to_every_gap():
    profile = get_profile("x", config={"fire_hazard": [0.3, 0.6, 1], "cards": {"means": 4}})
    assert profile.spec.card_means == (4.0, 4.0, 4.0)


def test_config_file_profiles_table_is_looked_up_by_name():
    config = {"profiles": {"kids": {"base": "gentle", "cards": {"max": 3, "means": 2}}}}
    assert get_profile("kids", config=config).spec.card_max == 3
    assert get_profile("measured", config=config).spec == get_profile("measured").spec
    with pytest.raises(ProfileError, match="kids"):
        get_profile("nope", config=config)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"fire_hazard": [0.5, 0.9]}, "last fire_hazard value must be 1.0"),
        ({"fire_hazard": [1.5, 1.0]}, r"fire_hazard\[0\] must be a number from 0.0 to 1.0"),
        ({"fire_hazard": ["a", 1.0]}, r"fire_hazard\[0\]"),
        ({"fire_hazard": []}, "list of 1 to 20"),
        ({"fire_hazard": [0.1] * 20 + [1.0]}, "list of 1 to 20"),
        ({"fire_hazard": 0.4}, "list of 1 to 20"),
        ({"cards": {"min": 0}}, "cards.min must be a whole number from 1 to 30"),
        ({"cards": {"min": 2.5}}, "cards.min"),
        ({"cards": {"min": 5, "max": 4}}, "cards.max must be a whole number from 5 to 30"),
        ({"cards": {"max": 31}}, "cards.max"),
        ({"cards": {"max": True}}, "cards.max"),
        ({"cards": {"means": [5, 5]}}, "cards.means has 2 values but fire_hazard has 5 entries"),
        ({"cards": {"means": [5]}}, "cards.means has 1 value but fire_hazard has 5 entries"),
        ({"cards": {"means": 20}}, r"cards.means\[0\] must be a number from 1 to 13"),
        ({"cards": {"max": 4}}, r"cards.means\[0\]"),
        ({"cards": [1, 2]}, "cards must be a table"),
        ({"cards": {"mean": 5}}, "unknown key 'mean'"),
        ({"base": "measured", "hazard": [1.0]}, "unknown key 'hazard'.*fire_hazard"),
        ({"base": "wild"}, "unknown base 'wild'; use one of measured, arduino, gentle, brutal"),
    ],
)
def test_bad_custom_value_gets_a_clear_error(config, message):
    with pytest.raises(ProfileError, match=message):
        get_profile("mine", config=config)


def test_a_whole_config_file_without_profiles_leaves_the_built_ins_alone():
    config = {"motor": {"duty": 0.8}, "beam": {"gap_ms": 120}}
    assert get_profile("brutal", config=config).spec == get_profile("brutal").spec
    with pytest.raises(ProfileError, match="unknown eject profile 'mine'"):
        get_profile("mine", config=config)


def test_custom_profile_must_be_a_table():
    with pytest.raises(ProfileError, match="must be a table of settings"):
        get_profile("mine", config={"profiles": {"mine": 3}})
