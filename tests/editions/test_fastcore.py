"""The fast core plays exactly the rules of `Game`: both are driven side by side through whole classic games
of random decisions, from the same seed, and compared after every call (hands in order, launcher, pile, top,
colour, whose turn, owed draws, challenge, scores)."""

from __future__ import annotations

import random

import pytest
from unox.rules.editions import get_rules
from unox.rules.fastcore import FastClassic, play_random_game
from unox.rules.game import Game

CLASSIC = get_rules("classic")


def same(core: FastClassic, game: Game) -> None:
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
    assert state["top"] == codes[core.top] and state["color"] == CLASSIC.color_words[core.tcolor]
    assert state["owed"] == [{"player": names[e[0]], "draws": e[1]} for e in core.owed]
    assert state["turn"] == names[core.presser] and state["plays_next"] == names[core.turn]
    assert state["direction"] == ("left" if core.direction == 1 else "right")
    assert game.challenge_open == (names[core.challenge[0]] if core.challenge else None)


def lockstep(seed: int, players: int) -> int:
    """Plays one whole game on both; returns the number of calls compared."""
    names = [f"P{s + 1}" for s in range(players)]
    game = Game(names, mode="dealt", rng=random.Random(seed), ruleset="classic", target=200)
    core = FastClassic(CLASSIC, players, random.Random(seed), target=200, same_shuffle=True)
    pick = random.Random(seed + 1).random
    words = CLASSIC.color_words
    calls = 0
    while core.winner is None:
        core.hand_over = False
        core.deal()
        game.deal()
        color = int(pick() * 4)
        while not core.flip(color):
            game.flip(None, words[color])
        game.flip(None, words[color])
        same(core, game)
        while not core.hand_over:
            calls += 1
            if core.owed:
                seat = core.owed[0][0]
                if core.challenge is not None and core.challenge[0] == seat and pick() < 0.5:
                    core.challenge_now()
                    game.challenge(names[seat])
                else:
                    due = core.owed[0][1]
                    if due > len(core.stack) and len(core.piled) > 1:
                        core.reload()
                        game.reload()
                    fired = min(due, len(core.stack))
                    core.draw(seat, fired)
                    game.draw(names[seat], fired)
                same(core, game)
                continue
            seat = core.turn
            legal = core.legal(seat)
            offered = {p.card for p in game.legal_plays(names[seat])}
            assert {core.codes[c] for c in legal} == offered
            if legal and pick() < 0.85:
                card = legal[int(pick() * len(legal))]
                color = int(pick() * 4)
                if len(core.hands[seat]) == 2 and pick() < 0.5:
                    core.uno(seat)
                    game.uno(names[seat])
                core.play(seat, card, color)
                wild = core.codes[card].startswith("W")
                game.play(names[seat], core.codes[card], words[color] if wild else None)
                if core.catchable == seat and pick() < 0.5:
                    by = names[(seat + 1) % players]
                    core.catch(seat)
                    game.catch(names[seat], by)
            elif core.drawn == seat:
                core.pass_turn(seat)
                game.pass_turn(names[seat])
            else:
                if len(core.stack) == 0 and len(core.piled) > 1:
                    core.reload()
                    game.reload()
                fired = min(1, len(core.stack))
                core.draw(seat, fired)
                game.draw(names[seat], fired)
            same(core, game)
    assert game.winner == names[core.winner]
    return calls


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 7), (5, 10)])
def test_the_fast_core_and_the_game_agree_call_by_call(seed, players):
    assert lockstep(seed, players) > 100


def test_the_benchmarks_random_game_ends_with_a_winner():
    core = play_random_game(CLASSIC, 4, seed=3)
    assert core.winner is not None and core.scores[core.winner] >= 500 and core.turns > 100


def test_an_edition_with_special_cards_is_refused():
    class Special(type(CLASSIC)):
        name = "special"
        game_kinds = frozenset({"skip"})

    with pytest.raises(ValueError, match="use Game"):
        FastClassic(Special(), 4, random.Random(1))


class Logged(FastClassic):
    """The fast core, recording every call that changes it (the benchmark loop calls only these)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.log = []

    def __getattribute__(self, name):
        attr = super().__getattribute__(name)
        if name in ("deal", "flip", "play", "draw", "pass_turn", "challenge_now", "uno", "catch", "reload"):
            log = super().__getattribute__("log")

            def logged(*args):
                log.append((name, *args))
                return attr(*args)

            return logged
        return attr


@pytest.mark.parametrize("seed", [1, 2])
def test_the_benchmarks_game_replays_on_game_to_the_same_end(seed):
    """Every call of `play_random_game`'s loop, replayed on `Game`, is accepted and ends the same way."""
    core = play_random_game(CLASSIC, 4, seed, core=Logged, same_shuffle=True)
    names = ["P1", "P2", "P3", "P4"]
    import random as _random

    rng = _random.Random(seed)
    game = Game(names, mode="dealt", rng=_random.Random(rng.getrandbits(64)), ruleset="classic")
    words = CLASSIC.color_words
    for name, *args in core.log:
        if name == "deal":
            game.deal()
        elif name == "flip":
            game.flip(None, words[args[0]])
        elif name == "play":
            seat, card, color = args
            code = core.codes[card]
            game.play(names[seat], code, words[color] if code.startswith("W") else None)
        elif name == "draw":
            game.draw(names[args[0]], args[1])
        elif name == "pass_turn":
            game.pass_turn(names[args[0]])
        elif name == "challenge_now":
            game.challenge(game.challenge_open)
        elif name == "uno":
            game.uno(names[args[0]])
        elif name == "catch":
            game.catch(names[args[0]], next(p for p in names if p != names[args[0]]))
        elif name == "reload":
            game.reload()
    assert len(core.log) > 500
    assert game.phase == "game_over" and game.winner == names[core.winner]
    assert game.state()["scores"] == dict(zip(names, core.scores, strict=True))
