"""Fixtures for the firmware tests under CPython: the fake `machine` and the rig from firmware/tests.

They are loaded by path under private names, so no global `machine` module leaks into other tests.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

FW_TESTS = Path(__file__).resolve().parents[2] / "firmware" / "tests"


def _load(name: str, filename: str):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, FW_TESTS / filename)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def fake_machine():
    module = _load("unoxfw_test_machine", "machine.py")
    module.reset_all()
    return module


@pytest.fixture
def make_rig(fake_machine):
    rig_module = _load("unoxfw_test_rig", "rig.py")

    def make(**options):
        return rig_module.Rig(fake_machine, **options)

    return make
