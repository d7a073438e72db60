"""Which launcher a hardware command opens when no `--launcher` is given: never the simulator by default.

In order: the config file's `[launcher] spec`; `/dev/unox-launcher` (the name `unox install udev` gives the
Pico); the one Raspberry Pi Pico attached by USB. None of them: a LauncherError saying how to name one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from unox.launcher.base import LauncherError

DEVICE = "/dev/unox-launcher"
PICO_USB_VID = 0x2E8A  # Raspberry Pi: every Pico running MicroPython enumerates with this vendor id
HOW_TO_NAME = ("name one with --launcher serial:PORT (a Pico on USB), --launcher gpio (wired to this Pi), "
               "or --launcher sim to try without hardware")


def udev_hint() -> str:
    """How to install the udev rule, with this installation's unox by its path: sudo's PATH does not hold a
    venv's bin, so a bare `sudo unox` is "command not found" (docs/install.md gives the path too)."""
    import sys
    from pathlib import Path

    beside = Path(sys.executable).parent / "unox"
    command = str(beside.absolute()) if beside.exists() else '"$(command -v unox)"'
    return f"`sudo {command} install udev --write` names a plugged-in Pico /dev/unox-launcher"


def attached_picos() -> list[str]:
    """The serial ports of Raspberry Pi Picos on USB (by vendor id)."""
    from serial.tools import list_ports

    return sorted(port.device for port in list_ports.comports() if port.vid == PICO_USB_VID)


def configured_launcher(settings: dict, *, exists: Callable[[str], bool] = os.path.exists,
                        picos: Callable[[], Sequence[str]] = attached_picos) -> str:
    """The launcher spec to open: from the config, the udev name, or the single Pico found on USB."""
    spec = settings.get("launcher", {}).get("spec")
    if spec:
        return spec
    if exists(DEVICE):
        return f"serial:{DEVICE}"
    found = list(picos())
    if len(found) == 1:
        return f"serial:{found[0]}"
    if found:
        raise LauncherError(f"several Picos found ({', '.join(found)}): choose one with --launcher "
                            f"serial:PORT, or put it in the config file as [launcher] spec (`unox install "
                            f"udev --per-board` names each by its board: /dev/unox-launcher-<board id>)")
    raise LauncherError(f"no launcher found: no [launcher] spec in the config file, no {DEVICE} "
                        f"({udev_hint()}), no Pico on USB; {HOW_TO_NAME}")


def check_device(spec: str, exists: Callable[[str], bool] = os.path.exists) -> None:
    """`serial:/dev/unox-launcher` that is not there: the udev rule is missing or the Pico is unplugged."""
    if spec.partition("?")[0] == f"serial:{DEVICE}" and not exists(DEVICE):
        raise LauncherError(f"{DEVICE} does not exist: plug the Pico in; if it is plugged in, {udev_hint()} "
                            f"(or use --launcher serial:/dev/ttyACM0)")


def resolve(spec: str | None, settings: dict) -> str:
    """`--launcher` as given, else the configured launcher (`open_checked` checks the udev name)."""
    return spec or configured_launcher(settings)


def is_simulated(spec: str) -> bool:
    """Simulator or script: timings from these are not a real launcher's."""
    return spec.split(":", 1)[0] in ("sim", "script")

