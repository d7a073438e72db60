"""Plain text front ends: `unox play --plain` (typed lines in, events out) and `unox demo --plain`.

Every event is one line, flushed at once, so a transcript can be read by a person, compared between two
runs, or followed by a test that feeds the table from a script.
"""

from __future__ import annotations

import codecs
import os
import select
from collections.abc import Callable, Iterable, Iterator
from textwrap import wrap
from typing import IO, TextIO

from unox.ui.commands import InputError, commands_help
from unox.ui.session import LEAVE_WORDS, STAY_WORDS, Session, kept_where
from unox.ui.views import render_state

HELP_WIDTH = 80
CTRL_D = "\x04"  # a line source's word for Ctrl-D typed at a terminal: the end of input, asked about first


def _printer(out: TextIO) -> Callable[[str], None]:
    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    return write


def run_plain(session: Session, lines: Iterable[str], out: TextIO) -> int:
    """Run typed lines until they end, `quit`, or the game is over; each line is answered by `next: ...`.

    `quit` during a game asks first, as the table UI does: `yes` leaves, anything else carries on. So does
    Ctrl-D at a terminal (`CTRL_D` from `typed_lines`/`polled_lines`; Ctrl-D again leaves); input that ends
    (a pipe, a script) ends the run saying where the game is kept."""
    write = _printer(out)
    session.listeners.append(write)
    write(render_state(session.state, session.ctx, session.status))
    write("next: " + session.prompt().line())
    leaving = False
    for raw in lines:
        if raw == CTRL_D:
            if leaving or not session.in_progress():
                break
            leaving = True
            write(kept_where(session))
            write("next: leave the table? Ctrl-D again (or yes) leaves; anything else carries on.")
            continue
        line = raw.strip()
        if leaving:
            leaving = False
            if line.lower() in (*LEAVE_WORDS, "quit", "q"):
                break
            write("Staying at the table.")
            if line.lower() in STAY_WORDS:  # `no` answers the question: it is not a command to refuse
                write("next: " + session.prompt().line())
                continue
        if not line:
            session.poll(0.0)
        elif line.lower() in ("quit", "q"):
            if session.in_progress():
                leaving = True
                write(kept_where(session))
                write("next: leave the table? Type yes to leave; anything else carries on.")
                continue
            break
        elif line.lower() == "state":
            write(render_state(session.state, session.ctx, session.status))
        elif line.lower() == "help":
            for part in wrap(commands_help(session.rules) + " state prints the table.", HELP_WIDTH):
                write(part)  # lines of 80 columns at most, as a terminal shows them
        else:
            try:
                session.submit(line)
            except InputError as exc:
                write(f"not taken: {exc}")
        write("next: " + session.prompt().line())
        if session.state.get("phase") == "game_over":
            break
    else:  # the input ended without a quit: say so, and where the game stays
        if session.in_progress():
            write(f"Input ended. {kept_where(session)}")
    return 0


def typed_lines(stream: IO[str]) -> Iterator[str]:
    """Lines from `stream`; at a terminal, Ctrl-D is `CTRL_D` (asked about) and reading goes on after it."""
    tty = stream.isatty()
    while True:
        line = stream.readline()
        if line:
            yield line
        elif tty:
            yield CTRL_D
        else:
            return


def polled_lines(stream: IO[str], session: Session, interval: float = 0.05) -> Iterator[str]:
    """Lines from a terminal or pipe, with the launcher polled while nobody types (real launchers).

    The descriptor is read directly: a text stream's readline would pull a whole pipe write into its own
    buffer, where `select` cannot see the lines after the first ("quit\nyes\n" would wait for ever)."""
    fd = stream.fileno()
    decoder = codecs.getincrementaldecoder(getattr(stream, "encoding", None) or "utf-8")(errors="replace")
    pending = ""
    while True:
        if "\n" in pending:
            line, pending = pending.split("\n", 1)
            yield line + "\n"
            continue
        ready, _, _ = select.select([fd], [], [], interval)
        if not ready:
            told = len(session.log)
            if session.poll(0.0) or len(session.log) > told:  # a press, or news the table took: `next:`
                yield ""
            continue
        chunk = os.read(fd, 65536)
        pending += decoder.decode(chunk, final=not chunk)
        if not chunk:
            if pending:
                yield pending  # a last line without its newline
                pending = ""
            if not os.isatty(fd):
                return
            yield CTRL_D  # Ctrl-D at a terminal: asked about; the terminal can be read again after it


def run_demo_plain(session: Session, step: Callable[[], bool], out: TextIO) -> int:
    """The bots play until the game is over; the transcript is the session's event lines."""
    write = _printer(out)
    for line in session.log:
        write(line)
    session.listeners.append(write)
    while step():
        pass
    return 0
