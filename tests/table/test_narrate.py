"""One narration: the lines for an accepted request come from the request and the states around it.

Expectations are read off the states and requests given (names, cards, counts), never copied from output.
"""

from unox.table import narrate

from .tablekit import PLAYERS, accept, new_table, started


def turn_state(**changes):
    state = {
        "phase": "turn", "turn": "Bob", "direction": "left", "top": "G7", "color": "G",
        "hands": {"Ann": 7, "Bob": 7, "Cy": 7}, "owed": [], "uno": [], "scores": dict.fromkeys(PLAYERS, 0),
        "winner": None, "launcher": {"cards": 90}, "dropped": [],
    }
    state.update(changes)
    return state


def test_T3_a_press_counts_the_fired_cards_from_the_launcher_and_names_what_is_still_owed():
    before = turn_state(owed=[{"player": "Cy", "presses": 2}])
    after = turn_state(owed=[{"player": "Cy", "presses": 1}], hands={"Ann": 7, "Bob": 7, "Cy": 10},
                       launcher={"cards": 87})
    lines = narrate.describe({"cmd": "press", "player": "Cy"}, before, after)
    fired = before["launcher"]["cards"] - after["launcher"]["cards"]
    assert lines[0].startswith("Cy presses") and f"{fired} cards fired" in lines[0]
    assert str(after["hands"]["Cy"]) in lines[0]
    assert any("Cy owes 1 press" in line and "presses" not in line.split("owes")[1] for line in lines[1:])


def test_T3_a_press_that_fires_nothing_says_so():
    state = turn_state(owed=[{"player": "Cy", "presses": 1}])
    line = narrate.describe({"cmd": "press", "player": "Cy", "fired": 0}, state, turn_state())[0]
    assert "Cy" in line and "nothing fired" in line


def test_G1_a_play_that_ends_the_game_reports_direction_hand_end_and_winner():
    before = turn_state(hands={"Ann": 1, "Bob": 7, "Cy": 7})
    after = turn_state(phase="game_over", direction="right", hands={"Ann": 0, "Bob": 7, "Cy": 7},
                       scores={"Ann": 510, "Bob": 0, "Cy": 0}, winner="Ann")
    lines = narrate.describe({"cmd": "play", "player": "Ann", "card": "G3"}, before, after)
    assert "Ann" in lines[0] and "G3" in lines[0]
    assert any("Ann" in line and "gone out" in line for line in lines[1:])
    assert "Ann" in lines[-1] and str(after["scores"]["Ann"]) in lines[-1] and "wins" in lines[-1]


def test_S4_a_trade_hands_first_card_goes_back_and_the_log_says_turn_up_another():
    before = turn_state(phase="flip", top=None, color=None)
    line = narrate.describe({"cmd": "flip", "card": "RT"}, before, dict(before))[0]
    assert "RT" in line and "S4" in line and "another" in line


def test_G3_players_who_reach_the_limit_are_announced_out():
    before = turn_state(hands={"Ann": 1, "Bob": 7, "Cy": 7})
    after = turn_state(phase="deal", hands={"Ann": 0, "Bob": 7, "Cy": 7}, dropped=["Bob"],
                       scores={"Ann": 0, "Bob": 520, "Cy": 100})
    lines = narrate.describe({"cmd": "play", "player": "Ann", "card": "G3"}, before, after)
    out = [line for line in lines if "limit" in line]
    assert len(out) == 1 and "Bob" in out[0] and "Cy" not in out[0]


def test_R2_the_launcher_reaching_zero_cards_asks_for_a_reload_once():
    before = turn_state(launcher={"cards": 1})
    after = turn_state(launcher={"cards": 0}, hands={"Ann": 7, "Bob": 7, "Cy": 8})
    lines = narrate.describe({"cmd": "press", "player": "Cy", "fired": 1}, before, after)
    assert sum("R2" in line and "reload" in line for line in lines) == 1
    again = narrate.describe({"cmd": "uno", "player": "Ann"}, after, dict(after))
    assert not any("R2" in line for line in again)


def test_undone_names_the_request_taken_back():
    before = turn_state(turn="Cy", hands={"Ann": 7, "Bob": 6, "Cy": 7})
    after = turn_state()
    line = narrate.undone({"cmd": "play", "player": "Bob", "card": "G5"}, before, after)
    assert line.startswith("Undone") and "Bob" in line and "G5" in line


def test_the_runtime_listeners_hear_exactly_the_narration_of_each_accepted_request():
    table = new_table()
    heard: list[str] = []
    table.listeners.append(heard.append)
    expected: list[str] = []
    requests = (
        {"cmd": "deal", "dealer": "Ann"}, {"cmd": "flip", "card": "G7"},
        {"cmd": "play", "player": "Bob", "card": "G3"}, {"cmd": "press", "player": "Cy", "fired": 2},
    )
    for request in requests:
        before = table.state()
        after = accept(table, **request)
        expected += narrate.describe(request, before, after)
    assert heard == expected


def test_the_runtime_announces_an_undo_with_the_shared_wording():
    table = new_table()
    started(table)
    heard: list[str] = []
    table.listeners.append(heard.append)
    before = table.state()
    reply = table.undo()
    assert heard == [narrate.undone(reply["undone"], before, reply["state"])]
