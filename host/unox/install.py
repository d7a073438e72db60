"""The Raspberry Pi's system files: a systemd unit that starts unox at boot and a udev rule for the Pico.

Library first: these functions return the text and the commands to run next; `unox install` only prints
or writes them. Everything that goes into a file is checked first, so a user name or a launcher spec can
never smuggle an extra line into a unit that runs at boot.
"""

from __future__ import annotations

import getpass
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

SERVICE_PATH = Path("etc/systemd/system/unox.service")
UDEV_PATH = Path("etc/udev/rules.d/99-unox.rules")
DEVICE_NAME = "unox-launcher"
DEFAULT_LAUNCHER = f"serial:/dev/{DEVICE_NAME}"
MODES = ("press", "play")
# The Raspberry Pi Pico running MicroPython enumerates as USB CDC 2e8a:0005.
PICO_VID = "2e8a"
PICO_MICROPYTHON_PID = "0005"
LAUNCHER_KINDS = ("sim", "script", "serial", "gpio")
# Play mode keeps its table here: systemd creates /var/lib/unox for the service user (StateDirectory=unox).
STATE_DIRECTORY = "unox"
TABLE_JOURNAL = f"/var/lib/{STATE_DIRECTORY}/table.db"
# Open files for the service: unox serve caps its sockets below whatever limit it gets (docs/web.md).
OPEN_FILES = 8192
# The devices the service may open besides /dev/null and its kin: the Pico's USB serial (ttyACM, whatever
# its node is after a replug) and the Pi's GPIO chips; play mode adds its console.
LAUNCHER_DEVICES = ("char-ttyACM rw", "char-gpiochip rw", "/dev/gpiomem rw")

_USER = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
_SERIAL_NUMBER = re.compile(r"[0-9A-Za-z]{1,64}")
_UNSAFE = re.compile(r"[\x00-\x1f\x7f]")


class InstallError(ValueError):
    """A value that cannot go into a system file, or a file that cannot be written; says what to do."""


def unox_command() -> str:
    """The absolute path of the `unox` script of this installation (the venv's, when run from one)."""
    beside = Path(sys.executable).parent / "unox"
    if beside.exists():
        return str(beside.absolute())
    found = shutil.which("unox")
    if found:
        return str(Path(found).absolute())
    raise InstallError("cannot find the unox command; pip install unox into a venv, or pass --unox PATH")


def default_user() -> str:
    """The person who ran `sudo unox install ...`, not root: the service should not run as root."""
    return os.environ.get("SUDO_USER") or getpass.getuser()


def check_user(user: str) -> str:
    if not _USER.fullmatch(user):
        raise InstallError(f"user {user!r} is not a valid Linux user name; pass --user with your login")
    if user == "root":
        raise InstallError("the service should not run as root; pass --user with your login (e.g. --user pi)")
    return user


def check_launcher(spec: str) -> str:
    """A light check of an --launcher spec (the launcher itself checks its options when it opens)."""
    kind = spec.split(":", 1)[0]
    if _UNSAFE.search(spec) or kind not in LAUNCHER_KINDS:
        raise InstallError(
            f"launcher {spec!r} is not one of sim, script, serial:PORT, gpio; "
            f"e.g. --launcher {DEFAULT_LAUNCHER}"
        )
    if kind == "serial" and not spec.partition(":")[2].startswith("/"):
        raise InstallError(f"launcher {spec!r} needs an absolute port, e.g. serial:/dev/{DEVICE_NAME}")
    return spec


def systemd_quote(word: str) -> str:
    """Quote one ExecStart word: systemd expands % specifiers and $ variables, and splits on spaces."""
    if _UNSAFE.search(word):
        raise InstallError(f"{word!r} contains a control character; remove it")
    word = word.replace("%", "%%").replace("$", "$$")
    if word and not re.search(r"[\s\"'\\;]", word):
        return word
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def systemd_escape_path(path: str) -> str:
    """The unit name systemd gives a path, like `systemd-escape --path`: /dev/a-b -> dev-a\\x2db."""
    parts = [part for part in path.split("/") if part]
    escaped = []
    for part in parts:
        chars = []
        for index, char in enumerate(part):
            keep = char.isascii() and (char.isalnum() or char in ":_" or (char == "." and index > 0))
            chars.append(char if keep else "".join(f"\\x{byte:02x}" for byte in char.encode()))
        escaped.append("".join(chars))
    return "-".join(escaped) or "-"


