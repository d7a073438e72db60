"""Issue 26 item 19: the docs and the code cite only what a clone has. Every rule ID they name is written
in docs/rules.md (and its siblings); the team's background files outside the repository (the rule texts,
the architecture, style and pitfalls notes, the Pico images' README) are never cited, nor any path above
the checkout."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(
    r"RULES-(?:extreme|editions)\.md|\bARCHITECTURE\.md|\bSTYLE\.md|\bPITFALLS\b|shared/pico/README|"
    r"\.\./shared\b|/work/shared\b|\bseeds/\d{3}_"
)
SUFFIXES = {".md", ".py", ".js", ".toml", ".txt", ".html", ".css", ".sh", ".cfg"}


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / name for name in listed.stdout.splitlines()
            if Path(name).suffix in SUFFIXES and not name.startswith("firmware/node_modules")]


def test_the_scan_reads_the_docs_and_the_code():
    names = {path.relative_to(ROOT).as_posix() for path in tracked_files()}
    assert {"README.md", "docs/rules.md", "docs/pico.md", "host/unox/rules/editions/classic.py"} <= names


def test_no_file_cites_one_outside_the_repository():
    found = []
    for path in tracked_files():
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert found == []


TEST_ID = re.compile(r"def test_(?:(C|BA|MK|CC)_)?(2P\d|DL\d|[A-Z]{1,2}\d{1,2})_")


@pytest.mark.parametrize("folder", ["tests/rules", "tests/editions"])
def test_every_rule_id_a_test_names_is_written_in_the_docs(folder):
    """`test_C_A1_...` covers C-A1: the ID is in the repository's own rules, not only in a team file."""
    docs = "\n".join(path.read_text() for path in (ROOT / "docs").glob("*.md"))
    named = {f"{edition}-{rule}" if edition else rule for path in (ROOT / folder).rglob("*.py")
             for edition, rule in TEST_ID.findall(path.read_text())}
    missing = sorted(rule for rule in named if not re.search(rf"(?<![\w-]){re.escape(rule)}(?!\w)", docs))
    assert named and missing == []


def test_the_pico_tests_say_why_they_skipped_without_rs(tmp_path):
    """Without the images the emulated Pico's tests skip; the reason ends the output even without -rs."""
    import os
    import sys

    env = {**os.environ, "UNOX_PICO_DIR": str(tmp_path)}
    env.pop("UNOX_PICO_REQUIRED", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "tests/pico/test_pico_deploy.py"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "skipped" in done.stdout.splitlines()[-1], done.stdout
    assert f"tests/pico skipped: {tmp_path} lacks micropython-v1.28.0-RPI_PICO.uf2" in done.stdout
    assert "docs/pico.md" in done.stdout
