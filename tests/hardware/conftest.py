"""The hardware scripts are plain scripts in hardware/, not a package: load them by path."""

import importlib.util
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(f"unox_test_{name}", HARDWARE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def gen_pins():
    return load_script("gen_pins")


@pytest.fixture(scope="session")
def draw_wiring():
    return load_script("draw_wiring")


@pytest.fixture()
def pin_map():
    """pins.toml parsed directly with tomllib: the expectations never come from the code under test."""
    return tomllib.loads((HARDWARE / "pins.toml").read_text(encoding="utf-8"))
