"""Fixtures for driver tests: gpiozero mock pins reset after each test, virtual time, a card feeder."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from unox.launcher.clock import ManualClock
from unox.launcher.gpio import GpioLauncher
from unox.launcher.gpio_pins import PINS

from .card_feeder import CardFeeder


@pytest.fixture
def mock_factory():
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


@pytest.fixture
def clock():
    return ManualClock()


def shut_lid_launcher(factory, clock, **options) -> GpioLauncher:
    """A launcher on mock pins with its lid shut (the pull-up leaves it open until driven low)."""
    launcher = GpioLauncher(factory=factory, clock=clock, **options)
    factory.pin(PINS["lid"]).drive_low()
    return launcher


@pytest.fixture
def gpio(mock_factory, clock):
    launcher = shut_lid_launcher(mock_factory, clock)
    yield launcher
    launcher.close()


@pytest.fixture
def feeder(mock_factory, clock):
    return CardFeeder(mock_factory, PINS).attach(clock)
