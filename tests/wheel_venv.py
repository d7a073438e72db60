"""unox as a user installs it: a wheel built from this checkout, installed into a fresh venv.

`pip wheel` builds it (with pip's build isolation: setuptools from the package index, as a user's pip
does); the venv gets the wheel alone, no editable checkout, and borrows the dependencies (pyserial,
mpremote, ...) from the test venv through a .pth line instead of downloading them again.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


LEFT_OUT = ("build", "dist", "*.egg-info", ".venv", "node_modules", ".git", "__pycache__", ".*_cache")


def build_wheel(out: Path) -> Path:
    """The unox wheel built into `out` from a copy of this checkout without its build leftovers: setuptools
    reuses `build/lib`, so a checkout built before would ship files the packaging no longer takes."""
    import shutil

    source = out / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*LEFT_OUT))
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                          str(source)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    (wheel,) = out.glob("unox-*.whl")
    return wheel


def wheel_venv(base: Path) -> Path:
    """A fresh venv with unox installed from its wheel; returns the venv's folder."""
    wheel = build_wheel(base / "dist")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    run = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                          "--no-index", "-q", str(wheel)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "unox-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv
