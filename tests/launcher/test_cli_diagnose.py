"""`unox diagnose`: a clean simulated launcher passes; every fault the simulator injects is named."""

from __future__ import annotations

import json

import pytest
from unox.cli.main import main
from unoxfw.settings import LIMITS
from unoxsim.device import VirtualDevice
from unoxsim.url import PARAMETERS

FAULT_PARAMS = {
    # sim:// parameter -> (value, words the report must contain)
    "jam": ("jam=1&unjam=0", ["jam"]),
    "stuck": ("stuck=1", ["stuck"]),
    "double": ("double=1", ["double"]),
    "cards": ("cards=0", ["empty"]),
    "lid": ("lid=open", ["lid is open"]),
    "battery": (f"battery={LIMITS['low_mv'][0] - 300}", ["battery", "low"]),
    "drop": ("drop=0.3", ["lost frames"]),
    "corrupt": ("corrupt=0.3", ["corrupt"]),
    "dup": ("dup=0.3", ["duplicate"]),
}


def diagnose(capsys, spec: str) -> tuple[int, dict]:
    code = main(["diagnose", "--launcher", spec, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_healthy_launcher_passes_every_check(capsys):
    code, report = diagnose(capsys, "sim:?seed=1")
    names = {c["name"] for c in report["checks"]}
    assert code == 0 and report["ok"]
    assert {"link", "firmware", "lid", "battery", "beam", "buzzer", "button", "motor"} <= names
    assert all(c["result"] == "pass" for c in report["checks"])
    [firmware] = [c["detail"] for c in report["checks"] if c["name"] == "firmware"]
    assert firmware.endswith(f", board {VirtualDevice(seed=1).board.machine.unique_id().hex()}")  # issue 22


@pytest.mark.parametrize("param", sorted(FAULT_PARAMS))
def test_every_injected_fault_is_named_and_fails(capsys, param):
    value, words = FAULT_PARAMS[param]
    code, report = diagnose(capsys, f"sim:?seed=3&{value}")
    failed = " | ".join(c["detail"] for c in report["checks"] if c["result"] == "fail")
    assert code == 1 and not report["ok"]
    assert all(word in failed for word in words), failed


ABSORBED = {"glitch": "glitch=0.05"}  # faults the firmware itself absorbs: a healthy launcher despite them


def test_every_fault_parameter_of_the_simulator_is_covered():
    behaviour = {"seed", "unjam", "drain", "bounce", "idle_step"}  # settings, not faults
    assert set(PARAMETERS) - behaviour == set(FAULT_PARAMS) | set(ABSORBED)


@pytest.mark.parametrize("param", sorted(ABSORBED))
def test_noise_the_firmware_filters_out_passes_every_check(capsys, param):
    """Issue 17 finding 4: beam glitches are not cards, so the motor check's count is still right."""
    code, report = diagnose(capsys, f"sim:?seed=3&{ABSORBED[param]}")
    assert code == 0 and report["ok"], report


def test_text_table_and_unreachable_launcher(capsys):
    code = main(["diagnose", "--launcher", "serial:/dev/ttyUNOX-none"])
    out = capsys.readouterr().out
    assert code == 1
    assert out.splitlines()[0] == "launcher: serial:/dev/ttyUNOX-none"
    assert out.splitlines()[1].startswith("link  FAIL  cannot open /dev/ttyUNOX-none")
    assert "FAILED" in out.splitlines()[-1]


def test_diagnose_prints_the_configured_battery_thresholds_not_the_defaults(tmp_path):
    """Issue 17 finding 7: with NiMH thresholds in the config, the battery row names them (it named the
    firmware's defaults), and a 3.7 V NiMH pack that is fine for them passes."""
    import subprocess
    import sys

    config = tmp_path / "config.toml"
    config.write_text("[firmware]\nlow_mv = 3450\ncrit_mv = 3100\n", encoding="utf-8")
    command = [sys.executable, "-m", "unox", "diagnose", "--launcher", "sim:?seed=1&battery=3700", "--config",
               str(config), "--json"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    report = json.loads(result.stdout)
    [battery] = [c for c in report["checks"] if c["name"] == "battery"]
    assert battery["result"] == "pass", battery
    assert "low below 3450 mV" in battery["detail"] and "refused below 3100 mV" in battery["detail"]
    assert str(LIMITS["low_mv"][0]) not in battery["detail"]


@pytest.mark.parametrize("has_link", [True, False])
def test_a_link_that_dropped_out_is_named_with_what_it_lost_on_the_way(has_link):
    """At 30 % frames dropped, the link may be down when the report is made (seed 3): the row still gives
    the counts that say why, so `drop` is named whichever way the seed falls."""
    from types import SimpleNamespace

    from unox.launcher.diagnostics import check_link
    from unox.launcher.faults import fault_action

    endpoint = SimpleNamespace(retransmits=3, duplicates=0, decoder=SimpleNamespace(errors=0))
    launcher = SimpleNamespace(link=SimpleNamespace(endpoint=endpoint)) if has_link else SimpleNamespace()
    check = check_link(launcher, SimpleNamespace(connected=False))
    assert check.result == "fail" and check.detail.startswith(fault_action("link"))
    assert ("3 retransmits (lost frames)" in check.detail) is has_link  # a direct driver has no frames
