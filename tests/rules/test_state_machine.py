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


def test_owed_presses_read_as_pressing_inside_the_turn_state(physical):
    game = physical(first="G7")
    game.play("Bob", "GH")
    assert game.stage == "turn" and game.phase == "pressing"
    assert game.state()["phase"] == "turn" and game.state()["step"] == "pressing"
    game.press("Cy", 0)
    game.press("Cy", 0)
    assert game.phase == "turn" == game.state()["step"]


def test_machine_is_built_once_per_game_over_several_hands(monkeypatch):
    import random

    import unox.rules.game as game_module

    built = []

    class CountingMachine(Machine):
        def __init__(self, *args, **kwargs):
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(game_module, "Machine", CountingMachine)
    game = Game(["A", "B", "C"], mode="dealt", rng=random.Random(1), target=100)
    rng = random.Random(1)
    while game.phase != "game_over":
        if game.phase == "deal":
            game.deal()
        elif game.phase == "flip":
            game.flip(color="red")
        else:
            player = game.presser()
            plays = game.legal_plays(player)
            if plays:
                game.play(player, rng.choice(plays))
            else:
                game.press(player, min(1, game.launcher_cards))
    assert game.hand_number > 1 and built == [1]


# phase changes one call can make in dealt mode; a hand's end passes through hand_over (two triggers)
PHASE_CHANGES = {("deal", "flip"): 1, ("flip", "turn"): 1, ("turn", "deal"): 2, ("turn", "game_over"): 2}


def test_triggers_fire_only_when_the_phase_changes(monkeypatch):
    import random

    from transitions.core import Event

    fired = []
    original = Event.trigger

    def counting(self, model, *args, **kwargs):
        fired.append(self.name)
        return original(self, model, *args, **kwargs)

    monkeypatch.setattr(Event, "trigger", counting)
    game = Game(["A", "B", "C", "D"], mode="dealt", rng=random.Random(7))
    rng = random.Random(7)
    changes = 0
    for _ in range(3000):
        before = game.stage
        if game.stage == "deal":
            game.deal()
        elif game.stage == "flip":
            game.flip(color="blue")
        elif game.stage == "turn":
            player = game.presser()
            plays = game.legal_plays(player)
            if plays and rng.random() < 0.8:
                game.play(player, rng.choice(plays))
            else:
                game.press(player, min(rng.choice([0, 2]), game.launcher_cards))
        else:
            break
        changes += PHASE_CHANGES.get((before, game.stage), 0)
    assert len(fired) == changes
    assert changes >= 4  # at least a deal and a first card: the count compared above is not empty
    assert changes < 3000 / 10  # far fewer triggers than actions
