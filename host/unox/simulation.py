"""Whole dealt-mode games between bots, with the launcher modelled in-process by an eject profile.

The engine owns the cards (`Game(mode="dealt")`); a press asks the eject profile how many cards it wants,
reloads the launcher from the discard pile when it holds fewer (R1/R2), and fires what is there. A safety
cap on actions turns a game that never ends into an error, never into a quiet pass.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from unox.bots import BOT_NAMES, Bot, make_bot
from unox.profiles import EjectProfile, get_profile
from unox.rules.errors import RuleError
from unox.rules.game import Game

BOT_CHOICES = (*BOT_NAMES, "mix")
MAX_ACTIONS = 1_000_000  # per game; random bots at 4 players: under 3,000 a game (Extreme, seeds 1-20)
FULL_LAUNCHER = 112  # ask the profile with this so it says what it wants, not what is there


class SimulationError(RuntimeError):
    """A game broke a promise of the engine (it did not end, or a bot's legal play was refused)."""


@dataclass
class GameRecord:
    """What one simulated game came to."""

    seed: int
    bots: list[str]  # bot name per seat
    winner: str = ""
    winner_seat: int = 0  # 1-based
    hands: int = 0
    turns: int = 0  # plays plus T2/T3 presses: each ends or is a turn's action
    plays: int = 0
    presses: int = 0  # every press, owed or not
    cards_fired: int = 0
    reloads: int = 0
    catches: int = 0
    challenges: int = 0  # C-A7, draw editions
    choices: int = 0  # an edition's special-card choices answered (Barbie's gifts, Mario Kart's items)
    specials: int = 0  # an edition's special cards whose choice was settled (Casting Call's shares)
    actions: int = 0  # every call into the engine that changes the game


@dataclass
class Match:
    """One game in progress: the engine, a bot per player, the launcher's eject profile, the tallies."""

    game: Game
    bots: Mapping[str, Bot]
    profile: EjectProfile
    record: GameRecord
    max_actions: int = MAX_ACTIONS
    must_match: bool = field(default=False, init=False)

    def run(self) -> GameRecord:
        game, record = self.game, self.record
        while game.phase != "game_over":
            self.step()
        record.winner = game.winner or ""
        record.winner_seat = game.players.index(record.winner) + 1
        return record

    def step(self) -> None:
        """One action of whoever must act (a tournament table plays hand by hand with it)."""
        game, record = self.game, self.record
        phase = game.phase
        record.actions += 1
        if record.actions > self.max_actions:
            raise SimulationError(
                f"game with seed {record.seed} did not end within {self.max_actions} actions"
            )
        if game.pending is not None:
            self.answer_pending()  # one choice may lead to another (Mario Kart's item, then choose)
        elif phase == "turn":
            self.turn(game.presser())
        elif phase == "pressing":
            self.press(game.presser())
        elif phase == "drawing":
            self.owed_draw(game.presser())
        elif phase == "flip":
            self.flip()
        else:
            game.deal()
            record.hands += 1

    def flip(self) -> None:
        """S4: turn up the first card; a wild's colour is named by the player on the dealer's left."""
        game = self.game
        try:
            game.flip()
        except RuleError as exc:
            if exc.code != "missing_color":
                raise
            state = game.state()
            players = state["players"]
            left = players[(players.index(state["dealer"]) + 1) % len(players)]
            game.flip(None, self.bots[left].choose_color(game, left))
        self.must_match = game.phase == "turn" and game.state()["must_match"]

    def turn(self, player: str) -> None:
        bot = self.bots[player]
        if self.game.rules.draws:
            self.draw_turn(player, bot)
            return
        may_press = not (self.must_match and game_has_plays(self.game, player))
        self.must_match = False
        play = bot.choose(self.game, player, may_press=may_press)
        self.record.turns += 1
        if play is None:
            self.press(player)
            return
        self.play(player, bot, play)

    # --- the draw editions: the launcher deals exactly what is due (DL1) --------------------------------

    def draw_turn(self, player: str, bot: Bot) -> None:
        """C-T1-C-T3: play, or draw 1 and then play the card drawn or pass."""
        game = self.game
        self.record.turns += 1
        play = bot.choose(game, player, may_press=game.rules.may_decline)  # BA-T1: no declining
        if play is not None:
            self.play(player, bot, play)
            return
        self.draw(player, 1)
        if game.phase != "turn" or game.presser() != player:
            return  # the draw fell short: it stays owed (DL2)
        may_keep = game.rules.may_decline
        play = bot.choose(game, player, may_press=may_keep) if game.legal_plays(player) else None
        if play is None:
            game.pass_turn(player)
        else:
            self.play(player, bot, play)

    def owed_draw(self, player: str) -> None:
        """An owed draw; the victim of a Wild Draw Four may challenge first (C-A7)."""
        game = self.game
        if game.challenge_open == player and self.bots[player].challenges(game, player):
            game.challenge(player)
            self.record.challenges += 1
            return
        self.draw(player, game.draw_due(player))

    def reload_for(self, due: int) -> None:
        """C-R1: the pile goes back into the launcher when it holds fewer cards than are due."""
        game = self.game
        if due > game.launcher_cards:
            try:
                game.reload()
                self.record.reloads += 1
            except RuleError as exc:
                if exc.code != "nothing_to_reload":
                    raise

    def draw(self, player: str, due: int) -> None:
        """DL1/DL2: the launcher deals `due`; an empty launcher is reloaded from the pile first (C-R1)."""
        game, record = self.game, self.record
        self.reload_for(due)
        fired = min(due, game.launcher_cards)
        game.draw(player, fired)
        record.presses += 1
        record.cards_fired += fired

    def play(self, player: str, bot: Bot, play: Any) -> None:
        game, record = self.game, self.record
        left = game.cards.hand_size(player) - 1 - (play.count or 0)  # len(game.hand()) without the copy
        due = left == 1 and play.target is None  # U1; Trade Hands never leaves a catchable player (A5)
        called = due and bot.calls_uno(game, player)
        if called:
            game.uno(player)
        try:
            game.play(player, *play)
        except RuleError as exc:
            raise SimulationError(f"{type(bot).__name__} chose {play}, refused: {exc.code}") from exc
        record.plays += 1
        if due and not called:
            self.offer_catch(player)
        if game.pending is not None:
            self.answer_pending()

    def answer_pending(self) -> None:
        """An edition's special card waits for its player's choice (Barbie's gift, Mario Kart's item, Casting
        Call's turns and share): the bot's requests, as the ruleset words them (`Ruleset.bot_requests`);
        cards a request turns up are fired as for a draw (DL3), the pile reloaded first when the launcher
        is short (C-R1); a player left catchable by the choice may be caught (U2)."""
        game, record = self.game, self.record
        player = game.pending["player"]  # type: ignore[index]
        bot = self.bots[player]
        record.choices += 1
        for request in game.rules.bot_requests(game, bot, player):
            cmd = request["cmd"]
            fields = {k: v for k, v in request.items() if k != "cmd"}
            if cmd == "uno":
                game.uno(player)
                continue
            if "fired" in game.rules.requests[cmd] and "fired" not in fields:
                if game.launcher_cards == 0:
                    self.reload_for(1)  # an empty launcher turns nothing: the pile goes back in first
                due = game.rules.fire_due(game, cmd, fields)
                self.reload_for(due)
                fields["fired"] = min(due, game.launcher_cards)
                record.cards_fired += fields["fired"]
            try:
                game.edition_call(cmd, fields)
            except RuleError as exc:
                raise SimulationError(f"{type(bot).__name__} answered {cmd} {fields}, refused: "
                                      f"{exc.code}") from exc
        if game.pending is None:
            record.specials += 1
        if game.stage == "turn" and player in game.state()["uno"]:
            self.offer_catch(player)

    def offer_catch(self, victim: str) -> None:
        """U2: the others, in seat order from the victim's left, may catch a missing UNO call."""
        game = self.game
        players = game.state()["players"]
        seat = players.index(victim)
        for i in range(1, len(players)):
            other = players[(seat + i) % len(players)]
            if self.bots[other].catches(game, other, victim):
                game.catch(victim, by=other)
                self.record.catches += 1
                return

    def press(self, player: str) -> None:
        """One press: the profile picks a count; reload first when the launcher holds fewer (R1/R2)."""
        game, record = self.game, self.record
        want = self.profile.next_count(FULL_LAUNCHER)
        if want > game.launcher_cards:
            try:
                game.reload()
                record.reloads += 1
            except RuleError as exc:
                if exc.code != "nothing_to_reload":
                    raise
        fired = min(want, game.launcher_cards)
        game.press(player, fired)
        record.presses += 1
        record.cards_fired += fired


def game_has_plays(game: Game, player: str) -> bool:
    return bool(game.legal_plays(player))


def seat_bots(kind: str, players: int, game_index: int) -> list[str]:
    """Bot names by seat; `mix` alternates random and heuristic and shifts by one seat every game."""
    if kind == "mix":
        return [BOT_NAMES[(seat + game_index) % len(BOT_NAMES)] for seat in range(players)]
    if kind not in BOT_NAMES:
        raise ValueError(f"unknown bot {kind!r}; use one of {', '.join(BOT_CHOICES)}")
    return [kind] * players


def play_game(
    seed: int,
    bots: Sequence[str],
    *,
    profile: str = "measured",
    profile_config: Mapping[str, Any] | None = None,
    max_actions: int = MAX_ACTIONS,
    **game_options: Any,
) -> GameRecord:
    """One whole game (several hands, G1 to 500 unless `scoring`/`target` say otherwise), from one seed.

    Random bots at an edition the fast core plays exactly (`unox.rules.fastcore`, checked call by call
    against `Game`) play there: the same rules and the same policy, several times faster."""
    if all(b == "random" for b in bots):
        record = fast_game(seed, bots, max_actions, game_options, profile=profile,
                           profile_config=profile_config)
        if record is not None:
            return record
    rng = random.Random(seed)
    names = [f"P{seat + 1}" for seat in range(len(bots))]
    game = Game(names, mode="dealt", rng=random.Random(rng.getrandbits(64)), **game_options)
    launcher = get_profile(profile, rng=random.Random(rng.getrandbits(64)), config=profile_config)
    players = {n: make_bot(b, random.Random(rng.getrandbits(64))) for n, b in zip(names, bots, strict=True)}
    match = Match(game, players, launcher, GameRecord(seed, list(bots)), max_actions)
    return match.run()


FAST_OPTIONS = {"ruleset", "scoring", "target", "variant"}  # the options the fast core takes (G1 only)


def fast_game(
    seed: int, bots: Sequence[str], max_actions: int, options: Mapping[str, Any], *,
    profile: str = "measured", profile_config: Mapping[str, Any] | None = None,
) -> GameRecord | None:
    """The game on a fast core when one plays these rules exactly (G1 scoring, no variant), else None:
    classic's (`unox.rules.fastcore`) or Extreme's with its presses and the eject profile
    (`unox.rules.fastextreme`), each checked call by call against `Game`.

    Their random bots play `RandomBot`'s policy (a random legal play, a press or draw only when none goes;
    UNO and catches on a coin toss, classic's challenges too). Their reloads count every refill (R1/R2,
    C-R1), the automatic ones of dealt mode included."""
    from unox.rules import fastcore, fastextreme
    from unox.rules.editions import get_rules

    if not set(options) <= FAST_OPTIONS or options.get("scoring", "g1") != "g1" or options.get("variant"):
        return None
    rules = get_rules(options.get("ruleset") or "extreme")
    target = options.get("target", 500)
    try:
        if fastextreme.plays_exactly(rules):
            rng = random.Random(seed)
            launcher = get_profile(profile, rng=random.Random(rng.getrandbits(64)), config=profile_config)
            core: Any = fastextreme.play_random_game(
                rules, len(bots), rng.getrandbits(64), launcher.next_count, target, max_actions=max_actions)
            presses, challenges = core.presses, 0
        elif fastcore.plays_exactly(rules):
            core = fastcore.play_random_game(rules, len(bots), seed, target, max_actions=max_actions)
            presses, challenges = core.draws, core.challenges
        else:
            return None
    except RuntimeError as exc:
        raise SimulationError(str(exc)) from exc
    assert core.winner is not None
    return GameRecord(
        seed, list(bots), winner=f"P{core.winner + 1}", winner_seat=core.winner + 1, hands=core.hand_number,
        turns=core.turns, plays=core.plays, presses=presses, cards_fired=core.fired, reloads=core.reloads,
        catches=core.catches, challenges=challenges,
        actions=core.plays + presses + challenges + 2 * core.hand_number,
    )


def simulate(
    games: int,
    players: int,
    *,
    bot: str = "random",
    seed: int | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Plays `games` games and sums them up. No seed: one is drawn from the OS and reported, to repeat."""
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)
    master = random.Random(seed)
    records = []
    for index in range(games):
        record = play_game(master.getrandbits(64), seat_bots(bot, players, index), **options)
        records.append(record)
        if on_game is not None:
            on_game(record)
    run = {
        "players": players,
        "bot": bot,
        "seed": seed,
        "profile": options.get("profile", "measured"),
        "scoring": options.get("scoring", "g1"),
        "target": options.get("target", 500),
        "rules": options.get("ruleset", "extreme"),
        "variant": options.get("variant"),
    }
    return summarize(records, **run)


def summarize(records: Sequence[GameRecord], **run: Any) -> dict[str, Any]:
    """Totals and means over the games, wins by seat and by bot (with the seats each bot held)."""
    hands = sum(r.hands for r in records)
    seats = range(1, run["players"] + 1)
    wins_by_seat = Counter(r.winner_seat for r in records)
    wins_by_bot = Counter(r.bots[r.winner_seat - 1] for r in records)
    seats_by_bot = Counter(b for r in records for b in r.bots)
    per_hand = (lambda total: total / hands) if hands else (lambda total: 0.0)
    return {
        **run,
        "games": len(records),
        "hands": hands,
        "hands_per_game_mean": hands / len(records) if records else 0.0,
        "turns_per_hand_mean": per_hand(sum(r.turns for r in records)),
        "presses_per_hand_mean": per_hand(sum(r.presses for r in records)),
        "cards_fired": sum(r.cards_fired for r in records),
        "cards_fired_per_hand_mean": per_hand(sum(r.cards_fired for r in records)),
        "reloads": sum(r.reloads for r in records),
        "catches": sum(r.catches for r in records),
        "challenges": sum(r.challenges for r in records),
        "choices": sum(r.choices for r in records),
        "specials": sum(r.specials for r in records),
        "actions": sum(r.actions for r in records),
        "longest_game_actions": max((r.actions for r in records), default=0),
        "wins_by_seat": {str(s): wins_by_seat[s] for s in seats},
        "wins_by_bot": {b: wins_by_bot[b] for b in sorted(seats_by_bot)},
        "seats_by_bot": dict(sorted(seats_by_bot.items())),
    }

