"""The demo table: bots seated around the simulated launcher, in dealt mode, playing a whole game.

`DemoDriver.step()` makes one move of the table (a draw for the deal, a play, a press on the simulated
button, an UNO call or catch, a reload) through the same `Session` a person's table uses, so the demo shows
exactly what `unox play` shows. Every choice comes from a seeded generator: one seed, one transcript.
"""

from __future__ import annotations

import random
from typing import Any

from unox.launcher import LauncherError
from unox.launcher.options import open_checked
from unox.rules.cards import CARDS, COLOR_NAMES, COLORS
from unox.rules.extreme import extreme_deck
from unox.session import Session
from unox.table.runtime import Table

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun")
UNO_CALL_RATE = {"heuristic": 0.9, "random": 0.6}  # how often a bot remembers to call UNO (U1)
CATCH_RATE = 0.7  # how often the others notice a missing UNO call (U2)
SIM_HOPPER = 300  # the simulated hopper never runs dry on its own: the game tracks the real deck


class DemoError(Exception):
    """The demo cannot start; the message says which option to change."""


def open_demo(
    *, players: int = 4, seed: int | None = None, bot: str = "heuristic", target: int = 200,
    scoring: str = "g1", profile: str = "measured",
) -> tuple[Session, DemoDriver]:
    """A dealt-mode table of `players` bots on the sim launcher; `seed=None` picks a fresh seed."""
    from unox.profiles import ProfileError, get_profile
    from unox.rules.errors import RuleError
    from unox.rules.game import Game

    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    names = list(NAMES[:players])
    try:
        game = Game(names, mode="dealt", scoring=scoring, target=target, rng=random.Random(f"{seed}/deck"))
        eject = get_profile(profile, rng=random.Random(f"{seed}/eject"))
        launcher = open_checked(f"sim:?seed={seed}&cards={SIM_HOPPER}")
    except (RuleError, ProfileError, LauncherError) as exc:
        raise DemoError(str(exc)) from exc
    table = Table(game, launcher=launcher, profile=eject)
    session = Session(table, launcher=launcher, sim=True)
    session.emit(f"Demo table, seed {seed}: {', '.join(names)} ({bot} bots), {scoring} to {target} points.")
    bots = {name: make_bot(bot, random.Random(f"{seed}/{name}")) for name in names}
    return session, DemoDriver(session, bots, random.Random(f"{seed}/table"), UNO_CALL_RATE.get(bot, 0.8))


def make_bot(kind: str, rng: random.Random) -> Any:
    """A bot from `unox.bots` by name."""
    from unox import bots

    return bots.make_bot(kind, rng=rng)


class DemoDriver:
    """One move per `step()`; False once the game is over."""

    def __init__(self, session: Session, bots: dict[str, Any], rng: random.Random, call_rate: float):
        self.session = session
        self.bots = bots
        self.rng = rng
        self.call_rate = call_rate
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
        elif state.get("uno") and self._window != self._uno_key(state):
            self._uno_window(state)
        elif state.get("owed"):
            self.session.press()
        else:
            self._turn(state["turn"])
        return True

    def _clear_fault(self) -> None:
        """The table fixes the launcher: the sim's faults are momentary, so saying so is enough."""
        self.session.emit(f"The table clears the {self.session.ctx.fault} and carries on.")
        self.session.ctx.fault = None

    def _deal(self) -> None:
        session = self.session
        if session.ctx.dealer is None:
            deck = extreme_deck()
            self.rng.shuffle(deck)
            for player, card in zip(session.ctx.drawing or session.players, deck, strict=False):
                session.draw(player, card)
            return
        session.request({"cmd": "deal", "dealer": session.ctx.dealer})

    def _flip(self) -> None:
        """The dealer turns up the launcher's next card; any card still in it is as good, the stack is shuffled."""
        in_hands: list[str] = []
        for player in self.session.state["players"]:
            in_hands += [card.code for card in self.game.hand(player)]
        inside = extreme_deck()
        for code in in_hands:
            inside.remove(code)
        card = self.rng.choice(inside)
        request: dict = {"cmd": "flip", "card": card}
        if CARDS[card].color is None:
            left = self._left_of(self.session.state["dealer"])
            request["color"] = COLOR_NAMES[self._favourite_colour(left)]
        self.session.request(request)

    def _left_of(self, player: str) -> str:
        players = self.session.state["players"]
        return players[(players.index(player) + 1) % len(players)]

    def _favourite_colour(self, player: str) -> str:
        counts = {c: 0 for c in COLORS}
        for card in self.game.hand(player):
            if card.color:
                counts[card.color] += 1
        return max(COLORS, key=lambda c: counts[c])

    @staticmethod
    def _uno_key(state: dict) -> tuple:
        return (state.get("hand"), tuple(state.get("uno") or ()), state.get("last_play", {}).get("card"),
                tuple(sorted((state.get("hands") or {}).items())))

    def _uno_window(self, state: dict) -> None:
        """U1/U2: the player calls UNO, or another bot may catch them before the next player begins."""
        self._window = self._uno_key(state)
        caught = state["uno"][0]
        if self.rng.random() < self.call_rate:
            self.session.request({"cmd": "uno", "player": caught})
            return
        others = [p for p in state["players"] if p != caught]
        if self.rng.random() < CATCH_RATE:
            self.session.request({"cmd": "catch", "player": caught, "by": self.rng.choice(others)})

    def _turn(self, player: str) -> None:
        play = self.bots[player].choose(self.game, player)
        if play is None:
            self.session.press()
            return
        request = {"cmd": "play", "player": player}
        request.update({k: v for k, v in play._asdict().items() if v is not None})
        self.session.request(request)
