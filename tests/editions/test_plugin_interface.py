"""The plug-in interface: editions are found by name, and an edition that is one new class (here a toy
built on classic, never registered) gets its own requests, its pending choice and its state through the
table protocol without any change elsewhere."""

from __future__ import annotations

import random

import pytest
from unox.rules.editions import DEFAULT_RULES, get_rules, rule_names
from unox.rules.editions.classic import ClassicRules
from unox.rules.errors import RuleError
from unox.rules.game import Game
from unox.rules.ruleset import RequestField, Ruleset
from unox.table.runtime import Table

from .kit import accept, refuse, send


class ToyRules(ClassicRules):
    """Classic, except that a Skip's player then names someone who draws 1 (request `zap`)."""

    name = "toy"
    title = "UNO Toy"
    game_kinds = frozenset({"skip"})
    requests = {"zap": {"player": RequestField("player", hint='"player":"Ann"'),
                        "target": RequestField("player", hint='"target":"Cy"')},
                "peek": {"player": RequestField("player", hint='"player":"Ann"'),
                         "fired": RequestField("count", hint='"fired":1')}}

    def after_play(self, game, player, card):
        game.pending = {"cmd": "zap", "player": player, "why": "a Skip zaps someone"}

    def call(self, game, cmd, fields):
        if cmd == "peek":  # DL3-style: the turn player turns a card up from the launcher onto the pile
            if fields["player"] != game.order.turn_player:
                raise RuleError("not_your_turn", "only the turn player peeks: wait for your turn")
            if fields["fired"] not in (0, 1):
                raise RuleError("bad_fired", "a peek turns up one card: fired 0 or 1")
            game.cards.launcher -= fields["fired"]
            game.cards.pile += fields["fired"]
            return
        pending = game.pending
        if pending is None or pending["player"] != fields["player"]:
            raise RuleError("nothing_to_challenge", "no zap is due from that player: play on")
        if fields["target"] == fields["player"]:
            raise RuleError("bad_target", "zap another player, not yourself")
        game.pending = None
        game.order.owe(game.seat_of(fields["target"]), 1)
        game.end_hand_if_out()

    def fire_due(self, game, cmd, fields):
        return 1 if game.order.turn_player == fields["player"] else 0

    def state_extra(self, game):
        return {"zaps_due": 1 if game.pending else 0}


def toy_table() -> Table:
    game = Game(["Ann", "Bob", "Cy", "Dee"], ruleset=ToyRules())
    game.deal("Ann")
    game.flip("G7")
    return Table(game)


def test_editions_are_found_by_module_name_with_extreme_the_default():
    names = rule_names()
    assert names[0] == DEFAULT_RULES == "extreme" and "classic" in names
    for name in names:
        rules = get_rules(name)
        assert isinstance(rules, Ruleset) and rules.name == name and rules.title
        assert all(code in rules.cards for code in rules.deck)
        assert set(rules.effect_table()) == set(rules.first_table()) == {c.kind for c in rules.cards.values()}


def test_an_unknown_edition_is_refused_with_the_list():
    with pytest.raises(RuleError) as info:
        Game(["Ann", "Bob"], ruleset="uno-flip")
    assert info.value.code == "bad_setup" and "classic" in info.value.message


def test_a_new_edition_adds_its_own_request_and_pending_choice():
    table = toy_table()
    assert send(table, cmd="zap", player="Bob", target="Cy")["ok"] is False  # nothing pending: refused
    state = accept(table, cmd="play", player="Bob", card="GS")
    assert state["pending"] == {"cmd": "zap", "player": "Bob", "why": "a Skip zaps someone"}
    assert state["zaps_due"] == 1
    refuse(table, "pending_choice", cmd="draw", player="Dee", fired=1)
    refuse(table, "pending_choice", cmd="play", player="Dee", card="G2")
    refuse(table, "bad_target", cmd="zap", player="Bob", target="Bob")
    refuse(table, "bad_request", cmd="zap", player="Bob")  # its fields are checked by the table
    refuse(table, "unknown_player", cmd="zap", player="Bob", target="Zed")
    state = accept(table, cmd="zap", player="Bob", target="Cy")
    assert state["pending"] is None and state["owed"] == [{"player": "Cy", "draws": 1}]


def test_an_edition_request_is_unknown_at_another_editions_table():
    game = Game(["Ann", "Bob"], ruleset="classic", mode="dealt", rng=random.Random(1))
    assert send(Table(game), cmd="zap", player="Ann", target="Bob")["error"]["code"] == "unknown_cmd"


def test_docs_name_every_edition_and_every_listed_rule_id_has_a_test():
    """docs/rules.md has a section per edition; each rule ID it lists for the editions (C-..., DL...) has a
    test in tests/editions named after it; docs/state-machine.md draws each edition."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    rules_doc = (root / "docs" / "rules.md").read_text()
    machine_doc = (root / "docs" / "state-machine.md").read_text()
    for name in rule_names():
        assert f"`--rules {name}`" in rules_doc and f"(`--rules {name}`)" in machine_doc
    listed = set()
    for cell in re.findall(r"^\| ([^|`]+) \|", rules_doc, flags=re.M):
        listed |= set(re.findall(r"\b(?:[A-Z]{1,2}-[A-Z0-9]+|DL\d)\b", cell))
    assert {"DL1", "DL2", "C-D1", "C-A2", "C-A7", "C-P2", "C-2P2", "C-V2"} <= listed
    source = "\n".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))
    names = re.findall(r"def (test_\w+)", source)
    for rule in listed:
        tag = rule.replace("-", "_")
        assert any(n.startswith(f"test_{tag}_") or f"_{tag}_" in n for n in names), rule


def test_an_editions_request_with_fired_makes_the_launcher_fire_what_the_edition_says(sim):
    game = Game(["Ann", "Bob", "Cy", "Dee"], ruleset=ToyRules())
    game.deal("Ann")
    game.flip("G7")
    launcher = sim("seed=2&cards=79&jam=0&double=0&stuck=0")
    table = Table(game, launcher=launcher)
    reply = send(table, cmd="peek", player="Bob")
    assert reply["ok"] and reply["launcher"] == {"requested": 1, "fired": 1, "fault": None}
    assert reply["state"]["discard"] == 2 and reply["state"]["launcher"]["cards"] == 78
    assert table.entries[-1] == {"cmd": "peek", "player": "Bob", "fired": 1}
    assert launcher.device.model.ejected == 1
    refuse(table, "bad_fired", cmd="peek", player="Bob", fired=2)
    assert send(table, cmd="peek", player="Dee")["ok"] is False  # not due: refused, nothing fired
    assert launcher.device.model.ejected == 1
