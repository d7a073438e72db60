"""Properties over many random dealt-mode games: cards are conserved, refusals change nothing, hands end."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from unox.rules.errors import ERROR_CODES, RuleError
from unox.rules.extreme import extreme_deck
from unox.rules.game import Game

DECK = sorted(extreme_deck())


def _every_card(game):
    cards = game.cards
    return sorted([c.code for h in cards.hands.values() for c in h] + [c.code for c in cards.stack]
                  + [c.code for c in cards.piled])


def _step(game, rng):
    """One random legal action, as a random bot would take it."""
    if game.phase == "deal":
        game.deal()
    elif game.phase == "flip":
        game.flip(color=rng.choice("RYGB"))
    else:
        player = game.presser()
        plays = game.legal_plays(player) if game.phase == "turn" else []
        if plays and (rng.random() < 0.85 or game.order.must_match):
            game.play(player, rng.choice(plays))
        else:
            game.press(player, min(game.launcher_cards, rng.choice([0, 0, 1, 2, 5])))


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 10))
def test_dealt_cards_are_conserved_and_hand_sizes_agree(seed, players):
    rng = random.Random(seed)
    game = Game([f"P{i}" for i in range(players)], mode="dealt", rng=random.Random(seed), target=150)
    for _ in range(400):
        if game.phase == "game_over":
            break
        _step(game, rng)
        if game.phase not in ("deal",):
            assert _every_card(game) == DECK
            s = game.state()
            assert sum(s["hands"].values()) + s["launcher"]["cards"] + s["discard"] == 112
            assert json.loads(json.dumps(s)) == s


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 10))
def test_random_legal_play_always_ends_the_game(seed, players):
    rng = random.Random(seed)
    game = Game([f"P{i}" for i in range(players)], mode="dealt", rng=random.Random(seed),
                scoring=rng.choice(["g1", "g2", "g3"]), target=150)
    for _ in range(100_000):
        if game.phase == "game_over":
            break
        _step(game, rng)
    assert game.phase == "game_over" and game.winner in game.players


def _advance_to_a_turn(game, rng, steps):
    """`steps` random actions, then on until someone is to play or press (asserted: never vacuous)."""
    for _ in range(steps):
        _step(game, rng)
    for _ in range(10):
        if game.phase in ("turn", "pressing"):
            return
        _step(game, rng)
    raise AssertionError(f"no turn reached after {steps} steps: phase {game.phase}")


@settings(max_examples=30)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60),
       junk=st.sampled_from(["G0", "Zed", "W", "RT", -1, "GD"]))
def test_any_refused_call_leaves_the_state_unchanged(seed, steps, junk):
    rng = random.Random(seed)
    game = Game(["A", "B", "C"], mode="dealt", rng=random.Random(seed), target=10_000)
    _advance_to_a_turn(game, rng, steps)
    presser = game.presser()
    before = (game.state(), _every_card(game), [list(h) for h in game.cards.hands.values()])
    wrong = next(p for p in game.order.players if p != presser)
    held = {c.code for c in game.hand(presser)}
    unheld = next(code for code in DECK if code not in held and not code.startswith("W"))
    attempts = [lambda: game.play(wrong, junk), lambda: game.press(wrong, 0), lambda: game.press("Zed", 1),
                lambda: game.play(presser, unheld), lambda: game.catch(wrong, by=wrong),
                lambda: game.press(presser, game.launcher_cards + 1)]
    if junk != "GD":  # the presser may hold a Discard All that is legal; every other junk never is
        attempts.append(lambda: game.play(presser, junk))
    for attempt in attempts:
        with pytest.raises(RuleError) as info:
            attempt()
        assert info.value.code in ERROR_CODES
        after = (game.state(), _every_card(game), [list(h) for h in game.cards.hands.values()])
        assert after == before, info.value.code


@settings(max_examples=30)
@given(st.lists(st.tuples(st.sampled_from(["press", "hit", "wa"]), st.integers(0, 4)), max_size=30))
def test_physical_launcher_estimate_follows_fired_cards(events):
    """Launcher = 112 - 7n - 1 - every card fired (nothing reloaded here)."""
    game = Game(["A", "B", "C"])
    game.deal("A")
    game.flip("G7")
    fired_total = 0
    for kind, fired in events:
        if game.phase == "hand_over":
            break
        if kind == "hit" and game.phase == "turn":
            game.play(game.presser(), "GH")
        elif kind == "wa" and game.phase == "turn":
            game.play(game.presser(), "WA", color="green")
        else:
            game.press(game.presser(), fired)
            fired_total += fired
    assert game.state()["launcher"]["cards"] == max(0, 112 - 7 * 3 - 1 - fired_total)


def _accepted_plays(game, player):
    """Every play the engine's own check accepts, found by trying each card with each option."""
    from unox.rules.cards import COLOR_NAMES
    from unox.rules.plays import Play, resolve_play

    accepted = set()
    others = [p for p in game.order.players if p != player]
    for card in set(game.hand(player)):
        options = [Play(card.code)]
        if card.color is None:
            options = [Play(card.code, name) for name in COLOR_NAMES.values()]
        elif card.kind == "trade":
            options = [Play(card.code, None, p) for p in others]
        for play in options:
            try:
                _, _, _, count = resolve_play(game, player, *play)
            except RuleError:
                continue
            accepted.add(play._replace(count=count) if card.kind == "discard_all" else play)
    return accepted


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), steps=st.integers(0, 150))
def test_legal_plays_are_exactly_the_plays_the_engine_accepts(seed, players, steps):
    rng = random.Random(seed)
    game = Game([f"P{i}" for i in range(players)], mode="dealt", rng=random.Random(seed), target=10_000)
    _advance_to_a_turn(game, rng, steps)
    for _ in range(20):  # owed presses first (firing, so A8 ends): legal plays are asked for in a turn
        if game.phase != "pressing":
            break
        game.press(game.presser(), min(1, game.launcher_cards))
    assert game.phase == "turn"
    player = game.presser()
    listed = game.legal_plays(player)
    assert len(listed) == len(set(listed))
    assert set(listed) == _accepted_plays(game, player)


