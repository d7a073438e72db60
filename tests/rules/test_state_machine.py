"""The machine: phases as states, one Machine per game, and a checked-in diagram that matches it."""

from pathlib import Path

from transitions import Machine
from unox.cli.main import main
from unox.rules.game import Game
from unox.rules.machine import STATES, TRANSITIONS, state_machine_page

DOC = Path(__file__).resolve().parents[2] / "docs" / "state-machine.md"


def test_checked_in_diagram_is_current():
    assert DOC.read_text(encoding="utf-8") == state_machine_page(), (
        "docs/state-machine.md is stale: run `unox rules diagram --write docs/state-machine.md`"
    )


def test_diagram_shows_every_state_and_transition():
    page = state_machine_page()
    assert "stateDiagram-v2" in page and "title: " in page
    for state in STATES:
        assert f'state "{state}" as {state}' in page
    for t in TRANSITIONS:
        sources = t["source"] if isinstance(t["source"], list) else [t["source"]]
        for source in sources:
            assert f"{source} --> {t['dest']}: {t['trigger']}" in page


def test_game_machine_is_a_plain_machine_with_the_declared_triggers():
    game = Game(["Ann", "Bob"])
    machine = game.machine
    assert isinstance(machine, Machine) and type(machine) is Machine
    assert set(machine.events) == {t["trigger"] for t in TRANSITIONS}
    assert list(machine.states) == STATES
    assert game.phase == "deal"


def test_cli_prints_and_writes_the_page(tmp_path, capsys):
    assert main(["rules", "diagram"]) == 0
    assert capsys.readouterr().out == state_machine_page()
    target = tmp_path / "sm.md"
    assert main(["rules", "diagram", "--write", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == state_machine_page()


def test_cli_lists_error_codes(capsys):
    from unox.rules.errors import ERROR_CODES

    assert main(["rules", "errors"]) == 0
    out = capsys.readouterr().out
    assert all(code in out for code in ERROR_CODES)
