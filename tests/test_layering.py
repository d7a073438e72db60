"""Imports flow one way: cli -> ui | web -> table -> rules/launcher/profiles; the firmware stands alone.

ui, web and the Home Assistant bridge are peer front ends over one table night: none imports another. No two
modules import each other, directly or round a circle (imports only for type checkers excepted).

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


def imported(path: Path, base: Path, *, typing_only: bool = True) -> set[str]:
    """Every absolute module name `path` imports, relative imports resolved against its package;
    `typing_only=False` leaves out the imports under `if TYPE_CHECKING:` (never run)."""
    here = module_name(path, base)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    names: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped: set[int] = set()
    if not typing_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                skipped.update(id(sub) for stmt in node.body for sub in ast.walk(stmt))
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
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


def graph(base: Path, package: str, *, typing_only: bool = True) -> dict[str, set[str]]:
    return {module_name(p, base): imported(p, base, typing_only=typing_only)
            for p in sorted((base / package).rglob("*.py"))}


# peers: each plugs into the table night, none into another
FRONT_ENDS = ("unox.ui", "unox.web", "unox.homeassistant")


def front_end(name: str) -> str | None:
    return next((f for f in FRONT_ENDS if within(name, f)), None)


def cross_front_end(modules: dict[str, set[str]]) -> list[str]:
    """The imports from one front end into another, as `importer -> imported` strings."""
    return [f"{m} -> {n}" for m, names in modules.items() for n in sorted(names)
            if front_end(m) and front_end(n) and front_end(m) != front_end(n)]


def circles(modules: dict[str, set[str]]) -> list[list[str]]:
    """Every set of modules that import each other round a circle (Tarjan's strongly connected components),
    each sorted; only imports of modules in `modules` count."""
    edges = {m: sorted(n for n in names if n in modules and n != m) for m, names in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(start: str) -> None:  # iterative, so a long chain cannot hit the recursion limit
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append((child, iter(edges[child])))
                elif child in stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for module in edges:
        if module not in index:
            visit(module)
    return sorted(found)


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


# above the table night: the CLI, the front ends and the tournament seat (docs/architecture.md, The house)
ABOVE_THE_TABLE = ("unox.cli", *FRONT_ENDS, "unox.tournament")


def upward(modules: dict[str, set[str]], layer: str) -> list[str]:
    """The imports from `layer` into anything drawn above the table night, as `importer -> imported`."""
    return [f"{m} -> {n}" for m, names in modules.items() if within(m, layer) for n in sorted(names)
            if any(within(n, above) for above in ABOVE_THE_TABLE)]


@pytest.mark.parametrize("layer", ["unox.table", "unox.launcher", "unox.profiles"])
def test_lower_layers_import_nothing_drawn_above_the_table(layer):
    modules = graph(HOST, "unox")
    assert any(within(m, layer) for m in modules), layer
    assert upward(modules, layer) == []


def test_the_upward_check_sees_the_tournament_and_home_assistant():
    """The table night must not reach up into the seat or the bridge either (it once checked only ui, web
    and cli)."""
    modules = {"unox.table.night": {"unox.tournament.seat", "unox.rules.game"},
               "unox.table.opening": {"unox.homeassistant.bridge"}, "unox.launcher.sim": {"unox.table.night"}}
    assert upward(modules, "unox.table") == ["unox.table.night -> unox.tournament.seat",
                                              "unox.table.opening -> unox.homeassistant.bridge"]
    assert upward(modules, "unox.launcher") == []


def test_no_import_circles_between_modules():
    """A circle means neither module can be understood or moved without the other (type-only imports, which
    never run, excepted)."""
    modules = graph(HOST, "unox", typing_only=False)
    assert len(modules) > 20
    assert circles(modules) == []


def test_no_front_end_imports_another():
    """The TUI, the phones and Home Assistant each drive the table night; none reaches into another."""
    modules = graph(HOST, "unox")
    assert any(front_end(m) == "unox.homeassistant" for m in modules)
    assert cross_front_end(modules) == []


def test_the_circle_and_peer_checks_catch_what_they_are_for(tmp_path):
    modules = {
        "unox.cli.commands.play": {"unox.cli.commands.serve"},
        "unox.cli.commands.serve": {"unox.cli.tournament_play"},
        "unox.cli.tournament_play": {"unox.cli.commands.play", "unox.cli.errors"},
        "unox.cli.errors": set(),
        "unox.table.journal": {"unox.table.journal_lock"},
        "unox.table.journal_lock": set(),
        "unox.homeassistant.bridge": {"unox.web.hub", "unox.table.night"},
        "unox.web.hub": {"unox.table.night", "unox.web.seats"},
        "unox.ui.app": {"unox.ui.session"},
    }
    circle = ["unox.cli.commands.play", "unox.cli.commands.serve", "unox.cli.tournament_play"]
    assert circles(modules) == [circle]
    assert cross_front_end(modules) == ["unox.homeassistant.bridge -> unox.web.hub"]
    typed = tmp_path / "unox" / "rules" / "ruleset.py"
    typed.parent.mkdir(parents=True)
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from unox.rules.game import Game\n"
              "from unox.rules.cards import Card\n")
    typed.write_text(source, encoding="utf-8")
    assert "unox.rules.game" in imported(typed, tmp_path)
    assert "unox.rules.game" not in imported(typed, tmp_path, typing_only=False)
    assert "unox.rules.cards" in imported(typed, tmp_path, typing_only=False)


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
