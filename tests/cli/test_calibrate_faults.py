"""Item 12: every fault `unox calibrate` meets is named right, with what to do; nothing is written."""

from __future__ import annotations

import pytest

from .conftest import one_line_error

FAULTS = {
    # sim:// parameters -> (the fault named, words of its fix)
    "stuck=1": ("stuck", "pull it out, or open the lid and take it out"),
    "jam=1&unjam=0": ("stuck", "snagged or wedged: a one-card fire cannot tell"),  # docs/protocol.md
    "cards=0": ("no card came out even at 100 % duty", "load the launcher (this run fires about 14 cards)"),
    "cards=3": ("empty", "load the launcher"),
    "lid=open": ("lid", "close it"),
    "battery=3000": ("battery", "fit 3 fresh C cells"),
    # double feeds among good ones (a launcher that feeds nothing but doubles has no single to measure
    # them against: the beam alone cannot tell)
    "double=0.3": ("a double feed (2 cards came out for 1)", "fan the cards"),
}


@pytest.mark.parametrize("params", sorted(FAULTS))
def test_each_fault_is_named_with_its_fix_and_the_config_is_untouched(params, unox, tmp_path):
    path = tmp_path / "c.toml"
    done = unox("calibrate", "--launcher", f"sim:?seed=1&{params}", "--config", str(path), "--silent")
    fault, fix = FAULTS[params]
    err = one_line_error(done)
    assert "calibration stopped" in err and fault in err and fix in err
    assert "then run `unox calibrate` again" in err and "(the config file was not changed)" in err
    assert not path.exists()
