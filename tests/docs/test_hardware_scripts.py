"""docs/hardware.md's commands run (item 15): the pin and wiring scripts; a clear word without schemdraw."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def doc_scripts() -> list[str]:
    text = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S).group(1)
    return [part.strip() for part in block.split("&&") if "hardware/" in part]


def test_the_documented_scripts_run_and_find_the_checked_in_files_fresh():
    scripts = doc_scripts()
    assert [s.split()[-1] for s in scripts] == ["hardware/gen_pins.py", "hardware/draw_wiring.py"]
    for script in scripts:
        path = script.split()[-1]
        done = subprocess.run([sys.executable, path, "--check"], cwd=ROOT, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, f"{script} --check: {done.stdout}{done.stderr}"


def test_draw_wiring_without_schemdraw_says_what_to_install():
    code = ("import runpy, sys; sys.modules['schemdraw'] = None; "
            "runpy.run_path('hardware/draw_wiring.py', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "needs schemdraw" in done.stderr and "pip install -e '.[test]'" in done.stderr
