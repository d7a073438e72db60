"""The whole tree clears ruff, and the CLI answers --version: CI enforces both."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_clean():
    beside = Path(sys.executable).with_name("ruff")  # the ruff of this environment first
    ruff = str(beside) if beside.exists() else shutil.which("ruff")
    assert ruff, "ruff is missing: pip install -e '.[test]'"
    result = subprocess.run([ruff, "check", str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_cli_version_matches_package(capsys):
    from unox import __version__
    from unox.cli.main import main

    assert main(["--version"]) == 0  # answered before argparse is even imported (bench/cli.py)
    assert capsys.readouterr().out.strip() == f"unox {__version__}"


def test_cli_without_command_is_a_usage_error(capsys):
    from unox.cli.main import main

    assert main([]) == 2
    assert "usage: unox" in capsys.readouterr().out
