"""Shared test settings and fixtures: hypothesis runs derandomised, so every run is the same."""

import signal

import pytest
from hypothesis import settings

# A run started in the background by a shell without job control inherits SIGINT ignored, and so would every
# `unox` a test starts: Python leaves an ignored SIGINT ignored. The tests that stop `unox press` or `serve`
# with Ctrl-C would then wait for nothing, and the process left behind would hold its port for later tests.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)  # reset to the default across every exec

settings.register_profile("unox", derandomize=True, deadline=None)
settings.load_profile("unox")

CHIP_TESTS = "tests/pico/"
# The emulated Pico's tests run as two chains of about equal length (measured with --durations). The second
# holds the tests that boot chips of their own (a fresh flash, a wheel, `simulate-device --chip`) and some
# that boot the session's image; each chain pays the session's one flash on its own worker.
SECOND_CHAIN = tuple(CHIP_TESTS + name for name in (
    "test_pico_api.py", "test_pico_cli.py", "test_pico_commands.py", "test_pico_fastpath.py",
    "test_pico_firmware_copies.py", "test_pico_images.py", "test_pico_identity.py", "test_pico_emulator.py",
    "test_pico_safety.py", "test_pico_link_fast.py", "test_pico_determinism.py",
))


def unit_of_work(nodeid: str) -> str:
    """What pytest-xdist hands a worker at once: one test, or one of the emulated Pico's two chains."""
    if not nodeid.startswith(CHIP_TESTS):
        return nodeid
    return CHIP_TESTS + ("chain 2" if nodeid.startswith(SECOND_CHAIN) else "chain 1")


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: unknown (and unused) without it
def pytest_xdist_make_scheduler(config, log):
    """`pytest -n N` (the README's command): every test a unit of work of its own, shared out as workers
    free up, except the emulated Pico's, which run as two chains on two workers, from the start: the chip
    tests are the suite's longest part, and as one chain they outlasted everything else by minutes. Within
    a chain one flash serves every test. (pytest-xdist's `xdist_group` marks would say the same, but its
    `loadgroup` does not see them under pytest 9.2.)"""
    from xdist.scheduler import LoadScopeScheduling

    class ChipChains(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of_work(nodeid)

    return ChipChains(config, log)


@pytest.fixture(autouse=True)
def _no_browsers_event_loop(request):
    """Playwright's sync API (the browser tests' session-wide `browser`) keeps its event loop marked as
    running in this thread while Chromium is open, so a later test in the same process that calls
    `asyncio.run` (textual's `run_test`) or opens Playwright again would be refused. Which tests share a
    process depends on the order and on pytest-xdist's workers: each test that does not use `browser` runs
    with no loop running, as it would alone."""
    import asyncio.events

    running = asyncio.events._get_running_loop()
    if running is None or "browser" in request.fixturenames:
        yield
        return
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(running)


@pytest.fixture(scope="session", autouse=True)
def _state_home(tmp_path_factory):
    """Journals a test makes by default go to a folder of the run's own, never the user's
    ~/.local/state/unox (tests that need their own set XDG_STATE_HOME again)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
        yield


@pytest.fixture
def sim():
    """`sim("seed=1&jam=1", config=...)` opens a simulated launcher; all are closed after the test."""
    from unox.launcher import open_launcher

    opened = []

    def make(params: str = "seed=1", **options):
        launcher = open_launcher(f"sim:?{params}", **options)
        opened.append(launcher)
        return launcher

    yield make
    for launcher in opened:
        launcher.close()


@pytest.fixture
def one_line_error(capsys):
    """Reads a user error: nothing on stdout, exactly one line on stderr, in the CLI's error form."""

    def read() -> str:
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("unox: error: ") and err.count("\n") == 1, err
        return err

    return read


@pytest.fixture
def read_only():
    """`with read_only(path):` makes a file or folder refuse writes, even to root (who ignores mode
    bits): `chattr +i` as root (skipped, saying why, where the file system has no immutable flag), chmod
    otherwise."""
    import contextlib
    import os
    import subprocess

    @contextlib.contextmanager
    def make(path):
        if os.geteuid() != 0:
            path.chmod(0o555 if path.is_dir() else 0o444)
            try:
                yield path
            finally:
                path.chmod(0o755 if path.is_dir() else 0o644)
            return
        if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
            pytest.skip("root, and chattr +i is not available here: the file system cannot refuse a write")
        try:
            yield path
        finally:
            subprocess.run(["chattr", "-i", str(path)], capture_output=True)

    return make
