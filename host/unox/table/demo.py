"""The demo table: bots seated around the simulated launcher, in dealt mode, playing a whole game.

`DemoDriver.step()` makes one move of the table (a draw for the deal, a play, a press on the simulated
button, an UNO call or catch, a reload) through the same table night (`Night`) a person's table uses, so
the demo shows exactly what `unox play` shows. Every choice comes from a seeded generator: one seed, one
transcript.
"""

from __future__ import annotations

import random
from typing import Any

from unox.bots import make_bot
from unox.launcher import LauncherError
from unox.launcher.options import open_checked
from unox.table.night import Night
from unox.table.runtime import Table

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun")


class DemoError(Exception):
    """The demo cannot start; the message says which option to change."""


def open_demo(
    *, players: int = 4, seed: int | None = None, bot: str = "heuristic", target: int = 200,
    scoring: str = "g1", profile: str = "measured", rules: str = "extreme", variant: str | None = None,
    night: Any = Night,
) -> tuple[Night, DemoDriver]:
    """A dealt-mode table of `players` bots on the sim launcher, as `night` (the terminal's `Session` when it
    is watched there); `seed=None` picks a fresh seed."""
    from unox.profiles import ProfileError, get_profile
    from unox.rules.errors import RuleError
    from unox.rules.game import Game

    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    names = list(NAMES[:players])
    try:
        game = Game(names, mode="dealt", scoring=scoring, target=target, rng=random.Random(f"{seed}/deck"),
                    ruleset=rules, variant=variant)
        eject = get_profile(profile, rng=random.Random(f"{seed}/eject"))
        launcher = open_checked(f"sim:?seed={seed}&cards=0")  # loaded at the deal, as a dealer would
    except (RuleError, ProfileError, LauncherError) as exc:
        raise DemoError(str(exc)) from exc
    table = Table(game, launcher=launcher, profile=eject)
    session = night(table, launcher=launcher, sim=True)
    title = "" if rules == "extreme" else f"{game.rules.title}, "
    seated = ", ".join(names)
    goal = "one hand is the game" if game.rules.hand_is_game(variant) else f"{scoring} to {target} points"
    session.emit(f"Demo table, seed {seed}: {title}{seated} ({bot} bots), {goal}.")
    try:
        bots = {name: stable_ties(make_bot(bot, random.Random(f"{seed}/{name}")), game.rules.cards)
                for name in names}
    except ValueError as exc:
        raise DemoError(str(exc)) from exc
    return session, DemoDriver(session, bots, random.Random(f"{seed}/table"))


def stable_ties(bot: Any, cards: Any = None) -> Any:
    """Break a scoring bot's ties by card code, so one seed gives one game whatever PYTHONHASHSEED is.

    Work-around: `HeuristicBot.choose` takes `max()` over a *set* of card codes, so equal scores are
    decided by string hashing, which changes from one process to the next. A tie-breaker far below one
    point keeps every real preference and makes the choice among equals stable.
    """
    score = getattr(bot, "score", None)
    if score is None:
        return bot
    if cards is None:
        from unox.rules.cards import CARDS as cards
    rank = {code: i for i, code in enumerate(sorted(cards))}
    bot.score = lambda code, hand, context: score(code, hand, context) - rank[code] * 1e-6
    return bot


