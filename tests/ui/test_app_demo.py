"""`unox demo` in the table UI: the bots play a whole game on the simulated launcher, with no pacing."""

import asyncio

from unox.table.demo import open_demo
from unox.ui.app import TableApp
from unox.ui.session import Session


def test_the_demo_plays_a_whole_game_in_the_ui_to_the_target():
    session, driver = open_demo(players=3, seed=9, target=150, night=Session)

    async def scenario():
        app = TableApp(session, autoplay=driver.step, pace=0.0)
        async with app.run_test(size=(120, 45)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause()
            return app.prompt_text(), str(app.query_one("#table").render())

    prompt, table_panel = asyncio.run(scenario())
    state = session.state
    assert state["phase"] == "game_over"
    winner = state["winner"]
    assert state["scores"][winner] >= 150 > max(v for p, v in state["scores"].items() if p != winner)
    assert prompt == f"NEXT: game over: {winner} wins. Type quit to leave."
    assert f"Winner:    {winner}" in table_panel
    assert session.log[-1].startswith(f"Game over: {winner} wins")


def test_the_demo_ui_and_the_plain_transcript_tell_the_same_game():
    import io

    from unox.ui.plain import run_demo_plain

    plain_session, plain_driver = open_demo(players=4, seed=21, target=100, night=Session)
    out = io.StringIO()
    run_demo_plain(plain_session, plain_driver.step, out)
    ui_session, ui_driver = open_demo(players=4, seed=21, target=100, night=Session)

    async def scenario():
        app = TableApp(ui_session, autoplay=ui_driver.step, pace=0.0)
        async with app.run_test(size=(120, 45)):
            await app.workers.wait_for_complete()

    asyncio.run(scenario())
    assert ui_session.log == out.getvalue().splitlines()
    assert ui_session.state == plain_session.state
