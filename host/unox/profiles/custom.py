"""Custom eject profiles from the config file, checked once against bounds (unknown keys are errors).

A custom profile is a plain dict, as the TOML config loader gives it:
`{"base": "measured", "fire_hazard": [0.2, 0.5, 1.0], "cards": {"min": 1, "max": 13, "means": 5}}`.
Every key but `base` is optional and overrides the base profile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from unox.profiles.builtin import BUILTIN
from unox.profiles.model import ProfileError, ProfileSpec
from unox.words import counted

PROFILE_KEYS = ("base", "fire_hazard", "cards", "description")
CARD_KEYS = ("min", "max", "means")
MAX_GAP_LIMIT = 20
CARD_LIMIT = 30


def _number(value: Any, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ProfileError(f"{what} must be a number from {low} to {high}, not {value!r}")
    return float(value)


def _integer(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProfileError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _unknown(given: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    extra = sorted(set(given) - set(allowed))
    if extra:
        raise ProfileError(f"unknown key {extra[0]!r} in {where}; use only {', '.join(allowed)}")


def _hazard(value: Any, name: str) -> tuple[float, ...]:
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_GAP_LIMIT:
        raise ProfileError(f"profile {name!r}: fire_hazard must be a list of 1 to {MAX_GAP_LIMIT} chances")
    hazard = tuple(_number(h, f"profile {name!r}: fire_hazard[{i}]", 0.0, 1.0) for i, h in enumerate(value))
    if hazard[-1] != 1.0:
        raise ProfileError(
            f"profile {name!r}: the last fire_hazard value must be 1.0, so that pressing until the launcher"
            f" fires (Wild Hit-Fire) always ends; got {hazard[-1]}"
        )
    return hazard


def _cards(value: Mapping[str, Any], spec: ProfileSpec) -> ProfileSpec:
    name = spec.name
    _unknown(value, CARD_KEYS, f"profile {name!r} cards")
    low = _integer(value.get("min", spec.card_min), f"profile {name!r}: cards.min", 1, CARD_LIMIT)
    high = _integer(value.get("max", spec.card_max), f"profile {name!r}: cards.max", low, CARD_LIMIT)
    means = value.get("means", spec.card_means)
    if not isinstance(means, list | tuple):
        means = [means] * spec.max_gap
    if len(means) != spec.max_gap:
        raise ProfileError(
            f"profile {name!r}: cards.means has {counted(len(means), 'value')} but fire_hazard has "
            f"{counted(spec.max_gap, 'entry', 'entries')};"
            " give one mean per fire_hazard entry, or a single number"
        )
    checked = tuple(_number(m, f"profile {name!r}: cards.means[{i}]", low, high) for i, m in enumerate(means))
    return replace(spec, card_min=low, card_max=high, card_means=checked)


def custom_spec(name: str, definition: Mapping[str, Any]) -> ProfileSpec:
    """Build and check a custom profile; raises ProfileError naming the bad value and its bounds."""
    if not isinstance(definition, Mapping):
        raise ProfileError(f"profile {name!r} must be a table of settings, not {type(definition).__name__}")
    _unknown(definition, PROFILE_KEYS, f"profile {name!r}")
    base_name = definition.get("base", name if name in BUILTIN else "measured")
    if base_name not in BUILTIN:
        raise ProfileError(f"profile {name!r}: unknown base {base_name!r}; use one of {', '.join(BUILTIN)}")
    base = BUILTIN[base_name]
    description = str(definition.get("description", f"custom, from {base_name}"))
    spec = replace(base, name=name, description=description)
    if "fire_hazard" in definition:
        spec = replace(spec, fire_hazard=_hazard(definition["fire_hazard"], name))
    cards = definition.get("cards", {})
    if not isinstance(cards, Mapping):
        raise ProfileError(f"profile {name!r}: cards must be a table with keys {', '.join(CARD_KEYS)}")
    if "fire_hazard" in definition and "means" not in cards and spec.max_gap != base.max_gap:
        cards = {**cards, "means": sum(base.card_means) / len(base.card_means)}
    return _cards(cards, spec)
