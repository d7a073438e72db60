"""The editions: one module each, found by name. A module here that defines `RULES` (a `Ruleset`) is an
edition; `--rules NAME` picks it by `RULES.name`. Adding an edition is adding a module: nothing else lists
them.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

from unox.rules.errors import RuleError

if TYPE_CHECKING:
    from unox.rules.ruleset import Ruleset

DEFAULT_RULES = "extreme"


@cache
def _modules() -> dict[str, str]:
    """--rules name -> module name: `casting_call.py` is `casting-call`."""
    return {info.name.replace("_", "-"): info.name for info in pkgutil.iter_modules(__path__)
            if not info.name.startswith("_")}


def rule_names() -> tuple[str, ...]:
    """Every edition's name, the default first."""
    names = sorted(_modules())
    return (DEFAULT_RULES, *[n for n in names if n != DEFAULT_RULES])


@cache
def get_rules(name: str = DEFAULT_RULES) -> Ruleset:
    """The ruleset called `name`; RuleError `bad_setup` listing the editions for an unknown one."""
    module = _modules().get(name) if isinstance(name, str) else None
    if module is None:
        raise RuleError("bad_setup", f"unknown rules {name!r}: use one of {', '.join(rule_names())}")
    rules = importlib.import_module(f"{__name__}.{module}").RULES
    if rules.name != name:  # pragma: no cover - a module whose RULES.name does not match its file name
        raise RuleError("bad_setup", f"edition module {module} names itself {rules.name!r}, not {name!r}")
    return rules
