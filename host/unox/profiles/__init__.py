"""Eject profiles: how many cards one press of the launcher fires. Pure; every launcher driver shares them.

    profile = get_profile("measured", rng=random.Random(7))
    profile.next_count(available=40)   # 0 = nothing fired

`rng=None` draws from the OS's entropy (`random.SystemRandom`), so a real table is unpredictable.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from unox.profiles.builtin import BUILTIN
from unox.profiles.custom import PROFILE_KEYS, custom_spec
from unox.profiles.model import EjectProfile, ProfileError, ProfileSpec

PROFILE_NAMES = ("measured", "arduino", "gentle", "brutal")
DEFAULT_PROFILE = "measured"

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILE_NAMES",
    "EjectProfile",
    "ProfileError",
    "ProfileSpec",
    "get_profile",
    "get_spec",
]


def _custom_definition(name: str, config: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The definition of `name` in `config`, which is either one profile's table (it has a key such as
    `base` or `fire_hazard`) or a whole config file, whose `[profiles.NAME]` tables are looked up."""
    if any(key in config for key in PROFILE_KEYS):
        return config
    profiles = config.get("profiles")
    if isinstance(profiles, Mapping):
        return profiles.get(name)
    return None


def get_spec(name: str, config: Mapping[str, Any] | None = None) -> ProfileSpec:
    """The checked parameters of a built-in or custom profile; raises ProfileError listing valid names."""
    definition = _custom_definition(name, config) if config is not None else None
    if definition is not None:
        return custom_spec(name, definition)
    if name in BUILTIN:
        return BUILTIN[name]
    custom = sorted(config["profiles"]) if config and isinstance(config.get("profiles"), Mapping) else []
    raise ProfileError(f"unknown eject profile {name!r}; use one of {', '.join([*PROFILE_NAMES, *custom])}")


def get_profile(
    name: str = DEFAULT_PROFILE, *, rng: random.Random | None = None, config: Mapping[str, Any] | None = None
) -> EjectProfile:
    """A fresh profile with its own press memory; `config`: a custom profile dict, or `{"profiles": ...}`."""
    return EjectProfile(get_spec(name, config), rng)
