"""Item 11: the configured launcher, in order: the config's spec, /dev/unox-launcher, the one Pico on USB."""

from __future__ import annotations

import pytest
from unox.launcher import LauncherError
from unox.launcher.configured import DEVICE, check_device, configured_launcher, is_simulated


def never(path: str) -> bool:
    return False


def test_the_config_file_names_it_first():
    settings = {"launcher": {"spec": "gpio"}}
    assert configured_launcher(settings, exists=lambda p: True, picos=lambda: ["/dev/ttyACM0"]) == "gpio"


def test_then_the_udev_name():
    assert configured_launcher({}, exists=lambda p: p == DEVICE, picos=lambda: []) == f"serial:{DEVICE}"


def test_then_the_one_pico_found_by_usb_id():
    assert configured_launcher({}, exists=never, picos=lambda: ["/dev/ttyACM3"]) == "serial:/dev/ttyACM3"


def test_several_picos_ask_to_choose_one():
    with pytest.raises(LauncherError, match=r"several Picos found \(/dev/ttyACM0, /dev/ttyACM1\)"):
        configured_launcher({}, exists=never, picos=lambda: ["/dev/ttyACM0", "/dev/ttyACM1"])


def test_nothing_found_never_means_the_simulator():
    with pytest.raises(LauncherError, match="no launcher found") as info:
        configured_launcher({}, exists=never, picos=lambda: [])
    assert "--launcher sim to try without hardware" in str(info.value)


def test_only_the_udev_name_gets_the_udev_hint():
    check_device("serial:/dev/ttyACM0", exists=never)  # another port: the driver's own message says it
    with pytest.raises(LauncherError, match="unox install udev"):
        check_device("serial:/dev/unox-launcher", exists=never)
    assert is_simulated("sim:?seed=1") and is_simulated("script") and not is_simulated("gpio")