def _mirror_step(dealt, physical, rng):
    """One random action in the dealt game, announced to the physical game as a table would."""
    if dealt.phase == "deal":
        dealt.deal()
        physical.deal(dealt.dealer)
    elif dealt.phase == "flip":
        card = dealt.cards.stack[-1]
        color = rng.choice(["red", "yellow", "green", "blue"]) if card.color is None else None
        dealt.flip(color=color)
        physical.flip(card.code, color)
    else:
        player = dealt.presser()
        plays = dealt.legal_plays(player) if dealt.phase == "turn" else []
        if plays and (rng.random() < 0.85 or dealt.order.must_match):
            play = rng.choice(plays)
            dealt.play(player, play)
            physical.play(player, *play)
        else:
            fired = min(dealt.launcher_cards, rng.choice([0, 0, 1, 3]))
            if dealt.launcher_cards == fired and dealt.cards.pile > 1:
                physical.press(player, fired)
                dealt.press(player, fired)  # empties the launcher: dealt mode reloads at once (R2)
                physical.reload()
                return
            dealt.press(player, fired)
            physical.press(player, fired)
    if physical.phase == "hand_over":
        physical.score(dealt.last_hand["points"])


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 7), scoring=st.sampled_from(["g1", "g2", "g3"]))
def test_physical_mode_told_the_same_events_tracks_the_same_state(seed, players, scoring):
    """Both ways of tracking run the same machine: a physical game told every dealt-mode event agrees."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    dealt = Game(names, mode="dealt", rng=random.Random(seed), scoring=scoring, target=150)
    physical = Game(names, scoring=scoring, target=150)
    for _ in range(3000):
        if dealt.phase == "game_over":
            break
        _mirror_step(dealt, physical, rng)
        a, b = dealt.state(), physical.state()
        a.pop("mode"), b.pop("mode")
        assert a == b
