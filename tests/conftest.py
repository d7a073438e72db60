"""Shared test settings: hypothesis runs derandomised, so every run is the same."""

from hypothesis import settings

settings.register_profile("unox", derandomize=True, deadline=None)
settings.load_profile("unox")
