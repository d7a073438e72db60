"""The table with the simulated launcher: the real firmware and link on virtual time fire the cards, and the
beam's counts are what the rules and the journal get (issue 4, section 1)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from unox.launcher import open_launcher
from unox.table.journal import Journal
from unox.table.runtime import Table

from .tablekit import DECK, HAND, PLAYERS, accept, new_table, started

AFTER_FLIP = DECK - HAND * len(PLAYERS) - 1
CLEAN_SIM = f"sim:?seed=2&cards={AFTER_FLIP}&jam=0&double=0&stuck=0"


@pytest.fixture
def sim():
    launcher = open_launcher(CLEAN_SIM)
    yield launcher
    launcher.close()


def test_T4_every_card_the_simulator_ejects_lands_in_a_hand_and_leaves_the_estimate(sim):
    table = new_table(launcher=sim, seed=11)
    started(table)
    fired = 0
    for _ in range(12):
        reply = table.button()
        assert reply["ok"], reply
        fired += reply["launcher"]["fired"]
    state = table.state()
    assert fired > 0, "twelve presses of the measured profile fire at least once"
    assert sim.device.model.ejected == fired
    assert sum(state["hands"].values()) == HAND * len(PLAYERS) + fired
    assert state["launcher"]["cards"] == AFTER_FLIP - fired


def test_A8_hit_fire_on_the_simulator_ends_with_cards_out(sim):
    table = new_table(launcher=sim, seed=4)
    started(table)
    accept(table, cmd="play", player="Bob", card="WF", color="green")
    reply = table.button()
    assert reply["launcher"]["fired"] >= 1
    assert reply["state"]["owed"] == []
    assert reply["state"]["hands"]["Cy"] == HAND + reply["launcher"]["fired"]


def test_L4_an_empty_simulated_hopper_is_a_fault_and_the_press_does_not_count():
    launcher = open_launcher("sim:?seed=1&cards=0&jam=0&double=0&stuck=0")
    table = new_table(launcher=launcher, seed=3)
    started(table)
    accept(table, cmd="play", player="Bob", card="WF", color="green")
    before = table.state()
    reply = table.button()
    launcher.close()
    assert reply["ok"] is False
    assert reply["error"]["code"] == "launcher_fault"
    assert reply["launcher"]["fault"] == "empty"
    assert '"cmd":"reload"' in reply["launcher"]["action"]
    assert reply["state"] == before


def test_cli_fires_the_simulator_for_presses_without_fired_and_resumes_without_firing(tmp_path):
    path = tmp_path / "t.db"
    lines = [
        {"cmd": "deal", "dealer": "Ann"},
        {"cmd": "flip", "card": "B2"},
        {"cmd": "press"},
        {"cmd": "press", "player": "Cy"},
        {"cmd": "press"},
        {"cmd": "press", "player": "Cy"},
    ]
    run = subprocess.run(
        [sys.executable, "-m", "unox", "table", "--players", "Ann,Bob,Cy", "--launcher", CLEAN_SIM,
         "--seed", "5", "--journal", str(path)],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    replies = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(replies) == len(lines)
    assert [r["ok"] for r in replies] == [True, True, True, True, True, False]
    assert replies[-1]["error"]["code"] == "not_owed"  # it is Ann's turn again, not Cy's
    fired = [r["launcher"]["fired"] for r in replies[2:5]]
    with Journal(path) as journal:
        presses = [e for e in journal.entries() if e["cmd"] == "press"]
    assert presses == [
        {"cmd": "press", "player": p, "fired": k} for p, k in zip(("Bob", "Cy", "Ann"), fired, strict=True)
    ]
    resumed = Table.resume(path, launcher=None)
    assert resumed.state() == replies[-1]["state"]
    resumed.close()
