"""7. The API the Pico has: the firmware type-checked (mypy) against the MicroPython stubs for this board
(PyPI `micropython-rp2-rpi-pico-stubs` 1.28, with its `micropython-stdlib-stubs` as the standard library).

The firmware takes `machine` (and main.py's loop its clock, `time`) as parameters so tests can pass fakes;
on the Pico they are the built-in modules. The check therefore runs on a copy where those parameters are
the real modules (`import machine`, `import time`), so every `machine.*` and `time.*` call, and every call on
the objects they make (Pin, PWM, ADC, Timer, WDT), is checked against the stubs' signatures. Errors that
are not about the Pico's API (the CPython fallbacks beside `const`, binascii.crc_hqx on CPython) are not this
test's business; a wrong call is, and the second test shows one is caught."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
PICO_NAMES = re.compile(r"\b(machine|time|micropython|rp2|Pin|PWM|ADC|Timer|WDT|select|poll|stdin|stdout)\b")
API_CODES = {"attr-defined", "call-arg", "arg-type", "call-overload", "union-attr", "operator",
             "name-defined"}
INJECTED = [  # (file, the parameter list as written, as checked: the real module in its place)
    ("unoxfw/board.py", "def __init__(self, machine, pins, battery=None, ticks=None):",
     "def __init__(self, _machine, pins, battery=None, ticks=None):"),
    ("main.py", "def pause_watchdog(machine):", "def pause_watchdog(_machine):"),
    ("main.py", "def run(machine, clock, io, wdt):", "def run(_machine, _clock, io, wdt):\n    clock = time"),
]


def stub_dirs() -> tuple[Path, Path]:
    """(the board stubs' folder, the folder whose stdlib/ is MicroPython's standard library)."""
    for entry in map(Path, sys.path):
        if (entry / "machine.pyi").is_file() and (entry / "stdlib" / "VERSIONS").is_file():
            return entry, entry
    pytest.fail("micropython-rp2-rpi-pico-stubs is missing: pip install -e '.[test]'")


def checked_copy(into: Path, broken: str | None = None) -> Path:
    shutil.copy(FIRMWARE / "main.py", into / "main.py")
    shutil.copytree(FIRMWARE / "unoxfw", into / "unoxfw")
    for name, written, checked in INJECTED:
        path = into / name
        text = path.read_text()
        assert written in text, f"{name} no longer has `{written}`: update INJECTED"
        text = text.replace(written, checked).replace("self._machine.", "machine.")  # the module, held
        path.write_text("import machine\nimport time\n" + text)
    if broken:
        path = into / "unoxfw" / "board.py"
        path.write_text(path.read_text() + broken)
    return into


def api_errors(folder: Path) -> list[str]:
    stubs, typeshed = stub_dirs()
    mypy_path = folder / "stubs"
    mypy_path.mkdir()
    for pyi in stubs.glob("*.pyi"):  # the board's modules only: MYPYPATH must not be site-packages
        shutil.copy(pyi, mypy_path / pyi.name)
    if (stubs / "rp2").is_dir():
        shutil.copytree(stubs / "rp2", mypy_path / "rp2")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(typeshed), "--check-untyped-defs",
         "--no-incremental", "--show-error-codes", "--no-error-summary", "main.py", "unoxfw"],
        cwd=folder, capture_output=True, text=True, env={"MYPYPATH": str(mypy_path), "PATH": "/usr/bin:/bin"},
        timeout=600)
    assert result.returncode in (0, 1), result.stderr
    errors = []
    for line in result.stdout.splitlines():
        found = re.match(r"(.+?):(\d+): error: (.*)  \[([\w-]+)\]$", line)
        if not found:
            continue
        name, number, message, code = found.groups()
        source = (folder / name).read_text().splitlines()[int(number) - 1]
        if code in API_CODES and "binascii" not in message and (PICO_NAMES.search(source)
                                                               or PICO_NAMES.search(message)):
            errors.append(line)
    return errors


def test_every_machine_time_and_micropython_call_exists_on_the_pico_with_that_signature(tmp_path):
    assert api_errors(checked_copy(tmp_path)) == []


def test_a_call_the_pico_does_not_have_is_caught(tmp_path):
    broken = "\n\ndef _wrong():\n    machine.Timer(-1).init(mode=machine.Timer.ONE_SHOT, perod=5)\n"
    errors = api_errors(checked_copy(tmp_path, broken))
    broken_line = len((tmp_path / "unoxfw" / "board.py").read_text().splitlines())
    assert errors and "perod" in errors[0]
    assert all(line.startswith(f"unoxfw/board.py:{broken_line}: ") for line in errors)  # that line only
