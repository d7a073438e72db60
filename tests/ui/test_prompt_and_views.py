"""The prompt line names who must act and how; the panels show every field of S."""

from unox.launcher.faults import FAULT_ACTIONS
from unox.table.night_context import next_seat
from unox.ui.prompt import Context, prompt_for
from unox.ui.views import player_rows, render_state, table_lines

PLAYERS = ["Ann", "Bob", "Cy"]


def turn_state(**changes):
    state = {
        "phase": "turn", "turn": "Bob", "direction": "left", "top": "G7", "color": "G",
        "hands": {"Ann": 7, "Bob": 7, "Cy": 7}, "owed": [], "uno": [], "scores": dict.fromkeys(PLAYERS, 0),
        "winner": None, "launcher": {"cards": 90},
    }
    state.update(changes)
    return state


def test_T2_turn_prompt_names_the_turn_player_and_both_choices():
    prompt = prompt_for(turn_state(), Context(sim=True))
    assert prompt.who == "Bob"
    assert "G7" in prompt.text and "green" in prompt.text
    assert "press the launcher button" in prompt.text and "type press on the simulated one" in prompt.text


def test_A1_owed_presses_name_the_presser_not_the_turn_player():
    state = turn_state(owed=[{"player": "Cy", "presses": 2}])
    prompt = prompt_for(state, Context())
    assert prompt.who == "Cy" and "2 presses owed" in prompt.text


def test_A8_hit_fire_prompt_says_until_cards_come_out():
    prompt = prompt_for(turn_state(owed=[{"player": "Ann", "until_fire": True}]), Context())
    assert prompt.who == "Ann" and "until cards come out" in prompt.text


def test_U2_uno_window_is_announced_on_the_prompt():
    prompt = prompt_for(turn_state(uno=["Ann"], hands={"Ann": 1, "Bob": 7, "Cy": 7}), Context())
    assert "Ann may call UNO" in prompt.text


def test_every_fault_overrides_the_prompt_with_what_to_do():
    for fault, help_text in FAULT_ACTIONS.items():
        prompt = prompt_for(turn_state(), Context(fault=fault))
        assert prompt.who is None and help_text in prompt.text


def test_S1_deal_prompt_lists_who_still_draws_then_names_the_dealer():
    state = turn_state(phase="deal", turn=None)
    assert "still to draw: Bob, Cy" in prompt_for(state, Context(draws={"Ann": "G7"})).text
    assert prompt_for(state, Context(dealer="Cy")).who == "Cy"
    assert prompt_for(turn_state(phase="flip"), Context(dealer="Cy")).who == "Cy"


def test_R1_reload_advice_joins_the_turn_prompt():
    prompt = prompt_for(turn_state(), Context(reload_due=True))
    assert prompt.who == "Bob" and "then type reload" in prompt.text


def test_hand_over_and_game_over_prompts():
    assert "score Ann=0" in prompt_for(turn_state(phase="hand_over"), Context()).text
    assert "Cy wins" in prompt_for(turn_state(phase="game_over", winner="Cy"), Context()).text


def test_S3_the_next_dealer_is_the_seat_to_the_left_skipping_G3_dropouts():
    assert next_seat(PLAYERS, "Ann") == "Bob" and next_seat(PLAYERS, "Cy") == "Ann"
    assert next_seat(PLAYERS, "Ann", active=["Ann", "Cy"]) == "Cy"


def test_panels_show_turn_owed_uno_and_scores():
    state = turn_state(owed=[{"player": "Cy", "presses": 2}], uno=["Ann"],
                       hands={"Ann": 1, "Bob": 5, "Cy": 9}, scores={"Ann": 40, "Bob": 0, "Cy": 12})
    rows = {row[1]: row for row in player_rows(state)}
    assert rows["Bob"][0] == "▶" and rows["Ann"][0] == "" and rows["Bob"][4] == "to play"
    assert rows["Ann"][2:4] == ("1", "40") and "catchable" in rows["Ann"][4]
    assert "owes 2 presses" in rows["Cy"][4]
    text = "\n".join(table_lines(state))
    assert "Top card:  G7  green 7" in text and "clockwise" in text and "Cy owes 2 presses" in text
    whole = render_state(state, Context(fault="jam"))
    assert "Launcher:  90 cards inside" in whole and "JAM" in whole


def test_7_a_wild_on_top_is_spelled_out_with_its_colour():
    text = "\n".join(table_lines(turn_state(top="WA", color="R")))
    assert "Top card:  WA  red, Wild All Hit" in text
    assert "Top card:  RD  red Discard All" in "\n".join(table_lines(turn_state(top="RD", color="R")))


def test_7_after_a_jam_the_prompt_says_who_presses_again():
    prompt = prompt_for(turn_state(), Context(fault="jam", presser="Cy"))
    assert prompt.text.startswith("LAUNCHER: the launcher jammed")
    assert "(Cy is the one to press again)" in prompt.text
