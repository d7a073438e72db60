"""Rules engine speed against RLCard's UNO, side by side in one run.

    python3 bench/engine.py [--seconds 10] [--rounds 5] [--seed 1]

Ours: whole dealt-mode games (G1 to 500, several hands) of 4 random bots, with the launcher modelled by the
`measured` eject profile, through `unox.simulation.play_game`, the function `unox sim` calls for each game:
random bots play on the fast Extreme core there (`unox.rules.fastextreme`, checked call by call against
`Game`). The bots pick a uniformly random legal play and press only when nothing goes (T2), which is the
policy of RLCard's random loop, whose "draw" is legal only then. An action is one play or one press (owed
presses included).

RLCard, two baselines, each a random legal action per step until the hand is over (one RLCard game is one
hand):
- **engine** (the headline): `game.round.proceed_round(players, action)`, RLCard's rules engine alone,
  against our engine alone: this is `ratio`.
- **step**: `UnoGame.step(action)`, which after `proceed_round` builds the next player's observation for
  learning agents (about two thirds of its time): `step_ratio`, kept for comparison with earlier figures.
The three run in alternating rounds so that all see the same machine load. `turn_ratio` is the stricter
comparison: our turns (plays and T2 presses, not the presses owed for Hit cards, which RLCard folds into the
step of the card that caused them) per second against RLCard's engine steps.

The last line is one JSON object: `actions_per_s`, `rlcard_actions_per_s` (engine), `ratio` (against the
engine), `rlcard_step_actions_per_s`, `step_ratio` and more.

    python3 bench/engine.py --rules classic [--seconds 10] [--rounds 5]

adds the exact comparison: RLCard's `UnoGame` is classic UNO, so dealt-mode classic games of 4 random bots,
through `unox.simulation.play_game` as `unox sim --rules classic` plays them (on the fast core,
`unox.rules.fastcore`, checked call by call against `Game`),
(a uniformly random legal play, the turn's draw only when nothing goes, the card drawn played when it goes)
run against RLCard's round loop driven through `proceed_round` directly (`get_legal_actions`, a random
choice, `proceed_round`, until `is_over`: no observation is built). Both count one action per turn: a play,
or a draw with what follows it (RLCard's draw plays a matching card itself; owed draws belong to the card
that caused them on both sides). The JSON gains `classic_actions_per_s`, `rlcard_round_actions_per_s` and
`classic_ratio`, and keeps the Extreme figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time

from unox.simulation import play_game

PLAYERS = ["P1", "P2", "P3", "P4"]


def ours(seconds: float, rng: random.Random) -> tuple[int, int, int, float, int]:
    """Actions, games and hands played in about `seconds`, the time they took, and the turns (actions
    less the owed presses, which RLCard folds into the step of the card that caused them)."""
    actions = games = hands = turns = 0
    bots = ["random"] * len(PLAYERS)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        record = play_game(rng.getrandbits(64), bots)  # what `unox sim` calls for each game
        actions += record.plays + record.presses
        turns += record.turns
        hands += record.hands
        games += 1
    return actions, games, hands, time.perf_counter() - start, turns


def _rlcard(seconds: float, rng: random.Random, *, observe: bool) -> tuple[int, int, int, float, int]:
    """RLCard's loop for about `seconds`: actions, games (= hands) and the time they took.

    `observe`: through `UnoGame.step`, building each next observation; else `proceed_round` alone.
    """
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=4)
    game.np_random.seed(rng.getrandbits(32))
    choice = rng.choice
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        round_, players = game.round, game.players
        if observe:
            while not round_.is_over:
                game.step(choice(game.get_legal_actions()))
                actions += 1
        else:
            while not round_.is_over:
                legal = round_.get_legal_actions(players, round_.current_player)
                round_.proceed_round(players, choice(legal))
                actions += 1
        games += 1
    return actions, games, games, time.perf_counter() - start, actions


def rlcard_engine(seconds: float, rng: random.Random) -> tuple[int, int, int, float, int]:
    return _rlcard(seconds, rng, observe=False)


def rlcard_step(seconds: float, rng: random.Random) -> tuple[int, int, int, float, int]:
    return _rlcard(seconds, rng, observe=True)


def ours_classic(seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Dealt-mode classic games (G1 to 500) of 4 random bots: turns and hands in about `seconds`."""
    turns = hands = 0
    bots = ["random"] * len(PLAYERS)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        record = play_game(rng.getrandbits(64), bots, ruleset="classic")  # `unox sim --rules classic`'s call
        turns += record.turns
        hands += record.hands
    return turns, hands, time.perf_counter() - start


