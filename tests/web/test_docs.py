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


def test_web_md_shows_each_page_at_phone_size_and_the_table_view_at_tv_size():
    text = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    shown = re.findall(r"!\[[^\]]*\]\((web/\w+\.png)\)", text)
    sizes = {name: (390, 844) for name in ("classic", "gift", "join", "operator", "player", "table")}
    sizes["tv"] = (1920, 1080)
    assert sorted(shown) == [f"web/{name}.png" for name in sorted(sizes)]
    for name in shown:
        path = ROOT / "docs" / name
        assert png_size(path) == sizes[Path(name).stem], name
        assert path.stat().st_size < 150_000, f"{name} is too big for the docs"


def test_the_pages_html_js_and_css_together_stay_within_60_kb():
    total = sum(len(static_bytes(name)) for name in STATIC)
    assert 10_000 < total <= 60_000, total


def test_the_page_names_no_outside_address():
    for name in STATIC:
        text = static_bytes(name).decode("utf-8")
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.IGNORECASE), name
