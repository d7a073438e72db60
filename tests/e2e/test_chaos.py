"""A lossy cable: 10 % of frames dropped, 10 % corrupted and 10 % duplicated, both directions.

Over 5,000 fires every fire must happen exactly once: the firmware starts exactly one fire job per
FIRE the host meant, the beam counts what was asked, and the simulator's ground truth agrees.
`UNOX_CHAOS_FIRES=60000` runs the long soak quoted in docs/reliability.md.
"""

from __future__ import annotations

import os

from unoxsim.physics import HOPPER_CAPACITY

from .conftest import FireCounter, firmware_config

FIRES = int(os.environ.get("UNOX_CHAOS_FIRES", "5000"))
CHAOS = "drop=0.1&corrupt=0.1&dup=0.1"


def test_every_fire_happens_exactly_once_over_a_lossy_link(sim):
    # Short reverse/settle pulses only to keep the virtual run short; the link is what is under test.
    settings = firmware_config(reverse_ms=30, settle_ms=10)
    launcher = sim(f"seed=7&cards={HOPPER_CAPACITY}&{CHAOS}", config=settings)
    device = launcher.device
    counter = FireCounter(device)
    requested = fired = 0
    for i in range(FIRES):
        if device.model.hopper < 4:
            device.load_cards(HOPPER_CAPACITY - device.model.hopper)
        n = 2 if i % 10 == 0 else 1  # mostly single cards: fires are what is tested, cards cost time
        result = launcher.fire(n)
        assert result.fault is None, (i, result)
        requested += n
        fired += result.fired
    assert counter.jobs == FIRES
    assert fired == requested == device.cards_out == device.app.counted
    stats = device.cable.to_board.stats, device.cable.to_host.stats
    assert all(s["dropped"] and s["corrupted"] and s["duplicated"] for s in stats)  # the chaos was real
