"""Every launcher fault has one instruction, shared by the table log, the UI prompt, press and diagnose."""

from unox.launcher.base import FAULTS
from unox.launcher.faults import FAULT_ACTIONS, fault_action
from unox.table.narrate import fault_action as log_sentence


def test_every_fault_the_drivers_report_has_an_instruction():
    assert set(FAULT_ACTIONS) == set(FAULTS)
    for fault in FAULTS:
        assert fault_action(fault) == FAULT_ACTIONS[fault]


def test_L4_empty_says_reload_and_T4_stuck_says_the_presser_takes_the_card():
    assert "reload" in fault_action("empty") and "R2" in fault_action("empty")
    assert "belongs to the player who pressed" in fault_action("stuck")
    assert "not counted" in fault_action("jam")  # docs/protocol.md: a wedged card is no fired card


def test_an_unknown_fault_is_named_with_what_to_do():
    text = fault_action("smoke")
    assert "'smoke'" in text and "check it" in text


def test_the_table_log_turns_the_instruction_into_a_sentence():
    sentence = log_sentence("lid")
    assert sentence[0].isupper() and sentence.endswith(".")
    assert sentence.lower().startswith(FAULT_ACTIONS["lid"].lower())
    assert log_sentence("empty").endswith('Send {"cmd":"reload"} once it is loaded.')
