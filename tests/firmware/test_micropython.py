"""The firmware runs under the real MicroPython interpreter (WebAssembly port, run by Node).

firmware/tests/run_mp.mjs loads unoxfw and a fake `machine` into MicroPython and runs the unittest tests in
firmware/tests/. Code MicroPython cannot run must make these tests fail, and the last tests prove they do.
Set up with `npm ci --prefix firmware` (CI does).
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
RUNNER = FIRMWARE / "tests" / "run_mp.mjs"
PACKAGE = FIRMWARE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def run_mp(*args: str) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    if node is None or not PACKAGE.exists():
        pytest.fail("MicroPython for Node is missing: install Node 20 and run `npm ci --prefix firmware`")
    return subprocess.run([node, str(RUNNER), *args], capture_output=True, text=True, timeout=300)


def test_firmware_unittests_pass_under_micropython():
    result = run_mp()
    assert result.returncode == 0, result.stdout + result.stderr
    summary = re.search(r"mp-unittest: (\d+) passed, (\d+) failed", result.stdout)
    assert summary, result.stdout
    assert int(summary.group(1)) >= 10 and summary.group(2) == "0"


def test_crc_check_value_under_micropython(tmp_path):
    script = tmp_path / "crc.py"
    script.write_text(
        "import sys\nfrom unoxfw.link import crc16\n"
        "print('impl', sys.implementation.name)\nprint('crc %04X' % crc16(b'123456789'))\n"
    )
    result = run_mp("--exec", str(script))
    assert result.returncode == 0, result.stderr
    assert "impl micropython" in result.stdout
    assert "crc 29B1" in result.stdout


def copy_firmware(tmp_path: Path) -> Path:
    target = tmp_path / "unoxfw"
    shutil.copytree(FIRMWARE / "unoxfw", target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_runner_fails_when_the_firmware_uses_what_micropython_lacks(tmp_path):
    fw = copy_firmware(tmp_path)
    link = fw / "link.py"
    link.write_text("from dataclasses import dataclass\n" + link.read_text())
    result = run_mp("--fw", str(fw))
    assert result.returncode != 0
    assert "dataclasses" in result.stdout + result.stderr


def test_runner_fails_when_a_firmware_test_fails(tmp_path):
    tests = tmp_path / "tests"
    shutil.copytree(FIRMWARE / "tests", tests, ignore=shutil.ignore_patterns("__pycache__"))
    (tests / "test_zz_broken.py").write_text(
        "import unittest\n\n\nclass T(unittest.TestCase):\n"
        "    def test_no(self):\n        self.assertEqual(1, 2)\n"
    )
    result = run_mp("--tests", str(tests))
    assert result.returncode != 0
    assert re.search(r"mp-unittest: \d+ passed, 1 failed", result.stdout)


def test_runner_fails_when_a_firmware_module_breaks_at_import(tmp_path):
    fw = copy_firmware(tmp_path)
    (fw / "signals.py").write_text((fw / "signals.py").read_text() + "\nimport typing\n")
    result = run_mp("--fw", str(fw), "--only", "test_app")
    assert result.returncode != 0
    assert "typing" in result.stdout + result.stderr
