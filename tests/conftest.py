"""Shared test settings and fixtures: hypothesis runs derandomised, so every run is the same."""

import pytest
from hypothesis import settings

settings.register_profile("unox", derandomize=True, deadline=None)
settings.load_profile("unox")


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
