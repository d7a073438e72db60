"""5. Deploy: `unox firmware flash --port PTY` onto a fresh emulated Pico, `unox firmware version --port PTY`;
a flash killed halfway leaves a chip that boots with the motor off, and flashing again mends it."""

from __future__ import annotations

import subprocess

from tests.pico.conftest import BOOT_LIMIT_MS, UNOX, serve_command


def test_flash_then_version_on_a_freshly_booted_emulated_pico(deploy):
    code, out = deploy.flash
    assert code == 0, out
    assert "cp " in out and ":/main.py" in out and "firmware flashed" in out
    code, out = deploy.version
    assert code == 0, out
    assert out.startswith("unoxfw 0.1.0 on serial:/dev/pts/"), out
