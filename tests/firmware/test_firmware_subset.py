"""The firmware stays in the MicroPython subset the team agreed on: no dataclasses, no typing at runtime,
no CPython-only modules.

MicroPython itself judges what it can run (test_micropython.py); these checks catch what it would run but
we refuse: docstrings (RAM), annotations, f-strings with `=`, imports outside the allowed set, `machine`
outside main.py, and const() on public names (no RAM saving).
"""

import ast
import re
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
SOURCES = sorted((FIRMWARE / "unoxfw").glob("*.py")) + [FIRMWARE / "main.py"]
ALLOWED = {"micropython", "select", "sys", "time", "gc", "binascii", "array", "unoxfw"}  # built into rp2
FSTRING_DEBUG = re.compile(r"""f(["']).*\{[^{}:!]*=\s*(![rsa])?(:[^{}]*)?\}.*\1""")


def ids(paths):
    return [p.name for p in paths]


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_no_docstrings_and_no_annotations(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
            assert ast.get_docstring(node) is None, f"{path.name}: use comments, not docstrings"
        if isinstance(node, ast.FunctionDef):
            annotated = [a for a in node.args.args + node.args.kwonlyargs if a.annotation] or node.returns
            assert not annotated, f"{path.name}:{node.lineno}: no annotations in firmware"
        assert not isinstance(node, ast.AnnAssign), f"{path.name}:{node.lineno}: no annotations"


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_imports_stay_in_the_micropython_set(path):
    allowed = ALLOWED | ({"machine"} if path.name == "main.py" else set())
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        for name in names:
            assert name.split(".")[0] in allowed, f"{path.name} imports {name}"


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_no_fstring_debug_specifier(path):
    for number, line in enumerate(path.read_text().splitlines(), 1):
        assert not FSTRING_DEBUG.search(line), f"{path.name}:{number}: f-string with '='"


def test_fstring_debug_pattern_catches_what_it_must():
    assert FSTRING_DEBUG.search('x = f"{value=}"')
    assert FSTRING_DEBUG.search("x = f'{value = !r:>4}'")
    assert not FSTRING_DEBUG.search('x = f"{seq:02X} {kind}"')
    assert not FSTRING_DEBUG.search('x = "{a=}"')


@pytest.mark.parametrize("path", SOURCES, ids=ids(SOURCES))
def test_const_only_on_private_names(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            if isinstance(func, ast.Name) and func.id == "const":
                for target in node.targets:
                    assert isinstance(target, ast.Name) and target.id.startswith("_"), (
                        f"{path.name}:{node.lineno}: const() saves RAM only on _PRIVATE names"
                    )