def device_unit(launcher: str) -> str | None:
    """The systemd device unit a serial launcher needs, so the service starts once the Pico is there."""
    kind, _, rest = launcher.partition(":")
    if kind != "serial":
        return None
    return systemd_escape_path(rest.split("?", 1)[0]) + ".device"


def exec_start(
    mode: str, launcher: str, *, unox: str, players: str | None = None, config: str | None = None,
    min_gap: float | None = None, suspense: float | None = None,
    web_pin: str | None = None,
) -> list[str]:
    """The words of the service's command line; `min_gap` and `suspense` (seconds) are press mode's."""
    if mode not in MODES:
        raise InstallError(f"mode {mode!r} is not one of {', '.join(MODES)}; use --mode press or --mode play")
    words = [unox, mode, "--launcher", check_launcher(launcher)]
    if mode == "play" and players is None:
        raise InstallError(
            "--mode play needs the seats: add --players Ann,Bob,Cy (a new table starts with them whenever "
            "no game is in progress)"
        )
    if players is not None:
        if mode != "play":
            raise InstallError("--players only applies to --mode play")
        words += ["--players", players]
    if mode == "play":  # the same table after any restart or power cut; a new one once the game is over
        words += ["--continue", TABLE_JOURNAL]
    for flag, seconds in (("--min-gap", min_gap), ("--suspense", suspense)):
        if seconds is None:
            continue
        if mode != "press":
            raise InstallError(f"{flag} only applies to --mode press")
        words += [flag, f"{seconds:g}"]
    if config is not None:
        words += ["--config", config]
    if web_pin is not None:  # phones too (docs/web.md); the UI covers the console, so the PIN is fixed
        if mode != "play":
            raise InstallError("--web only applies to --mode play: phones join the table the service keeps")
        if not (web_pin.isascii() and web_pin.isdigit() and 4 <= len(web_pin) <= 12):
            raise InstallError(f"--web {web_pin!r}: give the PIN phones type, 4 to 12 digits: --web 2468")
        words += ["--web", "--pin", web_pin]
    return words


def service_unit(
    mode: str = "press",
    launcher: str = DEFAULT_LAUNCHER,
    *,
    user: str | None = None,
    unox: str | None = None,
    players: str | None = None,
    config: str | None = None,
    min_gap: float | None = None,
    suspense: float | None = None,
    web_pin: str | None = None,
    sys_root: str | Path = "/sys",
) -> str:
    """The text of /etc/systemd/system/unox.service (`sys_root`: where the PWM chips are looked up)."""
    user = check_user(user if user is not None else default_user())
    words = exec_start(mode, launcher, unox=unox or unox_command(), players=players, config=config,
                       min_gap=min_gap, suspense=suspense, web_pin=web_pin)
    if not Path(words[0]).is_absolute():
        raise InstallError(f"the unox path {words[0]!r} must be absolute, e.g. /home/{user}/unox/bin/unox")
    lines = ["# Written by `unox install service`: starts unox at boot. Reinstall rather than edit it."]
    lines += _unit_section(mode, device_unit(launcher))
    lines += _service_section(mode, user, words, gpio_writable_paths(launcher, sys_root))
    lines += ["", "[Install]", "WantedBy=multi-user.target", ""]
    return "\n".join(lines)