def rlcard_rounds(seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """RLCard's round loop through `proceed_round`, no observations: actions and hands in about `seconds`."""
    actions, _, hands, elapsed, _ = _rlcard(seconds, rng, observe=False)
    return actions, hands, elapsed


def alternate(runs: dict, seconds: float, rounds: int, rng: random.Random) -> dict[str, list]:
    """Each run's figures summed over `rounds` alternating rounds of `seconds / rounds`, so all see the same
    load."""
    totals: dict[str, list] = {}
    for _ in range(rounds):
        for name, run in runs.items():
            result = run(seconds / rounds, rng)
            totals[name] = [a + b for a, b in zip(totals.get(name, [0] * len(result)), result, strict=True)]
    return totals


def classic_figures(seconds: float, rounds: int, rng: random.Random) -> dict:
    """The classic comparison, alternating rounds so both see the same load."""
    totals = alternate({"ours": ours_classic, "rlcard": rlcard_rounds}, seconds, rounds, rng)
    (a, ah, at), (r, rh, rt) = totals["ours"], totals["rlcard"]
    print(f"classic: {a / at:10.0f} actions/s {ah / at:8.1f} hands/s; RLCard rounds: {r / rt:10.0f} actions/s"
          f" {rh / rt:8.1f} hands/s")
    return {
        "classic_actions_per_s": round(a / at),
        "classic_hands_per_s": round(ah / at, 2),
        "rlcard_round_actions_per_s": round(r / rt),
        "classic_ratio": round((a / at) / (r / rt), 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="total seconds per engine (default 10)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", choices=("extreme", "classic"), default="extreme",
                        help="classic: add the classic comparison (classic_ratio) to the Extreme figures")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    runs = {"ours": ours, "rlcard": rlcard_engine, "rlcard_step": rlcard_step}
    totals = alternate(runs, args.seconds, args.rounds, rng)
    print(f"python {platform.python_version()} on {platform.machine()}, {args.rounds} rounds")
    labels = {"ours": "unox engine", "rlcard": "RLCard proceed_round (engine)",
              "rlcard_step": "RLCard step (engine + observation)"}
    for name, (actions, games, hands, elapsed, _) in totals.items():
        print(f"{labels[name]:>35}: {actions / elapsed:8.0f} actions/s {games / elapsed:7.1f} games/s"
              f" {hands / elapsed:7.1f} hands/s  ({actions / hands:.0f} actions a hand)")
    a, r, s = totals["ours"], totals["rlcard"], totals["rlcard_step"]
    ours_rate, engine_rate, step_rate = a[0] / a[3], r[0] / r[3], s[0] / s[3]
    result = {
        "actions_per_s": round(ours_rate),
        "games_per_s": round(a[1] / a[3], 2),
        "hands_per_s": round(a[2] / a[3], 2),
        "rlcard_actions_per_s": round(engine_rate),
        "rlcard_games_per_s": round(r[1] / r[3], 2),
        "ratio": round(ours_rate / engine_rate, 3),
        "baseline": "rlcard proceed_round",
        "rlcard_step_actions_per_s": round(step_rate),
        "step_ratio": round(ours_rate / step_rate, 3),
        "turns_per_s": round(a[4] / a[3]),
        "turn_ratio": round((a[4] / a[3]) / engine_rate, 3),
    }
    if args.rules == "classic":
        result.update(classic_figures(args.seconds, args.rounds, rng))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
