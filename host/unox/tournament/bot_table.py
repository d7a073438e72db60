"""A tournament table whose seats are bots: each scheduled hand dealt and played by the engine, as `unox sim`.

A hand's deal and the bots' choices come from the tournament seed and the hand's id alone, so a table
killed in the middle of a hand and resumed plays that hand again to the same end: its result, and its
hand id, are the same, and the coordinator counts it once.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from unox.bots import make_bot
from unox.profiles import get_profile
from unox.rules.game import Game
from unox.simulation import GameRecord, Match
from unox.tournament.schedule import Match as Pairs
from unox.tournament.schedule import hand_id, seats
from unox.tournament.seat import TableSeat

NO_TARGET = 100_000  # the round ends after its hands, never at a target (C-V2/C-V3 add the hands up)


def play_hand(match: Pairs, *, rules: str, bot: str, seed: str) -> dict[str, Any]:
    """One hand of `partners` between bots: who went out, the points left in each hand, what each gained."""
    rng = random.Random(seed)
    seated = seats(match)
    game = Game(seated, mode="dealt", ruleset=rules, variant="partners", target=NO_TARGET,
                rng=random.Random(rng.getrandbits(64)))
    bots = {player: make_bot(bot, random.Random(rng.getrandbits(64))) for player in seated}
    profile = get_profile("measured", rng=random.Random(rng.getrandbits(64)))
    play = Match(game, bots, profile, GameRecord(0, [bot] * len(seated)))
    while game.last_hand is None:
        play.step()
    last = game.last_hand
    return {"went_out": last["went_out"], "points": dict(last["points"]), "gained": dict(last["gained"])}


def play_table(seat: TableSeat, *, bot: str, seed: int, say: Callable[[str], None],
               wait: float | None = None) -> int:
    """Every hand the schedule gives this table, round by round; returns how many were played now."""
    plan = seat.wait_plan(wait)
    played = 0
    for round_no, matches in enumerate(plan.rounds, 1):
        if seat.number > len(matches):
            continue
        match = matches[seat.number - 1]
        seat.wait_round(round_no, wait)
        say(f"round {round_no}, table {seat.number}: {' '.join(seats(match))} "
            f"(partners {' + '.join(match[0])} against {' + '.join(match[1])})")
        for hand in range(1, plan.hands_per_round + 1):
            hid = hand_id(round_no, seat.number, hand)
            if seat.journal.has(hid):
                continue  # played before a restart: its result is in the journal, sent or waiting
            outcome = play_hand(match, rules=plan.rules, bot=bot, seed=f"{seed}/{seat.address.name}/{hid}")
            result = {"hand_id": hid, "round": round_no, "table": seat.number, "hand": hand, **outcome}
            seat.report(result)
            played += 1
            say(f"  hand {hand}: {outcome['went_out']} went out; "
                + ", ".join(f"{p} +{n}" for p, n in outcome["gained"].items()))
    seat.flush(wait)
    return played
