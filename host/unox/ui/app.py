"""The table UI: a textual app over a `Session`, for people at a real table and for the bot demo.

Typing is always safe. The command line keeps the focus for good, so whatever a person types goes into it
(completion knows the players, the cards and the commands); shortcuts need a modifier (Ctrl+P press, ...)
or, for help, `?` on an empty line, which cannot start a command. Every line typed is either done or
refused with the reason under the prompt. Quitting a game in progress asks first.

Every change redraws the panels from the state, and the prompt line says who must do what next. The
launcher's status is fetched on a worker thread, so a slow or lost link never holds up typing.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.suggester import Suggester
from textual.widgets import Footer, Input, RichLog, Static
from textual.worker import Worker, WorkerFailed, WorkerState

from unox.ui.commands import InputError, card_meaning, commands_help, flip_examples, suggest
from unox.ui.paint import card_pattern, explained, painted, players_grid, table_panel
from unox.ui.session import LEAVE_WORDS, STAY_WORDS, Session, kept_where

ECHO_WIDTH = 40  # a refusal quotes at most this much of a line (or of a word), so its reason stays in view
LONG_WORD = re.compile(rf"\S{{{ECHO_WIDTH + 1},}}")
SIM_ACTIONS = ("press", "fix")  # keys only the simulated launcher answers: the footer shows them only then
STATUS_INTERVAL = 0.25  # seconds between status requests: a lost link shows within the 1 s heartbeat

# At 80x24 the panels keep their height and the log gives way first.
CSS = """
#top { height: auto; }
#players { width: 1fr; border: round $accent; padding: 0 1; height: auto; }
#table { width: 1fr; border: round $accent; padding: 0 1; height: auto; text-wrap: nowrap;
         text-overflow: ellipsis; }
