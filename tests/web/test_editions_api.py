"""`unox serve --rules EDITION`: the edition's cards served to the page, and what a phone may send at a draw
edition's table (draw, pass, challenge for itself; an edition's own choice for itself). Rule IDs of
docs/rules.md: C-A1 (Draw Two), C-T2 (the turn's draw, then play or pass), C-A7 (the challenge)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from unox.rules.editions import get_rules, rule_names
from unox.web.client import WebClient
from unox.web.editions import edition, kind_name

from tests.web.conftest import seat


def accepted(client: WebClient, request: dict) -> dict:
    status, reply = client.request(request)
    assert status == 200 and reply["ok"], reply
    return reply


@pytest.mark.parametrize("name", rule_names())
def test_every_editions_cards_are_described_from_its_own_cardset(name):
    rules = get_rules(name)
    described = edition(rules)
    assert described["rules"] == name and described["draws"] == rules.draws
    assert [c["code"] for c in described["colors"]] == list(rules.colors)
    assert {c["code"]: c["name"] for c in described["colors"]} == rules.color_names
    assert [c["code"] for c in described["cards"]] == list(rules.cards)
    for entry in described["cards"]:
        card = rules.cards[entry["code"]]
        assert entry["color"] == card.color and entry["kind"] == card.kind
        assert entry["label"]  # every card prints a face as text, not only a colour
        if card.color is not None:  # colour-blind safe: the name says the colour in words
            assert entry["name"].startswith(rules.color_names[card.color] + " ")
    assert set(described["requests"]) == set(rules.requests)


def test_a_kind_the_page_has_no_name_for_is_named_from_its_own_words():
    assert kind_name("item_wild") == "Item Wild" and kind_name("draw2") == "Draw Two"


def test_serve_rules_classic_serves_classic_cards_in_their_colours_and_names(serve):
    served = serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--rules", "classic", "--no-journal")
    welcome = seat(served, "Ann").state()
    assert welcome["state"]["rules"] == "classic"
    cards = {c["code"]: c for c in welcome["cards"]["cards"]}
    assert cards["R+2"]["name"] == "red Draw Two" and cards["R+2"]["label"] == "+2"
    assert cards["RR"]["name"] == "red Reverse" and cards["RS"]["name"] == "red Skip"
    assert cards["R5"]["name"] == "red 5" and cards["G0"]["name"] == "green 0"
    assert cards["W+4"] == {"code": "W+4", "color": None, "kind": "wild_draw4", "label": "W+4",
                            "name": "Wild Draw Four", "names_color": True}
    assert "RH" not in cards and welcome["cards"]["draws"] is True


def test_serve_without_rules_is_extreme_and_a_bad_edition_is_one_clear_line(serve, tmp_path):
    served = serve("--players", "Ann,Bob", "--launcher", "script", "--no-journal")
    welcome = seat(served, "Bob").state()
    assert welcome["state"]["rules"] == "extreme" and welcome["cards"]["draws"] is False
    assert {c["code"] for c in welcome["cards"]["cards"]} >= {"RH", "GD", "BT", "WA", "WF"}
    done = subprocess.run([sys.executable, "-m", "unox", "serve", "--players", "Ann,Bob", "--rules", "uno-9",
                           "--no-journal", "--host", "127.0.0.1", "--port", "0"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode != 0 and "uno-9" in done.stderr and "classic" in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


def test_serve_takes_a_variant_of_the_edition(serve):
    served = serve("--players", "Ann,Bob", "--launcher", "script", "--rules", "classic",
                   "--variant", "two-player", "--no-journal")
    state = seat(served, "Ann").state()["state"]
    assert state["rules"] == "classic" and state["variant"] == "two-player"


def test_phones_draw_pass_and_challenge_for_themselves_only(serve):
    """C-A1, C-T2, C-A7 through the API with `--launcher script`: each phone says how many it took."""
    served = serve("--players", "Ann,Bob,Cy", "--launcher", "script", "--rules", "classic", "--no-journal")
    op, ann, bob, cy = (seat(served, name) for name in ("operator", "Ann", "Bob", "Cy"))
    accepted(op, {"cmd": "deal", "dealer": "Ann"})
    accepted(op, {"cmd": "flip", "card": "G7"})
    accepted(bob, {"cmd": "play", "player": "Bob", "card": "G+2"})  # C-A1: Cy owes 2 draws
    status, reply = ann.request({"cmd": "draw", "player": "Cy", "fired": 2})
    assert status == 403 and reply["error"]["code"] == "forbidden" and "Ann's" in reply["error"]["message"]
    state = accepted(cy, {"cmd": "draw", "player": "Cy", "fired": 2})["state"]
    assert state["hands"]["Cy"] == 9 and state["turn"] == "Ann"
    state = accepted(ann, {"cmd": "draw", "player": "Ann", "fired": 1})["state"]  # C-T2: the turn's draw
    assert state["drawn"] == "Ann"
    assert bob.request({"cmd": "pass", "player": "Ann"})[0] == 403
    state = accepted(ann, {"cmd": "pass", "player": "Ann"})["state"]
    assert state["turn"] == "Bob" and state["hands"]["Ann"] == 8
    accepted(bob, {"cmd": "play", "player": "Bob", "card": "W+4", "color": "red"})  # C-A7: Cy may challenge
    assert ann.request({"cmd": "challenge", "player": "Cy", "guilty": True})[0] == 403
    state = accepted(cy, {"cmd": "challenge", "player": "Cy", "guilty": False})["state"]
    assert state["owed"] == [{"player": "Cy", "draws": 6}]


def test_a_player_may_not_send_operator_requests_at_a_draw_table(serve):
    served = serve("--players", "Ann,Bob", "--launcher", "script", "--rules", "classic", "--no-journal")
    ann = seat(served, "Ann")
    advice = {"cmd": "penalty", "player": "Bob", "kind": "advice"}
    for request in (advice, {"cmd": "undo"}, {"cmd": "settle", "fired": 1}):
        status, reply = ann.request(request)
        assert status == 403 and "only the operator" in reply["error"]["message"], request


def test_a_draw_without_a_count_is_one_the_host_would_fire_so_beside_the_terminal_ui_it_is_refused():
    """`unox play --web` refuses a phone's request that would fire the launcher the terminal UI owns."""
    from unox.web.server import host_fired

    assert host_fired({"cmd": "draw", "player": "Bob"}) and host_fired({"cmd": "press", "player": "Bob"})
    assert not host_fired({"cmd": "draw", "player": "Bob", "fired": 1})
    assert not host_fired({"cmd": "pass", "player": "Bob"})