def _unit_section(mode: str, device: str | None) -> list[str]:
    lines = ["[Unit]", f"Description=unox {mode}: the UNO Extreme launcher"]
    if device:
        # Wants (not BindsTo): if the Pico is unplugged the driver waits and reconnects by itself.
        lines += [f"Wants={device}", f"After={device}"]
    if mode == "play":
        lines += ["After=getty@tty1.service", "Conflicts=getty@tty1.service"]
    return lines


def _service_section(mode: str, user: str, words: list[str], writable: list[str]) -> list[str]:
    lines = [
        "",
        "[Service]",
        "Type=simple",
        f"User={user}",
        "SupplementaryGroups=dialout gpio",
        "WorkingDirectory=~",
        "Environment=PYTHONUNBUFFERED=1",
        "ExecStart=" + " ".join(systemd_quote(word) for word in words),
        "Restart=on-failure",
        "RestartSec=2",
        # A stop (SIGTERM) ends `unox press` with exit 0; `unox play` and a Ctrl-C on its console end with
        # 130 after summing up, and Python killed by SIGTERM before its handler is set exits 143: all are
        # stops, not failures (no restart, no "failed" unit).
        "SuccessExitStatus=130 143",
    ]
    if mode == "play":
        # The table UI needs a terminal: take over the first console, where a screen shows it.
        lines += ["Environment=TERM=linux", "StandardInput=tty", "StandardOutput=tty", "TTYPath=/dev/tty1"]
        lines += ["TTYReset=yes", "TTYVHangup=yes"]
    return lines + _sandbox(mode, writable)


def gpio_writable_paths(launcher: str, sys_root: str | Path = "/sys") -> list[str]:
    """What a gpio launcher writes under the read-only /sys of the sandbox: the kernel's PWM class (export)
    and the PWM chip's own directory, which /sys/class/pwm/pwmchipN only links to (its period, duty_cycle
    and enable files). Resolved on the Pi the unit is written on; before the overlay is there, the platform
    devices (optional, `-`). Other launchers write nothing there."""
    kind, _, rest = launcher.partition(":")
    if kind != "gpio":
        return []
    from urllib.parse import parse_qs

    chip = parse_qs(rest.partition("?")[2]).get("pwm_chip", ["0"])[0]
    root = Path(sys_root)
    link = root / "class" / "pwm" / f"pwmchip{chip}"
    paths = ["/sys/class/pwm"]
    if link.exists():
        paths.append("/sys/" + str(link.resolve().relative_to(root.resolve())))
    else:
        paths.append("-/sys/devices/platform")  # resolved when the unit is written after the overlay
    return paths


def _sandbox(mode: str, writable: list[str] | None = None) -> list[str]:
    """A network-facing daemon's confinement: it writes only its state directory, opens only its devices."""
    lines = [
        f"StateDirectory={STATE_DIRECTORY}",
        f"Environment=XDG_STATE_HOME=/var/lib/{STATE_DIRECTORY}",
        f"LimitNOFILE={OPEN_FILES}",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        *(f"ReadWritePaths={path}" for path in writable or []),
        # lgpio (gpiozero's default factory on a Pi) makes its notification pipes (.lgd-nfyN) in LG_WD, else
        # in the working directory, the home, read-only here: a gpio unit points it at the state directory
        *([f"Environment=LG_WD=/var/lib/{STATE_DIRECTORY}"] if writable else []),
        "ProtectHome=read-only",
        "PrivateTmp=yes",
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
        "DevicePolicy=closed",
        *(f"DeviceAllow={device}" for device in LAUNCHER_DEVICES),
    ]
    if mode == "play":
        lines += ["DeviceAllow=/dev/tty1 rw"]
    lines += [
        "CapabilityBoundingSet=",
        "ProtectKernelTunables=yes",
        "ProtectKernelModules=yes",
        "ProtectKernelLogs=yes",
        "ProtectControlGroups=yes",
        "ProtectClock=yes",
        "ProtectHostname=yes",
        "RestrictNamespaces=yes",
        "RestrictRealtime=yes",
        "RestrictSUIDSGID=yes",
        "LockPersonality=yes",
        "SystemCallArchitectures=native",
        "ProtectProc=invisible",
        "UMask=0077",
    ]
    return lines


