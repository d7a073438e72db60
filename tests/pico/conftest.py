"""The emulated Pico's tests: real MicroPython v1.28.0 (rp2 port) in rp2040js, wired to the physics.

The images come from `UNOX_PICO_DIR`; when it is unset and a `shared/pico` folder exists beside the
checkout, that folder is used. Without them every test here skips with one line saying what to get, unless
`UNOX_PICO_REQUIRED=1` (set by `.ci/run` when the folder exists): then a skip is an error.

One flash per session: `unox firmware flash --port PTY` (the CLI, as a user runs it) onto a freshly booted
chip; its flash image is then the start of every other test's chip, so each test boots the same firmware
without paying for a flash again; the image it held while the flash was writing main.py (two of its
chunks written) is what a flash killed there leaves (test_pico_deploy). Soak sizes come from environment
variables (docs/reliability.md).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "pico"
if "UNOX_PICO_DIR" not in os.environ and SHARED.is_dir():
    os.environ["UNOX_PICO_DIR"] = str(SHARED)

UNOX = [sys.executable, "-m", "unox"]
BOOT_LIMIT_MS = 5000
SKIPPED: list[str] = []  # why the emulated Pico's tests skipped: told at the end of the run, -rs or not


def pytest_collection_modifyitems(items):
    """Marks the chip's tests `pico`, and puts them first: under pytest-xdist they are one unit of work
    (tests/conftest.py), the suite's longest, so it starts while the other workers share out the rest."""
    chip = []
    for item in items:
        if "tests/pico/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.pico)
            chip.append(item)
    if chip:
        ours = set(chip)
        items[:] = chip + [item for item in items if item not in ours]


@pytest.fixture(scope="session")
def pico_folder() -> Path:
    from unoxsim.pico import pico_dir

    try:
        return pico_dir()
    except ValueError as exc:
        if os.environ.get("UNOX_PICO_REQUIRED"):
            pytest.fail(f"UNOX_PICO_REQUIRED is set but {exc}")
        SKIPPED.append(str(exc))
        pytest.skip(str(exc))


def cards_out(device) -> int:
    """What the physics says came out of the launcher: ejected, and the one still in the slot past the beam
    (PicoDevice.cards_out counts only the ejected)."""
    return device.model.ejected + device.model.past_beam()


def serve_command(server, argv: list[str]) -> tuple[int, str]:
    """Runs a CLI command against the chip's pty while the chip runs; (exit code, stdout + stderr)."""
    with tempfile.TemporaryFile() as out:
        code = server.runner(out.fileno())(argv)
        out.seek(0)
        return code, out.read().decode(errors="replace")


