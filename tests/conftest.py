"""Shared test settings and fixtures: hypothesis runs derandomised, so every run is the same."""

import pytest
from hypothesis import settings

settings.register_profile("unox", derandomize=True, deadline=None)
settings.load_profile("unox")


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
