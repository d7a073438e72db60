"""Issue 13, item 16: the fast Extreme core plays exactly the rules of `Game`. Both are driven side by side
through whole dealt-mode games of random decisions (plays of every kind, T2 presses, owed presses of A1, A7,
A8 and U2, R1 reloads, UNO calls and catches), from the same seed, and compared after every call: hands in
order, launcher, pile, top, colour, whose turn, the direction, owed presses, the catch window, scores."""

from __future__ import annotations

import random

import pytest
from unox.profiles import get_profile
from unox.rules.editions import get_rules
from unox.rules.fastextreme import TRADE, WILD, FastExtreme, play_random_game
from unox.rules.game import Game

EXTREME = get_rules("extreme")


def same(core: FastExtreme, game: Game) -> None:
    codes = core.codes
    names = list(game.players)
    cards = game.cards
    assert {p: [c.code for c in cards.hands[p]] for p in names} == {
        names[s]: [codes[c] for c in core.hands[s]] for s in range(core.n)}
    assert [c.code for c in cards.stack] == [codes[c] for c in core.stack]
    assert [c.code for c in cards.piled] == [codes[c] for c in core.piled]
    state = game.state()
    assert state["scores"] == {names[s]: core.scores[s] for s in range(core.n)}
    if game.phase in ("deal", "game_over"):
        return
    assert state["top"] == codes[core.top] and state["color"] == EXTREME.color_words[core.tcolor]
    assert state["owed"] == [{"player": names[e[0]], "presses": e[1]} if e[1] is not None
                             else {"player": names[e[0]], "until_fire": True} for e in core.owed]
    assert state["turn"] == names[core.presser] and state["plays_next"] == names[core.turn]
    assert state["direction"] == ("left" if core.direction == 1 else "right")
    assert state["uno"] == ([names[core.catchable]] if core.catchable is not None else [])
    assert state["must_match"] == core.must_match


def lockstep(seed: int, players: int) -> int:
    """One whole game on both; returns the number of calls compared."""
    names = [f"P{s + 1}" for s in range(players)]
    game = Game(names, mode="dealt", rng=random.Random(seed), target=300)
    core = FastExtreme(EXTREME, players, random.Random(seed), target=300, same_shuffle=True)
    pick = random.Random(seed + 1).random
    words = EXTREME.color_words
    calls = 0
    while core.winner is None:
        core.deal()
        game.deal()
        color = int(pick() * 4)
        while not core.flip(color):
            game.flip(None, words[color])
        game.flip(None, words[color])
        same(core, game)
        while not core.hand_over:
            calls += 1
            seat = core.presser
            legal = core.legal(seat)
            offered = {p.card for p in game.legal_plays(names[seat])}
            assert {core.codes[c] for c in legal} == offered
            if legal and pick() < 0.8:
                card = legal[int(pick() * len(legal))]
                kind = core.kind[card]
                color = int(pick() * 4)
                target = (seat + 1 + int(pick() * (players - 1))) % players if kind == TRADE else None
                if len(core.hands[seat]) == 2 and pick() < 0.5:
                    core.uno(seat)
                    game.uno(names[seat])
                core.play(seat, card, color, target)
                game.play(names[seat], core.codes[card], words[color] if kind >= WILD else None,
                          names[target] if target is not None else None)
                if core.catchable == seat and pick() < 0.5:
                    core.catch(seat)
                    game.catch(names[seat], names[(seat + 1) % players])
            elif not (core.must_match and legal):  # S4 Discard All: a matching card must be played
                if pick() < 0.1 and len(core.piled) > 1:
                    core.reload()
                    game.reload()
                    same(core, game)
                fired = min(int(pick() * 7), len(core.stack))
                core.press(seat, fired)
                game.press(names[seat], fired)
            same(core, game)
    assert game.winner == names[core.winner]
    return calls


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 6), (5, 10)])
def test_the_fast_extreme_core_and_the_game_agree_call_by_call(seed, players):
    assert lockstep(seed, players) > 100


class Logged(FastExtreme):
    """The fast core, recording every call that changes it (the simulation's loop calls only these)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.log = []

    def __getattribute__(self, name):
        attr = super().__getattribute__(name)
        if name in ("deal", "flip", "play", "press", "uno", "catch", "reload"):
            log = super().__getattribute__("log")

            def logged(*args):
                log.append((name, *args))
                return attr(*args)

            return logged
        return attr


def replay(core: Logged, seed: int) -> Game:
    names = [f"P{s + 1}" for s in range(core.n)]
    rng = random.Random(seed)
    game = Game(names, mode="dealt", rng=random.Random(rng.getrandbits(64)), target=core.target)
    words = EXTREME.color_words
    for name, *args in core.log:
        if name == "deal":
            game.deal()
        elif name == "flip":
            game.flip(None, words[args[0]])
        elif name == "play":
            seat, card, color, target = args
            code = core.codes[card]
            game.play(names[seat], code, words[color] if code.startswith("W") else None,
                      names[target] if target is not None else None)
        elif name == "press":
            game.press(names[args[0]], args[1])
        elif name == "uno":
            game.uno(names[args[0]])
        elif name == "catch":
            game.catch(names[args[0]], next(p for p in names if p != names[args[0]]))
        elif name == "reload":
            game.reload()
    return game


@pytest.mark.parametrize(("seed", "players"), [(1, 4), (2, 2), (3, 7)])
def test_the_simulations_game_replays_on_game_to_the_same_end(seed, players):
    """Every call of the random game `unox sim` plays, with the measured eject profile, is accepted by `Game`
    and ends the same way."""
    profile = get_profile("measured", rng=random.Random(seed))
    core = play_random_game(EXTREME, players, seed, profile.next_count, 300, core=Logged, same_shuffle=True)
    game = replay(core, seed)
    assert len(core.log) > 50 and core.hand_number >= 1
    assert game.phase == "game_over" and game.winner == f"P{core.winner + 1}"
    assert game.state()["scores"] == {f"P{s + 1}": core.scores[s] for s in range(players)}


def test_an_edition_other_than_extreme_is_refused():
    with pytest.raises(ValueError, match="use Game"):
        FastExtreme(get_rules("classic"), 4, random.Random(1))
