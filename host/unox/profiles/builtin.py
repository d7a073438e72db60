"""The built-in eject profiles, from the measured launcher and the models other builders use."""

from __future__ import annotations

from unox.profiles.model import ProfileSpec

# docs/rules.md, "The launcher as players know it": 800 presses on a real unit.
# Share of firings by presses since the last firing, and the mean cards of those firings.
MEASURED_GAP_SHARES = (0.1796, 0.4087, 0.2415, 0.0929, 0.0774)
MEASURED_GAP_MEANS = (4.66, 5.39, 4.72, 5.07, 7.20)


def hazard_from_shares(shares: tuple[float, ...]) -> tuple[float, ...]:
    """P(fire | k presses since the last firing) that makes the gaps come out in the given shares.

    The shares are normalised first (the published ones add up to 100.01 %), so the last hazard is 1.
    """
    total = sum(shares)
    hazards, left = [], 1.0
    for share in shares[:-1]:
        hazards.append((share / total) / left)
        left -= share / total
    return (*hazards, 1.0)


MEASURED = ProfileSpec(
    name="measured",
    fire_hazard=hazard_from_shares(MEASURED_GAP_SHARES),
    card_min=1,
    card_max=13,
    card_means=MEASURED_GAP_MEANS,
    description="the real unit as measured: about 40 % of presses fire, 1-13 cards, about 5.2 a firing",
)

# An Arduino rebuild: a flat 40 % chance of nothing, otherwise the motor runs 100-200 ms. At roughly one
# card per 50 ms that is 2-4 cards. The flat chance is capped at 8 presses (0.4 ** 7 = 0.16 % of gaps get
# there) so that Wild Hit-Fire always ends.
ARDUINO = ProfileSpec(
    name="arduino",
    fire_hazard=(0.6,) * 7 + (1.0,),
    card_min=2,
    card_max=4,
    card_means=(3.0,) * 8,
    description="flat 40 % chance of nothing, otherwise a short 2-4 card burst (Arduino rebuild)",
)

GENTLE = ProfileSpec(
    name="gentle",
    fire_hazard=(0.15, 0.3, 0.45, 0.6, 1.0),
    card_min=1,
    card_max=6,
    card_means=(2.0, 2.5, 2.5, 3.0, 3.5),
    description="fewer and smaller bursts (1-6 cards), for children",
)

BRUTAL = ProfileSpec(
    name="brutal",
    fire_hazard=(0.35, 0.65, 1.0),
    card_min=3,
    card_max=13,
    card_means=(7.0, 7.5, 8.5),
    description="more and bigger bursts (3-13 cards), never more than 3 presses without firing",
)

BUILTIN = {spec.name: spec for spec in (MEASURED, ARDUINO, GENTLE, BRUTAL)}