class DemoDriver:
    """One move per `step()`; False once the game is over."""

    def __init__(self, session: Night, bots: dict[str, Any], rng: random.Random):
        self.session = session
        self.bots = bots
        self.rng = rng
        self.game = session.table.game
        self._window: tuple | None = None  # the UNO window already decided

    def step(self) -> bool:
        state = self.session.state
        phase = state["phase"]
        if phase == "game_over":
            return False
        if self.session.ctx.fault:
            self._clear_fault()
        elif phase == "deal":
            self._deal()
        elif phase == "flip":
            self._flip()
        elif self.session.ctx.reload_due:
            self.session.request({"cmd": "reload"})
        elif state.get("pending"):
            self._answer_pending(state["pending"]["player"])
        elif state.get("uno") and self._window != self._uno_key(state):
            self._uno_window(state)
        elif state.get("challenge") and self._challenges(state["challenge"]["player"]):
            self.session.request({"cmd": "challenge", "player": state["challenge"]["player"]})
        elif state.get("owed"):
            self.session.press()  # a draw edition's launcher deals exactly what is owed
        elif state.get("drawn") and state["drawn"] == state["turn"]:
            self._after_draw(state["turn"])
        else:
            self._turn(state["turn"])
        return True

    def _clear_fault(self) -> None:
        """The table fixes the launcher: the sim's faults are momentary, so saying so is enough."""
        self.session.emit(f"The table clears the {self.session.ctx.fault} and carries on.")
        self.session.ctx.fault = None

    def _deal(self) -> None:
        session = self.session
        rules = self.game.rules
        if session.ctx.dealer is None and _chooses_dealer(rules):  # MK-S1: the players choose
            dealer = rules.first_dealer(session.players, self.rng)
            session.emit(f"The players choose {dealer} to deal.")
            session.ctx.dealer = dealer
        if session.ctx.dealer is None:
            deck = list(self.game.rules.deck)
            self.rng.shuffle(deck)
            for player, card in zip(session.ctx.drawing or session.players, deck, strict=False):
                session.draw(player, card)
            return
        session.request({"cmd": "deal", "dealer": session.ctx.dealer})

    def _flip(self) -> None:
        """The dealer turns up the launcher's next card: any card inside, as the stack is shuffled.
        A draw edition's launcher fires it (DL3); the player on the dealer's left names a colour for a
        wild (ignored for any other card)."""
        if self.game.rules.draws:
            players = self.session.state["players"]
            left = players[(players.index(self.session.state["dealer"]) + 1) % len(players)]
            self.session.request({"cmd": "flip", "color": self.bots[left].choose_color(self.game, left)})
            return
        in_hands: list[str] = []
        for player in self.session.state["players"]:
            in_hands += [card.code for card in self.game.hand(player)]
        inside = list(self.game.rules.deck)
        for code in in_hands + [card.code for card in self.game.cards.piled]:  # MK-S4: covered cards
            inside.remove(code)
        card = self.rng.choice(inside)
        request: dict = {"cmd": "flip", "card": card}
        if self.game.rules.cards[card].color is None:  # S4: the player on the dealer's left names the colour
            players = self.session.state["players"]
            left = players[(players.index(self.session.state["dealer"]) + 1) % len(players)]
            request["color"] = self.bots[left].choose_color(self.game, left)
        self.session.request(request)

    @staticmethod
    def _uno_key(state: dict) -> tuple:
        return (state.get("hand"), tuple(state.get("uno") or ()), state.get("last_play", {}).get("card"),
                tuple(sorted((state.get("hands") or {}).items())))

    def _uno_window(self, state: dict) -> None:
        """U1/U2: the player calls UNO, or another bot may catch them before the next player begins."""
        self._window = self._uno_key(state)
        caught = state["uno"][0]
        if self.bots[caught].calls_uno(self.game, caught):
            self.session.request({"cmd": "uno", "player": caught})
            return
        players = state["players"]
        seat = players.index(caught)
        for step in range(1, len(players)):
            other = players[(seat + step) % len(players)]
            if self.bots[other].catches(self.game, other, caught):
                self.session.request({"cmd": "catch", "player": caught, "by": other})
                return

    def _challenges(self, victim: str) -> bool:
        """C-A7: the Wild Draw Four's victim decides once, before drawing."""
        key = ("challenge", self.session.state.get("hand"), len(self.session.table.entries))
        if self._window == key:
            return False
        self._window = key
        return self.bots[victim].challenges(self.game, victim)

    def _answer_pending(self, player: str) -> None:
        """An edition's special card waits for its player's choice (Barbie's gift, Mario Kart's item,
        Casting Call's turns and share): the bot's requests, as the ruleset words them
        (`Ruleset.bot_requests`). A card the choice turns up is fired by the launcher: the request leaves
        `fired` out (DL3)."""
        for request in self.game.rules.bot_requests(self.game, self.bots[player], player):
            self.session.request(request)

    def _after_draw(self, player: str) -> None:
        """C-T2: the card drawn is played if the bot wants it and it goes; otherwise the player passes
        (BA-T1: a card that goes is played)."""
        may_keep = self.game.rules.may_decline
        bot = self.bots[player]
        play = bot.choose(self.game, player, may_press=may_keep) if self.game.legal_plays(player) else None
        if play is None:
            self.session.request({"cmd": "pass", "player": player})
            return
        request = {"cmd": "play", "player": player}
        request.update({k: v for k, v in play._asdict().items() if v is not None})
        self.session.request(request)

    def _turn(self, player: str) -> None:
        must_match = bool(self.session.state.get("must_match")) or not self.game.rules.may_decline  # BA-T1
        must_play = must_match and bool(self.game.legal_plays(player))
        play = self.bots[player].choose(self.game, player, may_press=not must_play)
        if play is None:
            self.session.press()
            return
        request = {"cmd": "play", "player": player}
        request.update({k: v for k, v in play._asdict().items() if v is not None})
        self.session.request(request)


def _chooses_dealer(rules: Any) -> bool:
    """An edition whose players choose the first dealer (its own `first_dealer`) draws no cards for it."""
    from unox.rules.ruleset import Ruleset

    return type(rules).first_dealer is not Ruleset.first_dealer
