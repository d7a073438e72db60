"""`--launcher` values: every documented form opens its driver; anything else lists the valid forms."""

from __future__ import annotations

import pytest
import unoxfw
from unox.launcher import SPEC_FORMS, LauncherError, open_launcher, parse_spec
from unox.launcher.gpio import GpioLauncher
from unox.launcher.script import ScriptLauncher
from unox.launcher.serial import SerialLauncher
from unox.launcher.sim import SimLauncher


@pytest.mark.parametrize(
    "spec,expected",
    [
        ("sim", ("sim", "", {})),
        ("sim:?jam=0.05&seed=1", ("sim", "", {"jam": "0.05", "seed": "1"})),
        ("script", ("script", "", {})),
        ("serial:/dev/ttyACM0", ("serial", "/dev/ttyACM0", {})),
        ("gpio", ("gpio", "", {})),
        ("gpio:?factory=rpigpio", ("gpio", "", {"factory": "rpigpio"})),
    ],
)
def test_documented_forms_parse(spec, expected):
    assert parse_spec(spec) == expected


@pytest.mark.parametrize(
    "spec",
    ["usb", "serial", "serial:", "sim:/tmp/x", "gpio:?factory=pigpio", "gpio:?pin=3", "script:?x=1", ""],
)
def test_bad_specs_list_every_valid_form(spec):
    with pytest.raises(ValueError) as err:
        parse_spec(spec)
    assert all(form in str(err.value) for form in SPEC_FORMS)


def test_each_kind_opens_its_driver():
    script = open_launcher("script", presses=1)
    assert isinstance(script, ScriptLauncher) and script.wait_press(0)
    sim = open_launcher("sim:?seed=2")
    try:
        assert isinstance(sim, SimLauncher) and isinstance(sim, SerialLauncher)
        assert sim.status().firmware == unoxfw.__version__  # the HELLO came from the real firmware
    finally:
        sim.close()
    gpio = open_launcher("gpio:?factory=mock")
    try:
        assert isinstance(gpio, GpioLauncher)
    finally:
        gpio.close()
        gpio.pin_factory.reset()


def test_bad_simulator_parameter_names_it():
    with pytest.raises(LauncherError, match="bad simulator parameter.*'warp'"):
        open_launcher("sim:?warp=9")


def test_missing_serial_port_is_a_clear_error_naming_it():
    with pytest.raises(LauncherError) as err:
        open_launcher("serial:/dev/ttyUNOX-missing")
    message = str(err.value)
    assert "cannot open /dev/ttyUNOX-missing" in message and "USB cable" in message
    assert "unox firmware flash --port /dev/ttyUNOX-missing" in message
