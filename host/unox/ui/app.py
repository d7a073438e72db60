"""The table UI: a textual app over a `Session`, for people at a real table and for the bot demo.

Keys act as shortcuts while the command line is not focused; typing goes to the command line, whose
completion knows the players, the cards and the commands. Every change redraws the panels from the state,
and the prompt line always says who must do what next.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.suggester import Suggester
from textual.widgets import Footer, Header, Input, RichLog, Static

from unox.ui.commands import HELP, InputError, suggest
from unox.ui.session import Session
from unox.ui.views import launcher_lines, player_rows, table_lines

STATUS_INTERVAL = 1.0  # seconds between status requests to a real launcher

CSS = """
#top { height: auto; }
#players { width: 2fr; border: round $accent; padding: 0 1; height: auto; }
#side { width: 1fr; height: auto; }
#table, #launcher { border: round $accent; padding: 0 1; height: auto; }
#launcher.fault { border: heavy $error; }
#log { border: round $panel; height: 1fr; min-height: 6; }
#prompt { padding: 0 1; background: $boost; text-style: bold; }
#error { padding: 0 1; color: $error; height: auto; }
"""


class LineSuggester(Suggester):
    """Completes the last word of a command line against the seated players, the cards and the verbs."""

    def __init__(self, players: list[str]):
        super().__init__(use_cache=False, case_sensitive=True)
        self.players = players

    async def get_suggestion(self, value: str) -> str | None:
        return suggest(value, self.players)


class TableApp(App):
    """One table on screen; `autoplay` is a step function (the demo bots), run every `pace` seconds."""

    TITLE = "unox: UNO Extreme table"
    CSS = CSS
    BINDINGS = [
        Binding("p", "announce", "play a card"),
        Binding("b", "button", "press (sim)"),
        Binding("u", "uno", "UNO"),
        Binding("c", "catch", "catch"),
        Binding("x", "penalty", "penalty"),
        Binding("r", "reload", "reload"),
        Binding("z", "undo", "undo"),
        Binding("d", "deal", "deal"),
        Binding("f", "fix", "fix launcher (sim)"),
        Binding("colon", "command", "command"),
        Binding("escape", "blur", "back", show=False),
        Binding("q", "quit", "quit"),
    ]

    def __init__(
        self,
        session: Session,
        *,
        autoplay: Callable[[], bool] | None = None,
        pace: float = 0.0,
        poll_interval: float | None = None,
        poll_wait: float = 0.0,
        budget: float | None = None,
    ):
        super().__init__()
        self.session = session
        self.autoplay = autoplay
        self.pace = pace
        self.poll_interval = poll_interval
        self.poll_wait = poll_wait  # the sim's virtual seconds per poll, so its time flows with ours
        self.budget = budget  # autoplay: after this many seconds, play the rest without pausing
        self.error = ""
        self._listener: Callable[[str], None] | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            yield Static(id="players")
            with Vertical(id="side"):
                yield Static(id="table")
                yield Static(id="launcher")
        yield RichLog(id="log", wrap=True, markup=False)
        yield Static(id="prompt")
        yield Static(id="error")
        yield Input(placeholder="p or : to type a card (R5) or a command (help); Esc leaves", id="command",
                    select_on_focus=False,
                    suggester=LineSuggester(self.session.players))
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#log", RichLog)
        for line in self.session.log:
            log.write(line)
        self.session.listeners.append(log.write)
        self._listener = log.write
        self.redraw()
        if self.poll_interval:
            self.set_interval(self.poll_interval, self.poll_launcher)
            self.set_interval(STATUS_INTERVAL, self.check_launcher)
        if self.autoplay is not None:
            self.run_worker(self._autoplay(), exclusive=True, group="autoplay")

    def on_unmount(self) -> None:
        if self._listener in self.session.listeners:
            self.session.listeners.remove(self._listener)

    # --- drawing -------------------------------------------------------------------------------------
    def redraw(self) -> None:
        session = self.session
        state = session.state
        grid = RichTable(box=None, expand=True)
        for column in ("", "player", "cards", "score", "UNO / owes"):
            grid.add_column(column)
        for row in player_rows(state, session.called):
            grid.add_row(*(Text(cell) for cell in row))
        self.query_one("#players", Static).update(grid)
        self.query_one("#table", Static).update(Text("\n".join(table_lines(state))))
        launcher = self.query_one("#launcher", Static)
        launcher.update(Text("\n".join(launcher_lines(state, session.ctx, session.status))))
        launcher.set_class(bool(session.ctx.fault), "fault")
        self.query_one("#prompt", Static).update(Text(self.prompt_text()))
        self.query_one("#error", Static).update(Text(self.error))

    def prompt_text(self) -> str:
        """What the prompt line shows now (for tests and screen readers)."""
        return "NEXT: " + self.session.prompt().line()

    def run_line(self, line: str) -> bool:
        """Run one command line; a refusal is shown under the prompt and changes nothing."""
        self.error = ""
        try:
            if line.strip().lower() == "quit":
                self.exit()
                return True
            if line.strip().lower() == "help":
                self.session.emit(HELP)
            else:
                self.session.submit(line)
            return True
        except InputError as exc:
            self.error = f"Not taken: {exc}"
            return False
        finally:
            self.redraw()

    # --- the command line ----------------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.run_line(event.value):
            event.input.value = ""
            self.set_focus(None)

    def _edit(self, text: str) -> None:
        box = self.query_one("#command", Input)
        box.value = text
        box.cursor_position = len(text)
        box.focus()

    def action_command(self) -> None:
        self._edit("")

    def action_blur(self) -> None:
        self.set_focus(None)

    def action_announce(self) -> None:
        turn = self.session.state.get("turn")
        self._edit(f"{turn} " if turn else "")

    def action_uno(self) -> None:
        catchable = self.session.state.get("uno") or []
        if len(catchable) == 1:
            self.run_line(f"uno {catchable[0]}")
        else:
            self._edit("uno ")

    def action_catch(self) -> None:
        catchable = self.session.state.get("uno") or []
        self._edit(f"catch {catchable[0]} by " if len(catchable) == 1 else "catch ")

    def action_penalty(self) -> None:
        self._edit("penalty ")

    def action_reload(self) -> None:
        self.run_line("reload")

    def action_undo(self) -> None:
        self.run_line("undo")

    def action_deal(self) -> None:
        if self.session.ctx.dealer:
            self.run_line("deal")
        else:
            self._edit("draw ")

    def action_button(self) -> None:
        self.run_line("press")

    def action_fix(self) -> None:
        self.error = ""
        try:
            self.session.fix_launcher()
        except InputError as exc:
            self.error = f"Not taken: {exc}"
        self.redraw()

    # --- the launcher and the bots -------------------------------------------------------------------
    def poll_launcher(self) -> None:
        """Take the presses a real launcher reports; runs on a timer, on the app's own thread."""
        if self.session.poll(self.poll_wait, status=False):
            self.redraw()

    def check_launcher(self, wait: float | None = None) -> None:
        """Ask the launcher for its status now and then: a lid opened or a cable pulled shows at once."""
        self.session.poll(self.poll_wait if wait is None else wait)
        self.redraw()

    async def _autoplay(self) -> None:
        assert self.autoplay is not None
        start = time.monotonic()
        pace = self.pace
        while self.autoplay():
            self.redraw()
            if pace and self.budget is not None and time.monotonic() - start > self.budget:
                pace = 0.0
                self.session.emit("(fast-forward to the end of the game)")
            await asyncio.sleep(pace)
        self.redraw()


def run_app(session: Session, **options: Any) -> int:
    TableApp(session, **options).run()
    return 0
