"""The whole tree clears ruff: lint is part of the test suite, so CI enforces it."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    result = subprocess.run([ruff, "check", str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_cli_version():
    from unox import __version__
    from unox.cli.main import main

    try:
        main(["--version"])
    except SystemExit as exit_:
        assert exit_.code == 0
    assert __version__.count(".") == 2
