"""`unox install service`: a systemd unit that starts unox press/play at boot, checked by reading it back."""

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from unox import install


def parse_unit(text: str) -> dict[str, list[tuple[str, str]]]:
    """Sections of a unit file as (key, value) lists: systemd allows a key more than once."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), [])
            continue
        key, sep, value = line.partition("=")
        assert sep and current is not None, f"stray line in unit: {line!r}"
        current.append((key, value))
    return sections


def values(unit: dict, section: str, key: str) -> list[str]:
    return [value for name, value in unit[section] if name == key]


def exec_words(unit: dict) -> list[str]:
    (line,) = values(unit, "Service", "ExecStart")
    return [word.replace("%%", "%").replace("$$", "$") for word in shlex.split(line)]


@pytest.mark.parametrize("mode", ["press", "play"])
def test_unit_starts_the_chosen_mode_with_this_installations_unox(mode):
    players = "Ann,Bob" if mode == "play" else None
    unit = parse_unit(install.service_unit(mode, user="pi", players=players))
    words = exec_words(unit)
    unox = Path(words[0])
    assert unox.is_absolute() and unox.name == "unox" and os.access(unox, os.X_OK)
    assert words[1] == mode
    assert words[words.index("--launcher") + 1] == install.DEFAULT_LAUNCHER


def test_unit_restarts_on_failure_runs_as_the_user_with_device_groups_and_starts_at_boot():
    unit = parse_unit(install.service_unit("press", user="pi", unox="/home/pi/unox/bin/unox"))
    assert values(unit, "Service", "User") == ["pi"]
    assert set(values(unit, "Service", "SupplementaryGroups")[0].split()) == {"dialout", "gpio"}
    assert values(unit, "Service", "Restart") == ["on-failure"]
    assert values(unit, "Install", "WantedBy") == ["multi-user.target"]


@pytest.mark.parametrize("mode", ["press", "play"])
def test_a_stop_is_not_a_failure(mode):
    """Issue 26 item 9: `unox press`/`play` sum up and exit 130 on an interrupt (press: 0 on SIGTERM, see
    tests/cli/test_press_cli.py); the unit counts 130 and 143 (SIGTERM before the handler) as success."""
    players = "Ann,Bob" if mode == "play" else None
    unit = parse_unit(install.service_unit(mode, user="pi", players=players, unox="/home/pi/unox/bin/unox"))
    assert set(values(unit, "Service", "SuccessExitStatus")[0].split()) == {"130", "143"}
    assert values(unit, "Service", "Restart") == ["on-failure"]


def test_serial_launcher_waits_for_the_udev_device_unit():
    unit = parse_unit(install.service_unit("press", user="pi", unox="/usr/bin/unox"))
    expected = r"dev-unox\x2dlauncher.device"  # `systemd-escape --path --suffix=device /dev/unox-launcher`
    assert expected in values(unit, "Unit", "After")
    assert expected in values(unit, "Unit", "Wants")
    assert "/dev/" + install.DEVICE_NAME == install.DEFAULT_LAUNCHER.partition(":")[2]


@pytest.mark.skipif(shutil.which("systemd-escape") is None, reason="systemd-escape not installed")
@pytest.mark.parametrize("path", ["/dev/unox-launcher", "/dev/ttyACM0", "/dev/serial/by-id/usb-Pico.x-if00"])
def test_device_unit_names_match_systemd_escape(path):
    result = subprocess.run(["systemd-escape", "--path", path], capture_output=True, text=True, check=True)
    assert install.device_unit(f"serial:{path}") == result.stdout.strip() + ".device"


def test_gpio_launcher_has_no_device_dependency():
    unit = parse_unit(install.service_unit("press", "gpio:?factory=lgpio", user="pi", unox="/usr/bin/unox"))
    assert values(unit, "Unit", "After") == [] and values(unit, "Unit", "Wants") == []
    assert exec_words(unit)[2:] == ["--launcher", "gpio:?factory=lgpio"]


def test_play_mode_takes_the_console_and_passes_the_players():
    unit = parse_unit(install.service_unit("play", user="pi", unox="/usr/bin/unox", players="Ann,Bob,Cy"))
    words = exec_words(unit)
    assert words[words.index("--players") + 1] == "Ann,Bob,Cy"
    assert values(unit, "Service", "TTYPath") == ["/dev/tty1"]
    assert values(unit, "Service", "StandardInput") == ["tty"]
    assert "getty@tty1.service" in values(unit, "Unit", "Conflicts")


def test_play_mode_keeps_its_table_in_the_state_directory_systemd_creates():
    unit = parse_unit(install.service_unit("play", user="pi", unox="/usr/bin/unox", players="Ann,Bob"))
    words = exec_words(unit)
    assert words.count("--continue") == 1 and "--journal" not in words and "--resume" not in words
    journal = Path(words[words.index("--continue") + 1])
    assert str(journal) == "/var/lib/unox/table.db"
    # StateDirectory=NAME makes /var/lib/NAME, owned by User=, before ExecStart runs (systemd.exec).
    (state,) = values(unit, "Service", "StateDirectory")
    assert journal.parent == Path("/var/lib") / state


def test_press_mode_keeps_no_table():
    unit = parse_unit(install.service_unit("press", user="pi", unox="/usr/bin/unox"))
    assert "--continue" not in exec_words(unit)


@pytest.mark.parametrize("mode", ["press", "play"])
def test_the_service_is_sandboxed_as_a_network_facing_daemon(mode):
    """Issue 15: it writes only /var/lib/unox, reads the home, opens only the launcher, GPIO (and tty1)."""
    players = "Ann,Bob" if mode == "play" else None
    unit = parse_unit(install.service_unit(mode, user="pi", unox="/usr/bin/unox", players=players))
    one = {key: values(unit, "Service", key) for key in (
        "NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateTmp", "StateDirectory", "DevicePolicy",
        "LimitNOFILE", "CapabilityBoundingSet", "UMask")}
    assert one == {"NoNewPrivileges": ["yes"], "ProtectSystem": ["strict"], "ProtectHome": ["read-only"],
                   "PrivateTmp": ["yes"], "StateDirectory": ["unox"], "DevicePolicy": ["closed"],
                   "LimitNOFILE": [str(install.OPEN_FILES)], "CapabilityBoundingSet": [""], "UMask": ["0077"]}
    assert int(one["LimitNOFILE"][0]) > 1024  # above the default that 1,050 sockets once exhausted
    (families,) = values(unit, "Service", "RestrictAddressFamilies")
    assert set(families.split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    devices = values(unit, "Service", "DeviceAllow")
    tty = ["/dev/tty1 rw"] if mode == "play" else []
    assert devices == ["char-ttyACM rw", "char-gpiochip rw", "/dev/gpiomem rw", *tty]
    # anything it writes by default (XDG state) lands in the one writable directory
    assert "XDG_STATE_HOME=/var/lib/unox" in values(unit, "Service", "Environment")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_systemd_reads_the_unit_and_rates_its_exposure_ok(tmp_path):
    """The figure docs/install.md quotes, offline, from the unit file alone."""
    path = tmp_path / "unox.service"
    path.write_text(install.service_unit("play", user="pi", unox="/usr/bin/unox", players="Ann,Bob"))
    run = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(path)],
                         capture_output=True, text=True, timeout=60)
    exposure = float(run.stdout.rsplit("exposure level for unox.service: ", 1)[1].split()[0])
    assert exposure <= 4.0, run.stdout[-400:]


def test_awkward_paths_survive_systemd_quoting():
    odd = "/opt/my venv/100%/$HOME/unox"
    unit = parse_unit(install.service_unit("press", user="pi", unox=odd, config="/home/pi/my config.toml"))
    words = exec_words(unit)
    assert words[0] == odd
    assert words[words.index("--config") + 1] == "/home/pi/my config.toml"


def test_default_user_is_the_one_who_ran_sudo(monkeypatch):
    monkeypatch.setenv("SUDO_USER", "alice")
    unit = parse_unit(install.service_unit("press", unox="/usr/bin/unox"))
    assert values(unit, "Service", "User") == ["alice"]


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"mode": "dance"}, "use --mode press or --mode play"),
        ({"user": "pi\nExecStartPre=/bin/rm -rf /"}, "not a valid Linux user name"),
        ({"user": "root"}, "should not run as root"),
        ({"launcher": "usb"}, "is not one of sim, script, serial:PORT, gpio"),
        ({"launcher": "serial:ttyACM0"}, "needs an absolute port"),
        ({"launcher": "gpio\n[Service]"}, "is not one of"),
        ({"unox": "bin/unox"}, "must be absolute"),
        ({"unox": "/usr/bin/unox\nUser=root"}, "control character"),
        ({"players": "Ann,Bob"}, "only applies to --mode play"),
    ],
)
def test_bad_values_never_reach_the_unit(kwargs, needle):
    arguments = {"mode": "press", "launcher": install.DEFAULT_LAUNCHER, "user": "pi", "unox": "/usr/bin/unox"}
    arguments.update(kwargs)
    mode, launcher = arguments.pop("mode"), arguments.pop("launcher")
    with pytest.raises(install.InstallError, match=needle):
        install.service_unit(mode, launcher, **arguments)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
@pytest.mark.parametrize("mode", ["press", "play"])
def test_systemd_accepts_the_unit(tmp_path, mode):
    path = tmp_path / "unox.service"
    path.write_text(install.service_unit(mode, user="nobody", players="A,B" if mode == "play" else None))
    command = ["systemd-analyze", "verify", str(path)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_unox_next_to_the_venv_python_is_preferred(monkeypatch, tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "unox").write_text("#!/bin/sh\n")
    monkeypatch.setattr(install.sys, "executable", str(tmp_path / "bin" / "python"))
    monkeypatch.setenv("PATH", "/nonexistent")
    assert install.unox_command() == str(tmp_path / "bin" / "unox")


def test_no_unox_anywhere_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(install.sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(install.InstallError, match="pass --unox PATH"):
        install.service_unit("press", user="pi")


@pytest.mark.parametrize("mode", ["press", "play"])
def test_the_unit_command_line_is_one_the_unox_cli_accepts(mode, tmp_path):
    from unox.cli.main import build_parser

    players = "Ann,Bob,Cy" if mode == "play" else None
    config = str(tmp_path / "config.toml")
    unit = parse_unit(install.service_unit(mode, user="pi", players=players, config=config))
    args = build_parser().parse_args(exec_words(unit)[1:])  # exits 2 on any option the command lacks
    assert args.command == mode and args.launcher == install.DEFAULT_LAUNCHER and args.config == config


def test_play_mode_without_players_is_refused_with_what_to_add():
    with pytest.raises(install.InstallError, match="--players"):
        install.service_unit("play", user="pi")


# ---- issue 23, finding 7: the direct-GPIO build drives /sys/class/pwm from inside the sandbox ------------
def fake_sys(tmp_path: Path) -> Path:
    """A /sys as a Pi 4 has it with the pwm-2chan overlay: /sys/class/pwm/pwmchip0 links into the platform
    device's own directory, where the channel files live."""
    sys_root = tmp_path / "sys"
    chip = sys_root / "devices" / "platform" / "soc" / "fe20c000.pwm" / "pwm" / "pwmchip0"
    chip.mkdir(parents=True)
    (chip / "export").write_text("")
    for channel in (0, 1):
        (chip / f"pwm{channel}").mkdir()
    (sys_root / "class" / "pwm").mkdir(parents=True)
    (sys_root / "class" / "pwm" / "pwmchip0").symlink_to(
        "../../devices/platform/soc/fe20c000.pwm/pwm/pwmchip0")
    return sys_root


