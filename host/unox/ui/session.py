"""The terminal's table: a `Night` (`unox.table.night`) with the typed-line grammar and the NEXT line.

The textual UI and `--plain` drive a `Session`: typed lines are parsed here (`unox.ui.commands`) into the
table night's requests; the prompt is the play screen's (`unox.ui.prompt`). Everything a table does beyond
words (dealer choice and rotation, faults, reload advice, undo limits) is the night's, for every front end.
"""

from __future__ import annotations

from unox.table.night import Night, kept_where
from unox.ui.commands import Command, InputError, parse_line
from unox.ui.prompt import Prompt, prompt_for

LEAVE_WORDS = ("yes", "y")  # the answers that confirm leaving a game in progress
STAY_WORDS = ("no", "n", "")  # the answers that only decline it: nothing else to run

__all__ = ["LEAVE_WORDS", "STAY_WORDS", "Session", "kept_where"]


class Session(Night):
    """A night driven by typed lines (`R5`, `press`, `uno Bob`, `draw Ann G7`, `undo`, `settle 2`)."""

    def prompt(self) -> Prompt:
        return prompt_for(self.state, self.ctx)

    def submit(self, line: str) -> dict | None:
        """Run one typed line; InputError (nothing changed) when the line or the move is refused. The line is
        read against the table as another front end left it (the phones of `unox play --web`): their changes
        are taken in first, so `deal` alone and a bare card mean the dealer and the player of now."""
        self.catch_up()
        who = self.state.get("turn")
        pending = self.state.get("pending") or {}
        if pending.get("player") and line.split()[:1] == [pending.get("cmd")]:
            who = pending["player"]  # the edition waits for this player's choice: they make it
        command = parse_line(line, self.players, who, self.state.get("hands"), self.rules)
        return self.execute(command)

    def execute(self, command: Command) -> dict | None:
        if command.verb == "settle":
            return self.settle(command.request["fired"])
        if command.verb in ("help", "quit"):
            return None
        if command.verb == "launcher":  # fires nothing: taken even while a fire waits for its count
            self.accept_launcher()
            return None
        self.check_settled()
        if command.verb == "press":
            return self.press()
        if command.verb == "undo":
            return self.undo()
        if command.verb == "draw":
            self.draw(command.request["player"], command.request["card"])
            return None
        request = dict(command.request)
        if request["cmd"] == "deal" and "dealer" not in request:
            if self.ctx.dealer is None:
                raise InputError("choose the dealer first: draw NAME CARD for each player (S1), or deal NAME")
            request["dealer"] = self.ctx.dealer
        return self.request(request)

