"""The wheel ships the project's packages and nothing else: `firmware/` also holds the firmware's own tests
(a top-level `tests` package in site-packages would shadow every other project's), the emulator's harness
(`emu`) and `node_modules`, none of which belong in an install. `unox firmware flash` takes its files from
`unoxfw` (tests/launcher/test_cli_firmware.py runs it from a wheel in a fresh venv)."""

from __future__ import annotations

import subprocess
import zipfile

from tests.wheel_venv import build_wheel, wheel_venv

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


def test_the_emulated_pico_from_a_wheel_says_it_needs_a_checkout(tmp_path):
    """The emulator's harness is not shipped: an installed unox says where the emulated Pico runs, not
    "run npm ci --prefix firmware" in a folder it does not have."""
    venv = wheel_venv(tmp_path)
    images = tmp_path / "pico"
    images.mkdir()
    for name in ("micropython-v1.28.0-RPI_PICO.uf2", "rp2040-bootrom-b1.bin"):  # present, so the harness
        (images / name).write_bytes(b"")  # is what is missing
    run = subprocess.run([str(venv / "bin" / "unox"), "simulate-device", "--pty", "--chip", "rp2040"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path,
                         env={"UNOX_PICO_DIR": str(images), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 1, run.stderr
    assert run.stderr.count("\n") == 1 and "runs from a checkout of unox" in run.stderr, run.stderr
