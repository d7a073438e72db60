"""The README's `pytest -n 4`: the emulated Pico's tests are two units of work, every other test its own."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def shared_conftest():
    spec = importlib.util.spec_from_file_location("unox_tests_conftest", ROOT / "tests" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_chip_tests_share_two_chains_and_the_others_spread():
    unit = shared_conftest().unit_of_work
    flashed = ["tests/pico/test_pico_boot.py::test_a", "tests/pico/test_pico_counting.py::test_b[1]",
               "tests/pico/test_pico_deploy.py::test_flash_then_version_on_a_freshly_booted_emulated_pico"]
    own = ["tests/pico/test_pico_cli.py::test_a", "tests/pico/test_pico_firmware_copies.py::test_b",
           "tests/pico/test_pico_identity.py::test_c"]
    assert len({unit(nodeid) for nodeid in flashed}) == 1
    assert len({unit(nodeid) for nodeid in own}) == 1
    assert unit(flashed[0]) != unit(own[0])
    assert all(unit(nodeid).startswith("tests/pico/") for nodeid in flashed + own)
    others = ["tests/rules/test_cards.py::test_a", "tests/rules/test_cards.py::test_b", "tests/picoish.py::t"]
    assert [unit(nodeid) for nodeid in others] == others


def test_every_second_chain_name_is_a_chip_test_that_exists():
    """A renamed file would silently move back to the first chain."""
    for prefix in shared_conftest().SECOND_CHAIN:
        path, _, test = prefix.partition("::")
        assert (ROOT / path).is_file(), path
        assert not test or f"def {test}" in (ROOT / path).read_text(), prefix


def test_the_scheduler_hook_builds_that_scheduler():
    pytest.importorskip("xdist")
    from xdist.scheduler import LoadScopeScheduling

    class Config:
        option = type("Option", (), {"numprocesses": 4, "tx": ["4*popen"], "maxschedchunk": None})()

        def getvalue(self, name):
            return {"tx": ["4*popen"], "numprocesses": 4, "maxschedchunk": None}.get(name)

        def getoption(self, name, default=None):
            return self.getvalue(name)

    sched = shared_conftest().pytest_xdist_make_scheduler(Config(), None)
    assert isinstance(sched, LoadScopeScheduling)
    assert sched._split_scope("tests/pico/test_pico_boot.py::test_x") == "tests/pico/chain 1"
    assert sched._split_scope("tests/web/test_api.py::test_y") == "tests/web/test_api.py::test_y"
