"""docs/web.md keeps one screenshot of each page at phone size, and the page stays within its 60 KB."""

from __future__ import annotations

import re
import struct
from pathlib import Path

from unox.web.server import STATIC, static_bytes

ROOT = Path(__file__).resolve().parents[2]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


def test_web_md_shows_each_page_at_phone_size():
    text = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    shown = re.findall(r"!\[[^\]]*\]\((web/\w+\.png)\)", text)
    assert sorted(shown) == ["web/classic.png", "web/join.png", "web/operator.png", "web/player.png",
                             "web/table.png"]
    for name in shown:
        path = ROOT / "docs" / name
        assert png_size(path) == (390, 844), name
        assert path.stat().st_size < 100_000, f"{name} is too big for the docs"


def test_the_pages_html_js_and_css_together_stay_within_60_kb():
    total = sum(len(static_bytes(name)) for name in STATIC)
    assert 10_000 < total <= 60_000, total


def test_the_page_names_no_outside_address():
    for name in STATIC:
        text = static_bytes(name).decode("utf-8")
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.IGNORECASE), name
