"""Commands read the default config file: point it at an empty folder, so the user's own stays out."""

import pytest


@pytest.fixture(autouse=True)
def no_user_config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