def serve_command_pausing(server, argv: list[str], pause: Callable[[], bool],
                          at_pause: Callable[[bool], None]) -> tuple[int, str]:
    """`serve_command`, with the chip held still once when `pause()` first holds: `at_pause(still_running)`
    runs there (the chip's flash saved mid-flash), then the command goes on."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
        try:
            server.serve(stop=lambda: proc.poll() is not None or pause())
            at_pause(proc.poll() is None)
            server.serve(stop=lambda: proc.poll() is not None)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        out.seek(0)
        return proc.returncode, out.read().decode(errors="replace")


MAIN_OPEN = b"open('/main.py','wb')"  # mpremote's `fs cp` of main.py: the file opened, then w(b'...') chunks
CHUNKS_BEFORE_CUT = 2  # main.py's chunks the chip has written when the flash is cut (each of 256 bytes)


def main_py_chunks(sent: bytes | bytearray) -> int:
    """How many chunks of main.py the chip has written, from the bytes the host sent it: a chunk's `w(...)`
    is sent only once the one before it ran, so the count of those sent less one ran (0 before the open)."""
    at = sent.find(MAIN_OPEN)
    return 0 if at < 0 else max(0, sent.count(b"w(b", at) - 1)


def wait_booted(device, limit_ms: int = BOOT_LIMIT_MS) -> None:
    """Runs the chip until main.py speaks on the USB serial (its first frame after boot)."""
    assert device.advance_until(limit_ms, lambda: device.host_pending() > 0), "main.py never spoke"


def wait_rebooted(device, before: int, limit_ms: int = BOOT_LIMIT_MS) -> None:
    """Runs the chip until it has booted again since it counted `before` boots. Take the count before the
    flash: mpremote's `reset` lands while its last step is still served, so a count taken after it waited
    the whole limit for a reset that had already happened (5 emulated s per flash)."""
    assert device.advance_until(limit_ms, lambda: device.boots > before), "the chip never rebooted"


class Deploy:
    """What the session's one flash did: the CLI's answers, the files it left on the chip ({path: sha256}),
    the flash image it left, and the image the chip held while the flash was writing main.py
    (`mid_main_py`: `mid_chunks` chunks of main.py written; `mid_running`: the flash was still running then),
    which is what a power cut or a killed flash at that moment leaves."""

    def __init__(self, flash: tuple[int, str], version: tuple[int, str], files: dict[str, str], image: Path,
                 emulated_ms: int, mid_main_py: Path | None, mid_running: bool, mid_chunks: int):
        self.flash, self.version, self.files, self.image = flash, version, files, image
        self.emulated_ms, self.mid_main_py, self.mid_running, self.mid_chunks = (emulated_ms, mid_main_py,
                                                                                 mid_running, mid_chunks)


@pytest.fixture(scope="session")
def deploy(pico_folder, tmp_path_factory) -> Deploy:
    """`unox firmware flash --port PTY` onto a fresh emulated Pico, then `unox firmware version`."""
    from unox.launcher.clock import emulated_clock_path
    from unoxsim.pico import PicoDevice, files_on_chip
    from unoxsim.pico_pty import ChipPtyServer

    folder = tmp_path_factory.mktemp("pico")
    mid: dict[str, object] = {"image": None, "running": False, "chunks": 0}
    sent = bytearray()  # every byte the host sent the chip: where mpremote is in its copy of main.py

    def save_mid(running: bool) -> None:
        mid["image"], mid["running"] = folder / "mid-main-py.bin", running
        mid["chunks"] = main_py_chunks(sent)
        device.save_flash(mid["image"])

    device = PicoDevice(folder=pico_folder)
    to_chip = device.host_write

    def host_write(data: bytes) -> None:
        sent.extend(data)
        to_chip(data)

    device.host_write = host_write  # type: ignore[method-assign]
    server = ChipPtyServer(device)
    try:
        server.publish_clock(str(emulated_clock_path(server.path)))
        device.advance(300)  # USB enumerates in 14 emulated ms; the REPL is up well within this
        start, boots = device.now_ms(), device.boots
        flashed = serve_command_pausing(server, [*UNOX, "firmware", "flash", "--port", server.path],
                                        lambda: main_py_chunks(sent) >= CHUNKS_BEFORE_CUT, save_mid)
        wait_rebooted(device, boots)  # mpremote's `reset`
        wait_booted(device)
        emulated = device.now_ms() - start
        device.host_read()
        version = serve_command(server, [*UNOX, "firmware", "version", "--port", server.path])
        flashed_files = files_on_chip(device) if flashed[0] == 0 else {}
    finally:
        server.close()
        device.close()
    image = lockstep_image(pico_folder, tmp_path_factory, flashed_files)
    return Deploy(flashed, version, flashed_files, image, emulated, mid["image"],  # type: ignore[arg-type]
                  bool(mid["running"]), int(mid["chunks"]))  # type: ignore[call-overload]


def lockstep_image(pico_folder: Path, tmp_path_factory, flashed_files: dict[str, str]) -> Path:
    """The flash image every other test boots: the files the CLI flashed, written onto a fresh chip in
    lockstep (`write_files`), so it is the same image in every session. The CLI's own image is not: mpremote
    on the pty is paced by the wall, so littlefs's mtimes and block layout, and with them main.py's boot
    time and the phase of every later step, changed from run to run (a STUCK once went unheard)."""
    from unox.cli.commands.firmware import firmware_source
    from unoxsim.pico import PicoDevice, write_files

    sources, main_py = firmware_source()
    files = {f"/lib/unoxfw/{path.name}": path.read_bytes() for path in sources}
    files["/main.py"] = main_py.read_bytes()
    wanted = {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}
    if flashed_files:  # a failed flash is told by test_pico_deploy; the image is still made
        assert flashed_files == wanted, "`unox firmware flash` left other files than write_files writes"
    device = PicoDevice(folder=pico_folder)
    try:
        write_files(device, files)
        image = tmp_path_factory.mktemp("pico") / "flash.bin"
        device.save_flash(image)
    finally:
        device.close()
    return image


@pytest.fixture
def pico(deploy, pico_folder):
    """`pico(**physics)`: a launcher whose chip boots the flashed firmware; closed after the test."""
    from unoxsim.pico import PicoDevice

    made = []

    def make(*, boot: bool = True, **kwargs):
        device = PicoDevice(folder=pico_folder, image=deploy.image, **kwargs)
        made.append(device)
        if boot:
            wait_booted(device)
        return device

    yield make
    for device in made:
        device.close()


@pytest.fixture
def host():
    """`host(device)`: the real host driver (`SerialLauncher`) on the chip's USB serial and clock."""
    from unox.launcher.serial import SerialLauncher
    from unoxsim.pico import chip_port

    opened = []

    def make(device, **options):
        launcher = SerialLauncher(chip_port(device), name="emulated Pico", **options)
        opened.append(launcher)
        return launcher

    yield make
    for launcher in opened:
        launcher.close()


def pytest_terminal_summary(terminalreporter):
    """How much chip time the emulated Pico's tests ran, and at what speed (docs/pico.md's ratio); or why
    they skipped, printed without `-rs` (issue 26 item 19)."""
    if SKIPPED:
        terminalreporter.write_line(f"tests/pico skipped: {SKIPPED[0]}", yellow=True)
    pico = sys.modules.get("unoxsim.pico")
    if pico is not None and pico.PicoDevice.emulated_ms_total:
        seconds = pico.PicoDevice.emulated_ms_total / 1000
        terminalreporter.write_line(f"emulated Pico: {seconds:.1f} emulated s in these tests")
