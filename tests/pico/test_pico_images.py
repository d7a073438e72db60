"""Issue 26 item 19: docs/pico.md says exactly where the boot ROM comes from and gives its sha256; the file
the emulated Pico boots from is that one, byte for byte (no emulator is started here)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from unoxsim.pico import BOOTROM, WHAT_TO_GET

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "pico.md").read_text()


def documented_sha256() -> str:
    """The sha256 docs/pico.md gives for the boot ROM (the one after 'Its sha256 is')."""
    found = re.search(r"Its sha256 is\s+`([0-9a-f]{64})`", DOC)
    assert found, "docs/pico.md gives no sha256 for the boot ROM"
    return found.group(1)


def test_the_boot_rom_the_tests_use_is_the_one_the_docs_name(pico_folder):
    rom = (pico_folder / BOOTROM).read_bytes()
    assert len(rom) == 16_384
    assert hashlib.sha256(rom).hexdigest() == documented_sha256()
    assert int.from_bytes(rom[0x50:0x54], "little") == 0x00A4A191  # the git revision the doc quotes


def test_the_docs_give_a_url_and_a_build_command_for_the_boot_rom():
    assert "https://raw.githubusercontent.com/wokwi/rp2040js/main/demo/bootrom.ts" in DOC
    clone = "git clone --branch b1 --recurse-submodules https://github.com/raspberrypi/pico-bootrom-rp2040"
    assert clone in DOC and "make -C bootrom-build bootrom" in DOC
    assert WHAT_TO_GET.count(documented_sha256()[:8]) == 1  # the skip's line names the same file
