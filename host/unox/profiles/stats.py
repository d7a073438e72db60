"""Statistics of virtual presses, to compare a profile with the measured launcher (`unox profile`)."""

from __future__ import annotations

from typing import Any

from unox.profiles.model import EjectProfile

# Enough cards that no firing is ever cut short by an empty launcher.
FULL_LAUNCHER = 112


def press_statistics(profile: EjectProfile, presses: int) -> dict[str, Any]:
    """Press `presses` times with a full launcher; shares and means as the 800-press measurement has them."""
    gaps = {str(k): 0 for k in range(1, profile.max_gap + 1)}
    cards_by_gap = dict.fromkeys(gaps, 0)
    fired_cards = firings = longest = 0
    smallest, largest = None, 0
    for _ in range(presses):
        gap = str(profile.presses_since_fire + 1)
        count = profile.next_count(FULL_LAUNCHER)
        if not profile.last_fired:
            continue
        firings += 1
        gaps[gap] += 1
        cards_by_gap[gap] += count
        fired_cards += count
        longest = max(longest, int(gap))
        smallest = count if smallest is None else min(smallest, count)
        largest = max(largest, count)
    return {
        "profile": profile.name,
        "presses": presses,
        "firings": firings,
        "cards_fired": fired_cards,
        "fire_rate": firings / presses if presses else 0.0,
        "cards_per_press_mean": fired_cards / presses if presses else 0.0,
        "cards_per_fire_mean": fired_cards / firings if firings else 0.0,
        "cards_per_fire_min": smallest or 0,
        "cards_per_fire_max": largest,
        "longest_gap": longest,
        "fire_gaps": {k: (n / firings if firings else 0.0) for k, n in gaps.items()},
        "cards_by_gap_mean": {k: (cards_by_gap[k] / n if n else 0.0) for k, n in gaps.items()},
    }
