"""`unox table --protocol jsonl`: run one table over the JSON-lines table protocol v1 on stdin/stdout."""

from __future__ import annotations

import argparse
import sys

from unox.cli.table_options import add_table_options
from unox.cli.tournament_option import add_tournament_options

EXAMPLE = """example:
  $ unox table --players Ann,Bob,Cy --journal game.db
  {"cmd":"deal","dealer":"Ann"}
  {"ok":true,"state":{"phase":"flip",...}}
  then, after a crash:  unox table --resume game.db
The requests and replies are described in docs/table-protocol.md."""

def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "table",
        help="run a table over the JSON-lines table protocol v1 (stdin/stdout)",
        description="Read one JSON request per line on stdin and answer each with one JSON line\n"
        "on stdout.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--protocol", choices=["jsonl"], default="jsonl", help="wire format (only jsonl)")
    add_table_options(
        parser,
        launcher_help="script (default: each press says how many cards came out), sim, serial:PORT or gpio",
    )
    add_tournament_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A preset of the one assembly (`unox.cli.assemble`): the table protocol on stdin/stdout."""
    from unox.cli.assemble import check, open_night
    from unox.table.jsonl import serve

    setup = check("table", args)  # the option pairs refused before anything is written
    if setup.tournament is not None:
        from unox.cli.tournament_option import run_table

        return run_table(args)
    night = open_night(setup)
    try:
        # The protocol drives the table night, as every front end does: its bookkeeping, its undo limits.
        serve(night, iter(sys.stdin.buffer.readline, b""), sys.stdout)
    finally:
        night.close()
        setup.close()
    return 0
