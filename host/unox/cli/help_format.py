"""Help that fits the terminal: the commands' hand-laid descriptions and examples are wrapped to its width
(an example's words under its words), where argparse's raw layout let them run past 80 columns."""

from __future__ import annotations

import argparse
import re
import textwrap

HANG = 6  # the indent of what an example does, when it goes under it
GAP = re.compile(r"\S( {2,})\S")  # the gap between an example and what it does


class FittedRawDescription(argparse.RawDescriptionHelpFormatter):
    """Keeps each line of a description or epilog as written, wrapping only one too wide to show."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        for line in _reflowed(text.splitlines(), width - len(indent)):
            if len(indent) + len(line) <= width:
                out.append(indent + line)
                continue
            lead = len(line) - len(line.lstrip())
            if lead > width // 2:  # a what-it-does continued far to the right: bring it under its example
                line, lead = " " * HANG + line.lstrip(), HANG
            gap = GAP.search(line, lead)
            if gap is not None and gap.end(1) > width // 2:  # the example alone, then what it does below it
                out.append(indent + line[:gap.start(1)])
                line, lead = " " * HANG + line[gap.end(1):], HANG
                gap = None
            hang = gap.end(1) if gap is not None else (lead + 4 if lead else 0)  # prose: flush left
            out += _wrapped(line, width, indent, hang)
        return "\n".join(out)


def _wrapped(line: str, width: int, indent: str, hang: int) -> list[str]:
    return textwrap.wrap(line, width, initial_indent=indent, subsequent_indent=indent + " " * hang,
                         break_long_words=False, break_on_hyphens=False) or [indent]


def _reflowed(lines: list[str], width: int) -> list[str]:
    """A paragraph of prose (flush left, no example in it) with a line too wide is joined into one line to
    wrap as a whole; every other line stays as written."""
    out: list[str] = []
    block: list[str] = []
    for line in [*lines, ""]:
        if line and not line[0].isspace() and not GAP.search(line):
            block.append(line)
            continue
        if any(len(b) > width for b in block):
            block = [" ".join(block)]
        out += block
        block = []
        out.append(line)
    return out[:-1]
