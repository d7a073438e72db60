"""`unox rules`: the rules engine's own documents: the state diagram and the error codes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from unox.cli.errors import CommandError
from unox.rules.errors import ERROR_CODES
from unox.rules.machine import state_machine_page


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "rules",
        help="the rules engine: state diagram and error codes",
        description="Print the Mermaid state diagram generated from the rules machine, or the error codes. "
        "Example: unox rules diagram --write docs/state-machine.md",
    )
    sub = parser.add_subparsers(dest="rules_command", metavar="WHAT", required=True)
    diagram = sub.add_parser("diagram", help="the state machine as a Mermaid page (docs/state-machine.md)")
    diagram.add_argument("--write", type=Path, default=None, metavar="FILE", help="write the page to FILE")
    diagram.set_defaults(func=run_diagram)
    errors = sub.add_parser("errors", help="every error code the engine can give, and when")
    errors.add_argument("--json", action="store_true", help="print one JSON object")
    errors.set_defaults(func=run_errors)


def run_diagram(args: argparse.Namespace) -> int:
    page = state_machine_page()
    if args.write is None:
        print(page, end="")
        return 0
    try:
        args.write.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {args.write}: {exc.strerror}; check the path") from exc
    return 0


def run_errors(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps(ERROR_CODES))
        return 0
    width = max(map(len, ERROR_CODES))
    for code, when in ERROR_CODES.items():
        print(f"{code:<{width}}  {when}")
    return 0