def test_a_gpio_units_writable_paths_cover_every_path_the_gpio_launcher_writes(tmp_path, monkeypatch):
    from unox.launcher.gpio_board import GpioBoard, make_factory
    from unox.launcher.gpio_pins import PINS

    sys_root = fake_sys(tmp_path)
    unit = parse_unit(install.service_unit("press", "gpio", user="pi", unox="/usr/bin/unox",
                                           sys_root=sys_root))
    assert values(unit, "Service", "ProtectSystem") == ["strict"]  # /sys read-only but for these:
    writable = [path.lstrip("-") for path in values(unit, "Service", "ReadWritePaths")]
    assert writable == ["/sys/class/pwm", "/sys/devices/platform/soc/fe20c000.pwm/pwm/pwmchip0"]
    written: list[Path] = []
    real_write = Path.write_text

    def record(self, *args, **kwargs):
        written.append(Path(os.path.realpath(self)))
        return real_write(self, *args, **kwargs)

    monkeypatch.setattr("unox.launcher.gpio_pwm.SysfsPwmChannel._ready", lambda self: True)
    (sys_root / "devices/platform/soc/fe20c000.pwm/pwm/pwmchip0/pwm1").rmdir()  # pwm1 is exported first

    def export_creates(self, *args, **kwargs):  # the kernel makes the channel's directory on export
        result = record(self, *args, **kwargs)
        if self.name == "export":
            (self.parent / f"pwm{args[0]}").mkdir(exist_ok=True)
        return result

    monkeypatch.setattr(Path, "write_text", export_creates)
    board = GpioBoard(make_factory("mock"), PINS, pwm="hardware", pwm_root=sys_root / "class" / "pwm")
    board.motor(0.5)
    board.brake()
    board.motor(-0.5)
    board.close()
    assert len(written) >= 8  # export, then period, duty_cycle and enable of both channels, at least
    for path in written:
        in_sys = "/sys/" + str(path.relative_to(sys_root.resolve()))
        assert any(in_sys == root or in_sys.startswith(root + "/") for root in writable), in_sys


