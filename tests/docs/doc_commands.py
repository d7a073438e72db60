"""Every `unox ...` command shown in README.md and docs/: found in code blocks and inline code."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "hardware").glob("*.md")),
         ROOT / "simulator" / "README.md"]
PREFIX = re.compile(r"^(?:\$ )?(?:sudo )?(?:[~.\w/-]*/)?unox(?= |$)")
# Templates that stand for many commands; each is named here so a new one is a decision, not an accident.
TEMPLATES = {"unox COMMAND --help", "unox ...", "sudo ~/unox/bin/unox ...", "unox install ... --write"}
PLACEHOLDERS = {"FILE": "table.db", "SPEC": "sim", "PORT": "/dev/ttyACM0"}


@dataclass(frozen=True)
class DocCommand:
    page: str
    line: int
    text: str  # as shown, without prompt, sudo and path
    inline: bool

    def argv(self) -> list[str]:
        """The words after `unox`: [optional|parts] at their first choice, placeholders filled."""
        text = re.sub(r"\[([^\]]*)\]", lambda m: m.group(1).split("|")[0], self.text)
        words = shlex.split(text)[1:]
        return [PLACEHOLDERS.get(word, word) for word in words]


# The word after `unox` is a command or an option: `unox engine:  85098 actions/s` is output, not a command.
FIRST_WORD = re.compile(r"^unox(?: (?:-|[a-z][a-z-]*(?: |$))|$)")


def _clean(text: str) -> str | None:
    text = text.split("  #")[0].split(" # ")[0].strip().removesuffix(" &").strip()  # `&`: run in background
    if not PREFIX.match(text) or text in TEMPLATES:
        return None
    text = PREFIX.sub("unox", text)
    return text if FIRST_WORD.match(text) else None


def commands() -> list[DocCommand]:
    found = []
    for page in PAGES:
        in_block = False
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                in_block = not in_block
                continue
            name = str(page.relative_to(ROOT))
            if in_block:
                for part in line.strip().split(" && "):
                    text = _clean(part)
                    if text and text not in TEMPLATES:
                        found.append(DocCommand(name, number, text, inline=False))
                continue
            for span in re.findall(r"`([^`]+)`", line):
                text = _clean(span)
                if text and text not in TEMPLATES:
                    found.append(DocCommand(name, number, text, inline=True))
    return found
