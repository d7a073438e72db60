"""docs/rules.md covers every rule ID and error code, and every rule ID has a test named after it."""

import re
from pathlib import Path

from unox.rules.errors import ERROR_CODES

ROOT = Path(__file__).resolve().parents[2]
RULE_IDS = (
    [f"S{i}" for i in range(1, 5)] + [f"T{i}" for i in range(1, 5)] + [f"A{i}" for i in range(1, 9)]
    + [f"U{i}" for i in range(1, 4)] + ["R1", "R2"] + [f"P{i}" for i in range(1, 4)]
    + [f"G{i}" for i in range(1, 4)] + [f"2P{i}" for i in range(1, 4)]
)


def test_rules_doc_has_a_row_per_rule_id():
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| (\w+) \|", doc, flags=re.M))
    assert set(RULE_IDS) <= rows


def test_rules_doc_lists_every_error_code():
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(\w+)` \|", doc, flags=re.M))
    assert listed == set(ERROR_CODES)


def test_every_rule_id_has_a_test_named_after_it():
    source = "\n".join(p.read_text() for p in Path(__file__).parent.glob("*.py"))
    names = re.findall(r"def (test_\w+)", source)
    for rule in RULE_IDS:
        assert any(n.startswith(f"test_{rule}_") for n in names), rule