#table.fault { border: heavy $error; }
#log { border: round $panel; height: 1fr; min-height: 0; overflow-x: hidden; }
#prompt { padding: 0 1; background: $boost; text-style: bold; height: auto; }
#message { padding: 0 1; height: auto; max-height: 4; }
#message.refused { color: $error; }
#command { border: none; height: 1; padding: 0 1; }
#small { display: none; dock: top; height: auto; padding: 0 1; background: $error; color: $text; }
#small.shown { display: block; }
"""
MIN_SIZE = (60, 20)  # below this the names or the command line go out of view: the screen says so
STOPPED_CHECK_S = 0.2  # how soon the UI leaves a table stopped from elsewhere (`Table.stop`)


class LineSuggester(Suggester):
    """Completes the last word of a command line against the seated players, the cards and the verbs."""

    def __init__(self, players: list[str], rules: Any = None):
        super().__init__(use_cache=False, case_sensitive=True)
        self.players = players
        self.rules = rules

    async def get_suggestion(self, value: str) -> str | None:
        return suggest(value, self.players, self.rules)


def example_card(rules: Any) -> str:
    """A card of the table's edition to show as an example: Extreme's R5, else its own (Barbie has no R5)."""
    if rules is None or rules.name == "extreme":
        return "R5"
    return flip_examples(rules)[0].split()[-1]


class TableLog(RichLog):
    """The log keeps its newest line in view when its box changes size (a resize, a long refusal taking
    rows below it), unless PageUp has scrolled it back to read older lines."""

    following = True
    writes = 0

    def write(self, *args: Any, **kwargs: Any) -> Any:
        self.following = True  # a new line scrolls to the end (auto_scroll): the log follows again
        self.writes += 1
        return super().write(*args, **kwargs)

    def on_resize(self) -> None:
        if self.following:
            self.call_after_refresh(self.scroll_end, animate=False, immediate=True)

    def page(self, up: bool) -> None:
        """PageUp / PageDown: the command line keeps the focus, so the app scrolls the log for it."""
        if up:
            self.scroll_page_up(animate=False)
        else:
            self.scroll_page_down(animate=False)
        self.following = not up and self.scroll_y >= self.max_scroll_y - self.scrollable_content_region.height


class CommandLine(Input):
    """The command line, one line per Enter however fast the keys come (a paste, a fast typist).

    textual's Input posts its line with Enter and the app empties the box when it handles that message; keys
    that arrive in between went into the old line (`G5G3`) or were wiped with it. Here the box is emptied
    in the same step as the Enter, so the next key starts the next line; a pasted block is every line in
    order, its last (unfinished) one left in the box for its Enter."""

    async def action_submit(self) -> None:
        line, self.value = self.value, ""
        self.post_message(self.Submitted(self, line))

    async def _on_key(self, event: events.Key) -> None:
        """Enter is taken here, in turn with the characters before and after it: as a binding it was run
        only once the key had bubbled up to the app, after the keys typed behind it were in the box."""
        if event.key == "enter":
            event.stop()
            event.prevent_default()  # textual then runs neither Input's own handler nor the binding
            await self.action_submit()

    def _on_paste(self, event: events.Paste) -> None:
        *whole, last = (event.text or "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for number, line in enumerate(whole):
            text = (self.value + line) if number == 0 else line
            self.value = ""
            self.post_message(self.Submitted(self, text))
        if last:
            self.insert_text_at_cursor(last)
        event.stop()
        event.prevent_default()  # Input's own paste takes the first line only


class TableApp(App):
    """One table on screen; `autoplay` is a step function (the demo bots), run every `pace` seconds.

    With `autoplay` the table is the bots': a person watches, asks for help or quits, and nothing else.
    """

    TITLE = "unox: UNO Extreme table"
    CSS = CSS
    ENABLE_COMMAND_PALETTE = False  # its Ctrl+P is the press key here
    BINDINGS = [
        Binding("ctrl+p", "press", "press (sim)", priority=True),
        Binding("ctrl+r", "reload", "reload", priority=True),
        Binding("ctrl+z", "undo", "undo", priority=True),
        Binding("ctrl+f", "fix", "fix (sim)", priority=True),
        Binding("f1", "help", "help", priority=True),
        Binding("ctrl+q", "quit", "quit", priority=True),
        Binding("escape", "clear", "clear the line", show=False, priority=True),
        Binding("up", "recall", "the last line again", show=False, priority=True),
        Binding("tab", "complete", "complete the word", show=False, priority=True),
        Binding("pageup", "page(True)", "scroll the log up", show=False, priority=True),
        Binding("pagedown", "page(False)", "scroll the log down", show=False, priority=True),
    ]

    def __init__(
        self,
        session: Session,
        *,
        autoplay: Callable[[], bool] | None = None,
        pace: float = 0.0,
        poll_interval: float | None = None,
        poll_wait: float = 0.0,
        status_interval: float | None = None,
        budget: float | None = None,
    ):
        super().__init__()
        self.session = session
        self.autoplay = autoplay
        self.pace = pace
        self.poll_interval = poll_interval
        self.poll_wait = poll_wait  # the sim's virtual seconds per poll, so its time flows with ours
        self.status_interval = status_interval if status_interval is not None else (
            STATUS_INTERVAL if poll_interval else None)
        self.budget = budget  # autoplay: after this many seconds, play the rest without pausing
        self.message = ""  # the answer to the last line, until the next one
        self.refused = False
        self.refused_code: str | None = None  # the table protocol's code of that refusal, when it has one
        self.hint = ""  # the card being typed, spelled out (shown while there is no message)
        self.leaving = False  # a quit was asked for and waits for its confirmation
        self.history: list[str] = []
        self.crash: BaseException | None = None
        self._listener: Callable[[str], None] | None = None
        self._status_pending = False
        self._press_pending = False
        if not session.ctx.sim:
            self._hide_sim_keys()

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="players")
            yield Static(id="table")
        yield Static(id="small")
        yield TableLog(id="log", wrap=True, markup=False, min_width=20)  # wrap to the box, however narrow
        yield Static(id="prompt")
        yield Static(id="message")
        yield CommandLine(placeholder=f"type a card ({example_card(self.session.rules)}) or a command (help)",
                          id="command",
                          select_on_focus=False,
                          suggester=LineSuggester(self.session.players, self.session.rules))
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#log", RichLog)
        log.can_focus = False  # the command line keeps the focus: typing never lands anywhere else
        rules = self.session.rules
        if rules is not None:
            self.title = f"unox: {rules.title} table"
        for line in self.session.log:
            log.write(painted(explained(line, rules), rules))
        self._listener = lambda line: log.write(painted(explained(line, rules), rules))
        self.session.listeners.append(self._listener)
        self.query_one("#command", Input).focus()
        self.redraw()
        if self.poll_interval:
            self.set_interval(self.poll_interval, self.poll_launcher)
        if self.status_interval:
            self.set_interval(self.status_interval, self.check_launcher)
        self.set_interval(STOPPED_CHECK_S, self.leave_if_stopped)
        if self.autoplay is not None:
            self.run_worker(self._autoplay(), exclusive=True, group="autoplay")

    def on_resize(self, event: events.Resize) -> None:
        """A terminal too small to show the table says so on its first row, with the size it needs."""
        width, height = event.size
        small = self.query_one("#small", Static)
        too_small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        small.update(f"Terminal too small ({width}x{height}): make it at least {MIN_SIZE[0]}x{MIN_SIZE[1]}; "
                     "the game goes on meanwhile." if too_small else "")
        small.set_class(too_small, "shown")

    def on_unmount(self) -> None:
        if self._listener in self.session.listeners:
            self.session.listeners.remove(self._listener)

    def on_descendant_blur(self) -> None:
        """Nothing else may take the focus (a click on a panel, say): it goes back to the command line."""
        self.call_after_refresh(self._refocus)

    def _refocus(self) -> None:
        box = self.query_one("#command", Input)
        if self.focused is not box:
            box.focus()

    # --- drawing -------------------------------------------------------------------------------------
    def redraw(self) -> None:
        session = self.session
        self.query_one("#players", Static).update(players_grid(session.state, session.called))
        panel = self.query_one("#table", Static)
        panel.update(table_panel(session.state, session.ctx, session.status))
        panel.set_class(bool(session.ctx.fault), "fault")
        self.query_one("#prompt", Static).update(painted(self.prompt_text(), session.rules))
        message = self.query_one("#message", Static)
        message.update(painted(self.message or self.hint, session.rules))
        message.set_class(self.refused and bool(self.message), "refused")

    def prompt_text(self) -> str:
        """What the prompt line shows now (for tests and screen readers)."""
        if self.leaving:
            return "NEXT: leave the table? Type yes (or Ctrl+Q again) to leave; anything else carries on."
        if self.autoplay is not None and self.session.state.get("phase") != "game_over":
            return "NEXT: the bots are playing: watch, F1 for help, Ctrl+Q (or type quit) to leave."
        return "NEXT: " + self.session.prompt().line()

    def say(self, text: str, *, refused: bool = False) -> None:
        self.message, self.refused = text, refused

    def run_line(self, line: str, *, typed: bool = False) -> bool:
        """Run one command line: done, or refused with the reason under the prompt (nothing changes)."""
        self.say("")
        self.refused_code = None
        word = line.strip().lower()
        try:
            if self.leaving:
                self.leaving = False
                if word in (*LEAVE_WORDS, "quit"):  # yes, or quit asked twice
                    self.exit()
                    return True
                self.say("Staying at the table.")
                if word in STAY_WORDS:  # `no` answers the question: it is not a command to refuse
                    return True
            if word == "quit":
                self.action_quit()
            elif word == "help":
                self.action_help()
            elif self.autoplay is not None:
                raise InputError("this is the bots' table: watch, F1 for help, or type quit to leave")
            else:
                reply = self.session.submit(line)
                faulted = reply is not None and (reply.get("launcher") or {}).get("fault") is not None
                if reply is not None and not reply.get("ok", True) and not faulted:  # refused by the rules
                    raise InputError(self.session.refused_press(reply["error"]))
                # a fault (jam, stuck) after the motor ran is already on screen, with what to do
            return True
        except InputError as exc:
            self.refused_code = exc.code  # the same refusal as every other front end's (issue 21)
            quoted = f"`{shortened(line.strip())}`: " if typed and line.strip() else ""
            self.say(f"Not taken: {quoted}{LONG_WORD.sub(lambda m: shortened(m.group()), str(exc))}",
                     refused=True)
            return False
        finally:
            self.redraw()

    # --- the command line ----------------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Every line leaves the box once sent (the refusal quotes it); the up arrow brings it back."""
        line = event.value  # the box was emptied with the Enter (CommandLine): keys since then stay in it
        self.hint = ""
        if line.strip():
            self.history.append(line)
        self.run_line(line, typed=True)

    def on_input_changed(self, event: Input.Changed) -> None:
        """Spell out the card being typed (`RD` -> red Discard All); a refusal stays until the next line.

        `?` typed on an empty line (no command starts with it) is the help; the line is left empty."""
        if event.value == "?":
            event.input.value = ""
            self.action_help()
            return
        last = (event.value.split() or [""])[-1].upper()
        rules = self.session.rules
        self.hint = f"{last} = {card_meaning(last, rules)}" if card_pattern(rules).fullmatch(last) else ""
        self.redraw()

    def action_recall(self) -> None:
        """The up arrow: the last line sent, to mend and send again."""
        if self.history:
            box = self.query_one("#command", Input)
            box.value = self.history[-1]
            box.cursor_position = len(box.value)

    def action_complete(self) -> None:
        """Tab, as in a shell: take the greyed completion of the word being typed (the → key does too)."""
        box = self.query_one("#command", Input)
        box.cursor_position = len(box.value)
        box.action_cursor_right()  # at the end of the line this accepts the suggestion

    def action_page(self, up: bool) -> None:
        self.query_one("#log", TableLog).page(up)

    def action_clear(self) -> None:
        self.query_one("#command", Input).value = ""
        self.leaving = False
        self.say("")
        self.redraw()

    def action_help(self) -> None:
        """The help goes into the log; one longer than the log's box is shown from its first line (PageDown
        reads on), not from its end with its start cut off."""
        log = self.query_one("#log", TableLog)
        start = len(log.lines)
        self.session.emit(WATCH_HELP if self.autoplay is not None else help_text(self.session.rules))
        self.redraw()
        written = log.writes

        def from_its_start() -> None:
            if log.writes != written:  # newer lines came since: the log follows them
                return
            if len(log.lines) - start > log.scrollable_content_region.height:
                log.following = False
                log.scroll_to(y=start, animate=False, immediate=True)

        # after the log's own scroll to its end, which its write also left for after the refresh
        self.call_after_refresh(lambda: self.call_after_refresh(from_its_start))

    def action_quit(self) -> None:  # type: ignore[override]
        """Leave at once when the game is over, nothing was played, or it is the bots' demo; else ask."""
        if self.leaving or self.autoplay is not None or not self.session.in_progress():
            self.exit()
            return
        self.leaving = True
        self.say(kept_where(self.session))
        self.redraw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The bots' demo has no presses, reloads, undos or fixes for a person: those keys are hidden."""
        if self.autoplay is not None and action in ("press", "reload", "undo", "fix"):
            return False
        return True

    def _hide_sim_keys(self) -> None:
        """A real launcher is pressed and mended by hand: the footer leaves out the simulated one's keys
        (Ctrl+P and Ctrl+F still answer, saying so)."""
        for key, bindings in self._bindings.key_to_bindings.items():
            self._bindings.key_to_bindings[key] = [
                replace(b, show=False) if b.action in SIM_ACTIONS else b for b in bindings]

    def action_press(self) -> None:
        self.run_line("press")

    def action_reload(self) -> None:
        self.run_line("reload")

    def action_undo(self) -> None:
        self.run_line("undo")

    def action_fix(self) -> None:
        self.say("")
        try:
            self.session.fix_launcher()
        except InputError as exc:
            self.say(f"Not taken: {exc}", refused=True)
        self.redraw()

    def leave_if_stopped(self) -> None:
        """A table stopped from elsewhere (a tournament seat another process took over) refuses every request:
        the UI leaves it at once, with a non-zero return code, and its caller says why."""
        if getattr(getattr(self.session, "table", None), "stopped", None) is not None:
            self.exit(return_code=1)

    # --- the launcher and the bots -------------------------------------------------------------------
    def poll_launcher(self) -> None:
        """Wait for a press on a worker thread (a dead link may take the driver most of a second to tell);
        the press itself is booked on this thread, between two typed lines."""
        if self._press_pending or self.session.launcher is None:
            return
        self._press_pending = True
        self.run_worker(partial(self.session.wait_press, self.poll_wait), thread=True, group="press",
                        name="press")

    def check_launcher(self) -> None:
        """Ask for the launcher's status on a worker thread: a lid opened or a cable pulled shows at once, and
        the fires the table took from it meanwhile (alone while the link was down, or lost in flight)."""
        if self._status_pending or self.session.launcher is None:
            return
        self._status_pending = True
        self.run_worker(self.session.fetch_news, thread=True, group="status", name="status")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A launcher request finished on its worker: apply its answer here, on the UI thread."""
        worker = event.worker
        if worker.group not in ("status", "press") or event.state not in (WorkerState.SUCCESS,
                                                                          WorkerState.CANCELLED):
            return
        told, state = len(self.session.log), self.session.state
        if worker.group == "status":
            self._status_pending = False
            changed = event.state == WorkerState.SUCCESS and self.session.apply_news(worker.result)
        else:
            self._press_pending = False
            changed = event.state == WorkerState.SUCCESS and self.session.take_press(worker.result)
        if changed:
            if self.refused and (len(self.session.log) != told or self.session.state != state):
                self.say("")  # the table moved on (a press, a fault): an old refusal answers nothing now
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

    # --- crashes -------------------------------------------------------------------------------------
    def _handle_exception(self, error: Exception) -> None:
        """An unexpected error ends the app with status 1 and is kept for `run_app` to raise."""
        if self.crash is None:
            self.crash = error.error if isinstance(error, WorkerFailed) else error
        super()._handle_exception(error)

    def _fatal_error(self) -> None:
        """No traceback on the terminal: `run_app` raises the error and the CLI reports it in one line."""
        self._close_messages_no_wait()


def shortened(text: str, width: int = ECHO_WIDTH) -> str:
    """`text` cut to `width` characters with an ellipsis, saying how long it was: a 1,200-character line's
    echo filled the screen and hid the reason (issue 13)."""
    if len(text) <= width:
        return text
    return f"{text[:width - 1]}… ({len(text):,} characters)"


KEYS_HELP = (
    " Keys: Ctrl+P press (sim), Ctrl+R reload, Ctrl+Z undo, Ctrl+F fix the sim launcher, Tab completes, "
    "up arrow: the last line again, Esc clears the line, F1 or ? this help, Ctrl+Q quit."
)


def help_text(rules: Any = None) -> str:
    """The commands of this table's edition, then the keys."""
    return commands_help(rules) + KEYS_HELP
WATCH_HELP = (
    "The bots play this table on the simulated launcher; the log tells each move. "
    "Keys: F1 or ? this help, Ctrl+Q (or type quit) leaves."
)


def run_app(session: Session, *, headless: bool = False, **options: Any) -> int:
    """Run the table UI; an unexpected error is raised here (never a traceback on screen, never status 0)."""
    app = TableApp(session, **options)
    app.run(headless=headless)
    if app.crash is not None:
        raise app.crash
    return app.return_code or 0
