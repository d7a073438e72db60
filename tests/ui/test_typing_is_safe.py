"""Issue 8.1: typing is always safe. What a person types goes to the command line, whole words at a time,
at 80x24; shortcuts need Ctrl; every line is done or refused with a reason; quitting a game asks first."""

import asyncio

from textual.widgets import Input
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.session import Session

PLAYERS = ("Ann", "Bob", "Cy")
SIZE = (80, 24)


def dealt_session(journal=None):
    session = open_play_session(TableSettings(players=PLAYERS, seed=5, launcher="sim"), journal=journal,
        night=Session)
    session.submit("deal Cy")
    session.submit("flip G7")
    return session


def test_words_starting_with_old_shortcut_letters_are_typed_not_obeyed(typer):
    session = dealt_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await typer(pilot, "quinn")  # was: quit at once on the q
            seen = {"running": app.is_running, "quinn": app.message, "focus": app.focused.id}
            await typer(pilot, "g5")  # was: recorded a reload (r) or ignored
            seen["after_g5"] = (session.entries()[-1], app.focused.id)
            return seen

    seen = asyncio.run(scenario())
    assert seen["running"] and seen["focus"] == "command"
    assert seen["quinn"].startswith("Not taken: `quinn`: 'quinn' is not understood")
    entry, focus = seen["after_g5"]
    assert entry == {"cmd": "play", "player": "Ann", "card": "G5"} and focus == "command"
    assert not any(e["cmd"] == "reload" for e in session.entries())


def test_capital_cards_and_named_plays_are_done_or_refused_with_a_reason_never_ignored(typer):
    session = dealt_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await typer(pilot, "G5")
            first = session.entries()[-1]
            await typer(pilot, "Cy GH")  # Bob's turn: Cy may not play; the rules say so
            return first, app.message, app.query_one("#command", Input).value

    first, refusal, left_in_box = asyncio.run(scenario())
    assert first == {"cmd": "play", "player": "Ann", "card": "G5"}
    assert refusal.startswith("Not taken: `Cy GH`: ") and "Bob" in refusal
    assert left_in_box == ""  # sent lines leave the box; the up arrow brings one back


def test_S1_draw_typed_whole_is_a_draw_by_that_player(typer):
    session = open_play_session(TableSettings(players=PLAYERS, seed=5, launcher="sim"), night=Session)

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await typer(pilot, "draw Bob R3")  # was: `d` opened `draw ` and the rest made `draw raw Bob R3`
            return app.message

    message = asyncio.run(scenario())
    assert session.ctx.draws == {"Bob": "R3"} and message == ""
    assert session.log[-1] == "Bob draws R3 for the deal (S1: counts 3)."


def test_the_up_arrow_brings_back_the_last_line_to_mend_it(typer):
    session = dealt_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await typer(pilot, "G55")
            await pilot.press("up", "backspace", "enter")
            await pilot.pause()

    asyncio.run(scenario())
    assert session.entries()[-1] == {"cmd": "play", "player": "Ann", "card": "G5"}


def test_quitting_a_game_in_progress_asks_first_and_any_other_line_carries_on_and_is_run(typer, tmp_path):
    journal = tmp_path / "table.db"
    session = dealt_session(journal)

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await typer(pilot, "quit")
            asked = (app.is_running, app.prompt_text(), app.message)
            await typer(pilot, "G5")  # not a yes: the table carries on and the line is played
            carried_on = (app.is_running, session.entries()[-1]["card"] if session.entries() else None)
            await pilot.press("ctrl+q", "ctrl+q")  # the shortcut, twice
            await pilot.pause()
            return asked, carried_on, app.is_running, app.return_code

    asked, carried_on, running, code = asyncio.run(scenario())
    running_when_asked, prompt, message = asked
    assert running_when_asked and prompt.startswith("NEXT: leave the table? Type yes")
    assert message == f"The game is kept in {journal}: `unox play --continue` picks it up."
    assert carried_on == (True, "G5")
    assert not running and code == 0


def test_yes_confirms_leaving_and_a_table_without_journal_warns_first(typer):
    session = dealt_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await typer(pilot, "quit")
            warned = app.message
            await typer(pilot, "yes")
            return warned, app.is_running

    warned, running = asyncio.run(scenario())
    assert warned == "This table has no journal: leaving ends the game for good."
    assert running is False


def test_question_mark_on_an_empty_line_is_help_and_inside_a_line_is_typed():
    session = dealt_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            helped = session.log[-1]
            await pilot.press("G", "question_mark")
            return helped, app.query_one("#command", Input).value

    helped, value = asyncio.run(scenario())
    assert helped.startswith("Type a card for the player whose turn it is")
    assert value == "G?"


def test_tab_completes_the_word_being_typed_and_keeps_the_focus(keyer):
    session = dealt_session()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press(*keyer("uno B"))
            await pilot.pause()
            await pilot.press("tab")
            return app.query_one("#command", Input).value, app.focused.id

    assert asyncio.run(scenario()) == ("uno Bob", "command")
