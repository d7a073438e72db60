"""Imports flow one way: cli -> ui | web -> table -> rules/launcher/profiles; the firmware stands alone.

ui and web are peer front ends over one table: neither imports the other.

Every module's imports are read with `ast` (including imports inside functions), so a lazy import that breaks
the layering fails here as surely as a top-level one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOST = ROOT / "host"
FIRMWARE = ROOT / "firmware"
ENTRY = "unox.__main__"  # `python -m unox`: the one module above the CLI


def module_name(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, base: Path) -> set[str]:
    """Every absolute module name `path` imports, relative imports resolved against its package."""
    here = module_name(path, base)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base_name = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base_name = node.module or ""
            names.add(base_name)
            names.update(f"{base_name}.{alias.name}" for alias in node.names)
    return names


def graph(base: Path, package: str) -> dict[str, set[str]]:
    return {module_name(p, base): imported(p, base) for p in sorted((base / package).rglob("*.py"))}


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def violations(modules: dict[str, set[str]]) -> list[str]:
    """The imports that break the one-way rule, as `importer -> imported` strings."""
    bad = []
    for module, names in modules.items():
        for name in sorted(names):
            if not within(name, "unox") or module == name:
                continue
            if within(module, "unox.rules") and not within(name, "unox.rules"):
                bad.append(f"{module} -> {name} (rules import only rules)")
            elif within(name, "unox.cli") and not (within(module, "unox.cli") or module == ENTRY):
                bad.append(f"{module} -> {name} (only unox.cli imports unox.cli)")
            elif within(name, "unox.ui") and not (within(module, "unox.ui") or within(module, "unox.cli")):
                bad.append(f"{module} -> {name} (only unox.ui and unox.cli import unox.ui)")
            elif within(name, "unox.web") and not (within(module, "unox.web") or within(module, "unox.cli")):
                bad.append(f"{module} -> {name} (only unox.web and unox.cli import unox.web)")
    return bad


def test_host_imports_flow_one_way_cli_ui_table_rules():
    modules = graph(HOST, "unox")
    assert len(modules) > 20  # the walk really found the package
    assert violations(modules) == []


@pytest.mark.parametrize("layer", ["unox.table", "unox.launcher", "unox.profiles"])
def test_lower_layers_import_neither_ui_nor_web_nor_cli(layer):
    modules = {m: names for m, names in graph(HOST, "unox").items() if within(m, layer)}
    assert modules, layer
    up = [f"{m} -> {n}" for m, names in modules.items() for n in names
          if within(n, "unox.ui") or within(n, "unox.web") or within(n, "unox.cli")]
    assert up == []


def test_firmware_imports_nothing_from_the_host_or_the_simulator():
    modules = graph(FIRMWARE, "unoxfw")
    modules["main"] = imported(FIRMWARE / "main.py", FIRMWARE)
    assert len(modules) > 1
    leaks = [f"{m} -> {n}" for m, names in modules.items() for n in names
             if within(n, "unox") or within(n, "unoxsim")]
    assert leaks == []


def test_the_checker_catches_each_kind_of_upward_import():
    """The rule itself: made-up modules that break it must be reported, ones that keep it must not."""
    modules = {
        "unox.rules.game": {"unox.table.runtime", "unox.rules.cards"},
        "unox.table.runtime": {"unox.ui.session", "unox.rules.game", "unox.launcher.base"},
        "unox.launcher.serial": {"unox.cli.errors"},
        "unox.ui.app": {"unox.table.narrate", "unox.ui.session"},
        "unox.cli.commands.play": {"unox.table.opening", "unox.cli.errors"},
        ENTRY: {"unox.cli.main"},
        "unox.simulation": {"unox.cli.progress"},
        "unox.web.hub": {"unox.ui.session", "unox.table.runtime"},
        "unox.ui.views": {"unox.web.server"},
        "unox.cli.commands.serve": {"unox.web.launch", "unox.table.opening"},
    }
    found = violations(modules)
    assert found == [
        "unox.rules.game -> unox.table.runtime (rules import only rules)",
        "unox.table.runtime -> unox.ui.session (only unox.ui and unox.cli import unox.ui)",
        "unox.launcher.serial -> unox.cli.errors (only unox.cli imports unox.cli)",
        "unox.simulation -> unox.cli.progress (only unox.cli imports unox.cli)",
        "unox.web.hub -> unox.ui.session (only unox.ui and unox.cli import unox.ui)",
        "unox.ui.views -> unox.web.server (only unox.web and unox.cli import unox.web)",
    ]


def test_relative_imports_are_resolved_to_their_package(tmp_path):
    pkg = tmp_path / "unox" / "table"
    pkg.mkdir(parents=True)
    source = pkg / "runtime.py"
    source.write_text("from ..ui import session\nfrom . import narrate\n", encoding="utf-8")
    names = imported(source, tmp_path)
    assert "unox.ui.session" in names and "unox.table.narrate" in names
