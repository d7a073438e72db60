"""The wheel ships the project's packages and nothing else: `firmware/` also holds the firmware's own tests
(a top-level `tests` package in site-packages would shadow every other project's), the emulator's harness
(`emu`) and `node_modules`, none of which belong in an install. `unox firmware flash` takes its files from
`unoxfw` (tests/launcher/test_cli_firmware.py runs it from a wheel in a fresh venv)."""

from __future__ import annotations

import zipfile

from tests.wheel_venv import build_wheel

PACKAGES = {"unox", "unoxfw", "unoxsim"}


def test_the_wheel_holds_only_unox_unoxfw_and_unoxsim(tmp_path):
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as built:
        names = built.namelist()
        (top_level,) = [name for name in names if name.endswith(".dist-info/top_level.txt")]
        declared = set(built.read(top_level).decode().split())
    shipped = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert shipped == PACKAGES, sorted(shipped)
    assert declared == PACKAGES, sorted(declared)
    assert "unoxfw/main.py" in names and "unox/web/static/index.html" in names  # what runs from the wheel
