"""Issue 8.5: at 80x24 (a Pi's screen) the players, the turn, the top card and the owed presses stay in view
however long the log grows; the log gives way first. Issue 8.7: cards in colour, the turn marked by more
than a `>`, a card code spelled out where it shows."""

import asyncio

import pytest
from unox.table.opening import open_play_session
from unox.table.settings import TableSettings
from unox.ui.app import TableApp
from unox.ui.paint import CARD_STYLES, WILD_STYLE, painted, players_grid
from unox.ui.session import Session

TEN = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


@pytest.mark.parametrize("players", [TEN[:4], TEN])
def test_the_table_stays_in_view_at_80x24_while_the_log_grows(players, typer, screen):
    session = open_play_session(TableSettings(players=players, seed=5, launcher="sim"), night=Session)
    session.submit(f"deal {players[-1]}")
    session.submit("flip RH")  # S4: Ann owes two presses

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(12):  # a long log: help is several lines each time
                await typer(pilot, "help")
            return screen(app)

    rows = asyncio.run(scenario())
    text = "\n".join(rows)
    assert len(rows) == 24
    for name in players:
        assert f" {name} " in text, f"{name} is off the screen:\n{text}"
    assert "Turn:      Ann" in text
    assert "Top card:  RH  red Hit 2" in text
    assert "Owed:      Ann owes 2 presses" in text
    assert "NEXT: Ann: press the launcher button" in text
    assert "^p press" in rows[-1]  # the footer with the keys is the last row
    # the log gave way, yet still shows its newest event: the help, from its first line (issue 26 item 4)
    assert "Type a card for the player whose turn it is" in text


def test_the_turn_player_is_marked_highlighted_and_to_play():
    state = {"phase": "turn", "turn": "Bob", "hands": {"Ann": 7, "Bob": 7}, "scores": {}}
    grid = players_grid(state, set())
    cells = [[str(cell) for cell in column.cells] for column in grid.columns]
    assert cells[0] == ["  Ann", "▶ Bob"] and cells[3] == ["", "to play"]  # the marker leads the name
    assert grid.rows[1].style == "bold reverse" and not grid.rows[0].style


def test_card_codes_are_coloured_by_their_colour_and_wilds_have_their_own_style():
    line = painted("Ann plays RD. Bob plays WA red. Cy plays G7 and B9; Y1 (R2) S4 stay plain words.")
    styles = {line.plain[span.start:span.end]: str(span.style) for span in line.spans}
    assert styles == {"RD": CARD_STYLES["R"], "WA": WILD_STYLE, "G7": CARD_STYLES["G"],
                      "B9": CARD_STYLES["B"], "Y1": CARD_STYLES["Y"]}


def test_7_action_and_wild_codes_are_spelled_out_in_the_log_and_the_prompt():
    from unox.ui.paint import explained
    from unox.ui.prompt import Context, prompt_for

    assert explained("Ann plays RD, with 2 more.") == "Ann plays RD (red Discard All), with 2 more."
    assert explained("Bob plays WF; Cy plays G7.") == "Bob plays WF (Wild Hit-Fire); Cy plays G7."
    assert explained("reload (R2) after RT (red Trade Hands)") == "reload (R2) after RT (red Trade Hands)"
    state = {"phase": "turn", "turn": "Ann", "top": "WA", "color": "B", "owed": []}
    assert "play a card on WA (Wild All Hit, colour blue)" in prompt_for(state, Context()).text
    state.update(top="YS", color="Y")
    assert "play a card on YS (yellow Skip)" in prompt_for(state, Context()).text


def test_a_long_log_line_wraps_inside_the_log_box_at_80_columns(screen):
    session = open_play_session(TableSettings(players=TEN[:2], seed=5, launcher="sim"), night=Session)
    words = [f"w{n:04d}" for n in range(26)]  # 13 to a 77-column row: more than the box shows

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            session.emit(*(f"filler {n}" for n in range(20)))  # the log overflows: a scroll bar shows
            session.emit(" ".join(words))  # written while the game runs, as every event is
            await pilot.pause()
            return screen(app)

    text = " ".join(asyncio.run(scenario()))
    cut = [word for word in words if word not in text]
    assert cut == [], f"cut off the screen: {cut}"


def ten_owing():
    """Ten seats at 80x24, Ann owing 2 presses (S4 RH) and the others 4 each (P1): the longest notes."""
    session = open_play_session(TableSettings(players=TEN, seed=5, launcher="sim"), night=Session)
    session.submit("deal Jo")
    session.submit("flip RH")
    for name in TEN[1:]:
        session.submit(f"penalty {name} advice")
    return session


def test_12_ten_seats_owing_presses_keep_one_row_each_and_the_prompt_in_view(typer, screen):
    """Issue 13.12: the seats' notes wrapped to two rows each and pushed the log and the prompt off screen."""
    session = ten_owing()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await typer(pilot, "help")
            return screen(app)

    rows = asyncio.run(scenario())
    text = "\n".join(rows)
    panel = rows[: next(n for n, row in enumerate(rows) if row.startswith("╰"))]  # the players panel
    seat_rows = [row for row in panel if any(f" {name} " in row[:40] for name in TEN)]
    assert len(seat_rows) == len(TEN), text  # one row a seat, none wrapped
    assert "owes 2" in seat_rows[0] and all("owes 4" in row for row in seat_rows[1:]), text
    assert "NEXT: Ann: press the launcher button" in text
    assert "Top card:  RH  red Hit 2" in text and "Turn:      Ann" in text
    # the log still shows its newest event: the help, longer than the log, from its first line (issue 26)
    assert "Type a card for the player whose turn it is" in text
    assert "^p press" in rows[-1]


def test_12_a_1200_character_line_is_refused_with_its_reason_and_the_prompt_in_view(screen):
    """Issue 13.12: the echo of a 1,200-character line filled the screen; now it is quoted shortened, and
    the reason and the prompt stay on screen."""
    session = ten_owing()

    async def scenario():
        app = TableApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            box = app.query_one("#command")
            box.value = "x" * 1200  # as if pasted
            await pilot.press("enter")
            await pilot.pause()
            return screen(app), app.message

    rows, message = asyncio.run(scenario())
    text = "\n".join(rows)
    assert message.startswith("Not taken: `xxx") and "(1,200 characters)" in message and len(message) < 400
    assert "NEXT: Ann: press the launcher button" in text
    assert "is not understood" in text and "`help` lists the commands" in text
    assert all(f" {name} " in text for name in TEN)
    assert "^p press" in rows[-1]