def test_only_a_gpio_unit_gets_writable_paths_and_without_the_overlay_the_platform_devices(tmp_path):
    sys_root = tmp_path / "sys"  # no PWM chip yet: the overlay is not on
    unit = parse_unit(install.service_unit("press", "gpio", user="pi", unox="/usr/bin/unox",
                                           sys_root=sys_root))
    assert values(unit, "Service", "ReadWritePaths") == ["/sys/class/pwm", "-/sys/devices/platform"]
    chip2 = parse_unit(install.service_unit("press", "gpio:?pwm_chip=2", user="pi", unox="/usr/bin/unox",
                                            sys_root=fake_sys(tmp_path)))
    assert values(chip2, "Service", "ReadWritePaths") == ["/sys/class/pwm", "-/sys/devices/platform"]
    serial = parse_unit(install.service_unit("press", "serial:/dev/ttyACM0", user="pi", unox="/usr/bin/unox"))
    assert values(serial, "Service", "ReadWritePaths") == []


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_systemd_analyze_verifies_the_gpio_unit(tmp_path):
    path = tmp_path / "unox.service"
    path.write_text(install.service_unit("press", "gpio", user="pi", unox=shutil.which("true") or "/bin/true",
                                         sys_root=fake_sys(tmp_path)))
    run = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_gpio_unit_gives_lgpio_a_writable_folder_for_its_notification_pipes(tmp_path):
    # lgpio creates .lgd-nfyN FIFOs in $LG_WD, else the working directory: ~, read-only under ProtectHome
    unit = parse_unit(install.service_unit("press", "gpio", user="pi", unox="/usr/bin/unox",
                                           sys_root=fake_sys(tmp_path)))
    assert values(unit, "Service", "ProtectHome") == ["read-only"]
    assert values(unit, "Service", "WorkingDirectory") == ["~"]
    (state,) = values(unit, "Service", "StateDirectory")
    assert f"LG_WD=/var/lib/{state}" in values(unit, "Service", "Environment")
    serial = parse_unit(install.service_unit("press", "serial:/dev/ttyACM0", user="pi", unox="/usr/bin/unox"))
    assert not [env for env in values(serial, "Service", "Environment") if env.startswith("LG_WD=")]