def udev_rule(serial_number: str | None = None, *, per_board: bool = False) -> str:
    """The text of /etc/udev/rules.d/99-unox.rules: /dev/unox-launcher for the Pico (only the one with
    `serial_number`, if given), usable by dialout; `per_board`: each Pico gets /dev/unox-launcher-<serial>
    instead. MicroPython gives a Pico's USB device its `machine.unique_id()` in hex as serial number: the
    board id the firmware's HELLO sends and `unox firmware version` prints."""
    if per_board and serial_number is not None:
        raise InstallError("give --serial (that Pico is /dev/unox-launcher) or --per-board (each Pico gets "
                           "/dev/unox-launcher-<serial>), not both")
    match = f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="{PICO_VID}", ATTRS{{idProduct}}=="{PICO_MICROPYTHON_PID}"'
    if serial_number is not None:
        if not _SERIAL_NUMBER.fullmatch(serial_number):
            raise InstallError(
                f"serial number {serial_number!r} is not letters and digits; copy it from "
                "`udevadm info -q property /dev/ttyACM0 | grep ID_SERIAL_SHORT`"
            )
        match += f', ATTRS{{serial}}=="{serial_number}"'
    name = f"{DEVICE_NAME}-$attr{{serial}}" if per_board else DEVICE_NAME
    actions = f'SYMLINK+="{name}", GROUP="dialout", MODE="0660", TAG+="systemd"'
    actions += ', ENV{ID_MM_DEVICE_IGNORE}="1"'
    shown = f"/dev/{DEVICE_NAME}-<its USB serial number, the board id unox prints>" if per_board else \
        f"/dev/{DEVICE_NAME}"
    return (
        "# Written by `unox install udev`: the Raspberry Pi Pico running MicroPython (USB 2e8a:0005)\n"
        f"# appears as {shown}, readable by the dialout group. TAG systemd gives the service a\n"
        "# device unit to wait for; ID_MM_DEVICE_IGNORE keeps ModemManager from probing it.\n"
        f"{match}, {actions}\n"
    )


def service_next_steps(path: Path, user: str) -> list[str]:
    return [
        f"sudo usermod -aG dialout,gpio {user}   # once; then log out and in",
        "sudo systemctl daemon-reload",
        f"sudo systemctl enable --now {path.name}",
        f"systemctl status {path.name}",
        f"journalctl -u {path.name} -f   # follow its log",
    ]


def udev_next_steps(per_board: bool = False) -> list[str]:
    name = f"{DEVICE_NAME}-*" if per_board else DEVICE_NAME
    return [
        "sudo udevadm control --reload-rules",
        "sudo udevadm trigger --subsystem-match=tty --action=add",
        f"ls -l /dev/{name}   # unplug and replug the Pico if it is not there",
    ]


def target(root: str | Path, relative: Path) -> Path:
    return Path(root) / relative


def write_file(path: Path, text: str, *, force: bool = False) -> str:
    """Write `text` to `path` atomically; returns 'unchanged', 'created' or 'replaced'.

    A different existing file is only replaced with force, and then kept as `path.bak`: nothing is lost.
    """
    try:
        if not path.exists():
            _atomic_write(path, text)
            return "created"
        if path.read_text(encoding="utf-8") == text:
            return "unchanged"
        if not force:
            raise InstallError(f"{path} exists and differs; pass --force to replace it (kept as .bak)")
        shutil.copy2(path, path.with_name(path.name + ".bak"))
        _atomic_write(path, text)
        return "replaced"
    except PermissionError as exc:
        raise InstallError(
            f"cannot write {path}: permission denied; run it with sudo, "
            "or drop --write and save the printed text yourself"
        ) from exc
    except OSError as exc:
        raise InstallError(f"cannot write {path}: {exc.strerror or exc}; check the path or --root") from exc


def _atomic_write(path: Path, text: str) -> None:
    """A reader (systemd, udev) sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
