"""`unox firmware flash|version`: the mpremote commands (with a fake runner), missing ports, the version."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import unoxfw
from unox.cli.commands import firmware
from unox.cli.errors import CommandError
from unox.cli.main import main
from unoxsim.device import VirtualDevice

ROOT = Path(__file__).resolve().parents[2]


def test_flash_copies_the_package_and_main_with_mpremote(tmp_path):
    port = tmp_path / "ttyACM7"
    port.touch()
    ran: list[list[str]] = []
    firmware.flash(str(port), runner=lambda cmd: ran.append(list(cmd)) or 0)
    assert ran[0][1:] == ["-m", "unox.launcher.handover", str(port)]  # main.py hands the REPL over first
    ran.pop(0)
    assert all(cmd[1:5] == ["-m", "mpremote", "connect", str(port)] for cmd in ran)
    copied = {Path(arg).name for arg in ran[1] if arg.endswith(".py")}
    assert copied == {p.name for p in (ROOT / "firmware" / "unoxfw").glob("*.py")} - {"main.py"}
    assert ran[1][-1] == ":/lib/unoxfw/"
    assert ran[2][5:7] == ["fs", "cp"] and ran[2][8] == ":/main.py"
    assert Path(ran[2][7]).read_bytes() == (ROOT / "firmware" / "main.py").read_bytes()
    assert "os.mkdir(d)" in ran[0][-1]  # /lib and /lib/unoxfw exist before the copy


def test_flash_says_how_many_files_it_copies_and_copies_that_many(tmp_path, capsys):
    # review of issue 22: it said "copying 14 files" and copied 13 (`:/main.py`, the destination, counted)
    port = tmp_path / "ttyACM7"
    port.touch()
    ran: list[list[str]] = []
    firmware.flash(str(port), runner=lambda cmd: ran.append(list(cmd)) or 0)
    sources = [arg for cmd in ran[2:] for arg in cmd[7:] if not arg.startswith(":") and arg != "+"
               and arg != "reset"]
    assert all(Path(arg).is_file() for arg in sources)
    modules = {p.name for p in (ROOT / "firmware" / "unoxfw").glob("*.py")} - {"main.py"}
    assert len(sources) == len(modules) + 1  # the package's modules and main.py, each once
    assert f"then copying {len(sources)} files\n" in capsys.readouterr().err


def test_a_missing_port_is_a_clear_error_and_nothing_runs():
    ran = []
    with pytest.raises(CommandError, match="port /dev/ttyUNOX-gone not found.*--port"):
        firmware.flash("/dev/ttyUNOX-gone", runner=ran.append)
    assert ran == []


def test_no_pico_or_several_picos(monkeypatch):
    from serial.tools import list_ports
    from unox.launcher.configured import PICO_USB_VID

    class Info:
        def __init__(self, device, vid):
            self.device, self.vid = device, vid

    monkeypatch.setattr(list_ports, "comports", lambda: [Info("/dev/ttyS0", None)])
    with pytest.raises(CommandError, match="no Raspberry Pi Pico found"):
        firmware.find_pico()
    picos = [Info("/dev/ttyACM0", PICO_USB_VID), Info("/dev/ttyACM1", PICO_USB_VID)]
    monkeypatch.setattr(list_ports, "comports", lambda: picos)
    with pytest.raises(CommandError, match="several Picos"):
        firmware.find_pico()
    monkeypatch.setattr(list_ports, "comports", lambda: picos[:1])
    assert firmware.find_pico() == "/dev/ttyACM0"


def test_a_failing_mpremote_stops_the_flash_with_advice(tmp_path):
    port = tmp_path / "ttyACM8"
    port.touch()
    ran = []

    def failing(cmd):
        ran.append(cmd)
        return 1 if "mpremote" in cmd else 0

    with pytest.raises(CommandError, match="mpremote failed .*replug"):
        firmware.flash(str(port), runner=failing)
    assert len(ran) == 2


def test_a_firmware_that_does_not_hand_over_stops_the_flash_with_the_bootsel_advice(tmp_path):
    port = tmp_path / "ttyACM8"
    port.touch()
    ran = []

    def failing(cmd):
        ran.append(cmd)
        return 1

    with pytest.raises(CommandError, match="did not hand its REPL over.*BOOTSEL mode .*docs/install.md"):
        firmware.flash(str(port), runner=failing)
    assert len(ran) == 1  # mpremote never ran


def test_dry_run_prints_the_commands(capsys, tmp_path):
    port = tmp_path / "ttyACM9"
    port.touch()
    assert main(["firmware", "flash", "--port", str(port), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.count("-m mpremote connect " + str(port)) == 3
    assert out.startswith(f"{sys.executable} -m unox.launcher.handover {port}")
    assert out.rstrip().endswith(":/main.py + reset")


def test_version_reports_the_hello_of_the_firmware(capsys):
    assert main(["firmware", "version", "--launcher", "sim:?seed=1"]) == 0
    # Issue 8 item 11: the simulator's answer says it is the simulator's.
    board = VirtualDevice(seed=1).board.machine.unique_id().hex()  # issue 22: which launcher answered
    expected = f"unoxfw {unoxfw.__version__} on sim:?seed=1, board {board} (the simulator's copy)"
    assert capsys.readouterr().out.strip() == expected


def test_version_needs_a_firmware(capsys):
    assert main(["firmware", "version", "--launcher", "script"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("unox: error: ") and err.count("\n") == 1
    assert "runs no firmware" in err


def test_flash_to_a_missing_port_exits_1_with_one_line(capsys):
    assert main(["firmware", "flash", "--port", "/dev/ttyUNOX-gone", "--dry-run"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("unox: error: ") and err.count("\n") == 1
    assert "port /dev/ttyUNOX-gone not found" in err


def test_flash_onto_the_plain_pty_simulator_says_what_it_waits_for_and_gives_up_saying_why(capsys, tmp_path):
    """Issue 26 item 12: mpremote waits for ever for a REPL the CPython simulator does not have; the flash
    printed nothing for a minute. Now it says what it waits for, then gives up with the reason (a real
    mpremote on a real pty, given 1.5 s here instead of the 30 a Pico gets)."""
    import signal
    import subprocess
    import sys

    sim = subprocess.Popen([sys.executable, "-m", "unox", "simulate-device", "--pty", "--seed", "1"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = sim.stdout.readline().strip()
        with pytest.raises(CommandError) as refused:
            firmware.flash(port, answer_s=1.5)
        waiting = capsys.readouterr().err
    finally:
        sim.send_signal(signal.SIGINT)
        sim.communicate(timeout=30)
    assert waiting.startswith(f"flashing {port}: waiting up to 1.5 s for MicroPython's REPL")
    message = str(refused.value)
    assert message.startswith(f"no MicroPython REPL answered on {port} within 1.5 s, so nothing was copied")
    assert "--chip rp2040" in message and "\n" not in message


# ---- issue 23, finding 6: the firmware is package data; --firmware flashes an edited copy -----------------
def test_the_firmware_is_found_as_package_data_not_beside_the_source_tree():
    sources, main_py = firmware.firmware_source(None)
    package = Path(unoxfw.__file__).parent
    assert {p.parent for p in sources} == {package}
    assert main_py.read_bytes() == (ROOT / "firmware" / "main.py").read_bytes()


def test_firmware_flashes_an_edited_copy_named_by_option_or_environment(tmp_path, monkeypatch, capsys):
    import shutil

    copy = tmp_path / "unox-src" / "firmware"
    shutil.copytree(ROOT / "firmware" / "unoxfw", copy / "unoxfw", symlinks=False,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "firmware" / "main.py", copy / "main.py")
    pins = copy / "unoxfw" / "pins.py"
    pins.write_text(pins.read_text().replace('"low_mv": 3900', '"low_mv": 3450'))  # NiMH, by gen_pins
    port = tmp_path / "ttyACM9"
    port.touch()
    for how in ("option", "environment", "the checkout's root"):
        ran: list[list[str]] = []
        if how == "option":
            firmware.flash(str(port), runner=lambda cmd, ran=ran: ran.append(list(cmd)) or 0,
                           firmware_dir=copy)
        elif how == "environment":
            monkeypatch.setenv("UNOX_FIRMWARE", str(copy))
            firmware.flash(str(port), runner=lambda cmd, ran=ran: ran.append(list(cmd)) or 0)
            monkeypatch.delenv("UNOX_FIRMWARE")
        else:
            firmware.flash(str(port), runner=lambda cmd, ran=ran: ran.append(list(cmd)) or 0,
                           firmware_dir=tmp_path / "unox-src")
        copied = [Path(arg) for arg in ran[2] if arg.endswith(".py")]
        assert copied and all(p.parent == copy / "unoxfw" for p in copied), how
        assert (copy / "unoxfw" / "pins.py") in copied and Path(ran[3][7]) == copy / "main.py", how


def test_a_folder_without_firmware_is_refused_before_any_port_is_touched(tmp_path):
    ran: list = []
    with pytest.raises(CommandError, match=r"no firmware in .*main.py and unoxfw/"):
        firmware.flash("/dev/ttyUNOX-gone", runner=ran.append, firmware_dir=tmp_path)
    assert ran == []


def test_unox_firmware_flash_works_from_a_wheel_installed_in_a_fresh_venv(tmp_path):
    """docs/install.md's install is `pip install "$HOME/unox-src[gpio]"`, not editable: the firmware must
    come from the installed package, not a checkout beside it (it said "run this from a full checkout")."""
    import subprocess
    import zipfile

    from tests.wheel_venv import wheel_venv

    venv = wheel_venv(tmp_path)
    (wheel,) = (tmp_path / "dist").glob("unox-*.whl")
    with zipfile.ZipFile(wheel) as built:
        assert built.read("unoxfw/main.py") == (ROOT / "firmware" / "main.py").read_bytes()
        assert "unoxfw/pins.py" in built.namelist()
    port = tmp_path / "ttyACM5"
    port.touch()
    run = subprocess.run([str(venv / "bin" / "unox"), "firmware", "flash", "--dry-run", "--port", str(port)],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    copies = [line for line in run.stdout.splitlines() if " fs cp " in line]
    assert len(copies) == 2 and copies[1].endswith(":/main.py + reset")
    for line in copies:
        files = [word for word in line.split() if word.endswith(".py") and not word.startswith(":")]
        assert files and all(word.startswith(str(venv)) for word in files), line  # the venv's copy
