"""Press-button mode, the launcher as the original toy only better: run by `unox press` and the boot service.

The launcher is the truth, not a tally: a press fires whatever the eject profile picks while cards come
out; the firmware's EMPTY fault asks for a reload; a reload is seen when the lid is closed after being
opened, or confirmed by a double press (two presses within `confirm_s`) while a reload is awaited. A top-up
before EMPTY is a reload too: the lid opened and shut after cards were fired (not to clear a jam or a stuck
card), however quickly; the driver counts the lid's openings, so one between two looks is not missed. The
double press stands in for a long press: a BUTTON frame carries no hold time, so the host cannot tell a long
press from a short one. The card estimate (`--cards`) is only shown to the player, never used to refuse.

Two options make it play like a game, both off by default: anti-mash (a press closer than `min_gap_s` to
the one before gets the not-now beep and fires nothing) and suspense (a random wait of up to `suspense_s`
before the motor turns, as the original's mechanism seems to).

A lost link is told once, and its return once. A fire the link dropped in flight is not booked until the
launcher says what it did (`fire_result`, as `unox play` settles it), and the fires the launcher made alone
meanwhile (`take_standalone_fires`) are counted as the presses they were: the tally is the cards out.

On the simulator the summary is the simulated launcher's truth too: virtual presses come spaced in virtual
time (`press_gap`, so anti-mash can be tried), and a reload, however it is told, refills the simulated hopper
(`SimLauncher.refill`): a reload the launcher never had is never counted.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from unox.launcher.base import MAX_FIRE, FireResult, Launcher, LauncherError, StrangerLauncher
from unox.launcher.clock import Clock, RealClock
from unox.launcher.faults import fault_action
from unox.profiles import EjectProfile
from unox.words import counted

KEEPALIVE_S = 0.5  # during a suspense wait, well inside the firmware's link_ms
VIRTUAL_GAP_S = (0.3, 3.0)  # virtual presses come this far apart (uniform): some double, some slow
RELOAD_HOW = "reload it and close the lid, or press twice quickly to say it is reloaded"
VIRTUAL_LOST_S = 60.0  # virtual presses give up on a simulated launcher silent this long


class VirtualPressError(LauncherError):
    """A virtual press went wrong on the simulator: a bug to report, not a cable to wait for."""


@dataclass(frozen=True)
class PressOptions:
    min_gap_s: float = 0.0  # anti-mash; 0 = off
    suspense_s: float = 0.0  # the longest random wait before the motor turns; 0 = off
    confirm_s: float = 1.5  # two presses this close confirm a reload while one is awaited
    poll_s: float = 1.0  # the lid is looked at (a STATUS round trip) once a second when idle, and per press


@dataclass
class Tally:
    """What happened this session; `estimate` is the cards believed inside, for show only."""

    start: int
    estimate: int
    presses: int = 0
    fires: int = 0
    fired: int = 0
    refused: int = 0
    reloads: int = 0
    unknown: int = 0  # fires whose count the launcher could not tell (it restarted mid-fire)
    faults: Counter = field(default_factory=Counter)

    def summary(self) -> str:
        faults = ", ".join(f"{name} x{n}" for name, n in sorted(self.faults.items())) or "none"
        unknown = f" ({self.unknown} of unknown count)" if self.unknown else ""
        return (f"{counted(self.presses, 'press', 'presses')}, {counted(self.fired, 'card')} fired in "
                f"{counted(self.fires, 'fire')}{unknown}, {self.refused} refused as too quick, "
                f"{counted(self.reloads, 'reload')}; faults: {faults}")

    def to_dict(self) -> dict:
        return {"presses": self.presses, "fires": self.fires, "cards_fired": self.fired,
                "refused": self.refused, "reloads": self.reloads, "faults": dict(self.faults),
                "cards_left": self.estimate, "unknown_fires": self.unknown}

    def book(self, result: FireResult) -> None:
        """One fire's cards, as the launcher counted them (a press the profile gave 0 is no fire)."""
        self.fires += 1 if result.requested else 0
        self.fired += result.fired
        self.estimate = max(0, self.estimate - result.fired)
        if result.fault is not None:
            self.faults[result.fault] += 1


@dataclass
class PressEvent:
    """One thing the player should hear about: a press's outcome, or the lid."""

    # fire | nothing | mash | reload_needed | reload | lid_open | lid_closed | link | link_back
    # | unsettled (a fire the link dropped: count unknown for now) | settled | unknown | alone
    kind: str
    message: str = ""
    result: FireResult | None = None
    press: int | None = None  # the press it answers; None for the lid and the link
    at: float | None = None  # when the press was taken, in seconds since the session started


class PressMode:
    """One launcher, one eject profile; `handle_press()` per press taken, `poll()` between presses."""

    def __init__(self, launcher: Launcher, profile: EjectProfile, *, cards: int,
                 options: PressOptions = PressOptions(), rng: random.Random | None = None,
                 clock: Clock | None = None):
        self.launcher, self.profile, self.options = launcher, profile, options
        self.rng = rng or random.SystemRandom()
        self.clock = clock or getattr(getattr(launcher, "link", None), "clock", None) or RealClock()
        self.tally = Tally(start=cards, estimate=cards)
        self.started = self.clock.now()
        self.awaiting_reload = False
        self.lid_open = False
        self._lid_opens: int | None = None  # the driver's count of lid openings at the last look (from 0)
        self._fired_at_reload = 0  # tally.fired when the launcher was last (re)loaded
        self._clearing = False  # a jam or stuck card to take out: the next lid cycle is that, not a reload
        self._last_press: float | None = None
        self._reload_press: float | None = None
        self.link_down = False
        self._lost_at: float | None = None
        self._stranger_told = False  # another launcher at the port was told (once until the link is back)
        self.unsettled: PressEvent | None = None  # the fire a lost link left with no count yet

    def handle_press(self) -> PressEvent:
        now = self.clock.now()
        self.tally.presses += 1
        if self.awaiting_reload:
            return self._press_while_empty(now)
        previous, self._last_press = self._last_press, now
        gap = self.options.min_gap_s
        if gap > 0 and previous is not None and now - previous < gap:
            self.tally.refused += 1
            self.launcher.beep("not_owed")
            return PressEvent("mash", f"too quick: wait {gap:g} s between presses")
        count = self.profile.next_count(MAX_FIRE)  # the beam, not the estimate, says when cards run out
        if count == 0:
            return PressEvent("nothing", result=FireResult(0, 0, None))
        if self.options.suspense_s > 0:
            self._suspense(self.rng.uniform(0.0, self.options.suspense_s))
        return self._fire(count)

    def _suspense(self, seconds: float) -> None:
        """Waits `seconds`, talking to the launcher every half second: a silent host past the firmware's
        `link_ms` (4 s) would be taken for gone, and the launcher would fire presses alone."""
        end = self.clock.now() + seconds
        while (left := end - self.clock.now()) > 0:
            self.clock.sleep(min(KEEPALIVE_S, left))
            self.launcher.status()  # a STATUS round trip: the link's pump also sends its heartbeat

    def _fire(self, count: int) -> PressEvent:
        result = self.launcher.fire(count)
        if result.fault == "link" and result.details.get("detail") in ("lost", "reboot"):
            # FIRED never came: the cards may be out; the launcher says how many once it answers
            self.unsettled = PressEvent("unsettled", "the link was lost during this fire: how many cards "
                                        "came out is known once the launcher answers", result,
                                        self.tally.presses)
            return self.unsettled
        self.tally.book(result)
        if result.fault is None:
            return PressEvent("fire", result=result)
        if result.fault == "empty":
            self.awaiting_reload, self._reload_press, self.tally.estimate = True, None, 0
            return PressEvent("fire", f"the launcher is empty (L4): {RELOAD_HOW}", result)
        self._clearing = result.fault in ("jam", "stuck")
        return PressEvent("fire", fault_action(result.fault), result)

    def _press_while_empty(self, now: float) -> PressEvent:
        if self._reload_press is not None and now - self._reload_press <= self.options.confirm_s:
            return self._reloaded("a double press says the launcher is reloaded")
        self._reload_press = now
        self.launcher.beep("empty")
        return PressEvent("reload_needed", f"the launcher is empty: {RELOAD_HOW}")

    def _reloaded(self, how: str) -> PressEvent:
        self.awaiting_reload, self._reload_press = False, None
        self._fired_at_reload, self._clearing = self.tally.fired, False
        refill = getattr(self.launcher, "refill", None)
        if refill is not None:  # the simulator: the reload it is told of happens in its hopper
            self.tally.estimate = refill(self.tally.start)
            how += f" (the simulated hopper now holds {self.tally.estimate})"
        else:
            self.tally.estimate = self.tally.start
        self.tally.reloads += 1
        return PressEvent("reload", f"{how}: about {counted(self.tally.estimate, 'card')}; press to fire")

    def elapsed(self) -> float:
        """Seconds since the session started, on the launcher's clock (virtual on the simulator)."""
        return self.clock.now() - self.started

    # -- the link ------------------------------------------------------------------------------------
    def lost(self, exc: LauncherError | None = None) -> PressEvent | None:
        """The link is down: told once (None while it stays down). Another launcher at the port (`exc` a
        StrangerLauncher) is told as such: nothing fires on it and its presses are not this tally's."""
        if self._lost_at is None:
            self._lost_at = self.clock.now()
        if isinstance(exc, StrangerLauncher):  # told once, also after "link lost"
            if self._stranger_told:
                return None
            self.link_down = self._stranger_told = True
            return PressEvent("stranger", f"another launcher: {exc}")
        if self.link_down:
            return None
        self.link_down = True  # one line, under 80 columns: the tally above it stays on screen
        return PressEvent("link", "link lost: waiting for the launcher; check its USB cable. "
                          "Presses fire alone.")

    def sync(self, connected: bool) -> Iterator[PressEvent]:
        """With the launcher answering: its return told once, the fire in flight settled by the launcher's
        memory, then the fires it made alone, each a press of the tally (oldest first). Each event comes
        once the tally has it, so a front end prints the running totals true."""
        if not connected:
            return
        self._lost_at = None
        self._stranger_told = False
        if self.link_down:
            self.link_down = False
            yield PressEvent("link_back", "link back: the launcher answers again")
        if self.unsettled is not None:
            pending, self.unsettled = self.unsettled, None
            yield self._settle(pending)
        for result in self.launcher.take_standalone_fires():
            self.tally.presses += 1
            self.tally.book(result)
            fault = f"; it stopped: {result.fault}" if result.fault else ""
            yield PressEvent("alone", f"fired alone while the link was down{fault}", result,
                             self.tally.presses)

    def finish(self) -> None:
        """The session ends (Ctrl-C, SIGTERM) with a fire the link left unsettled: its cards came out or not,
        nobody can tell now, so the summary counts it as a fire of unknown count, not as nothing."""
        if self.unsettled is not None:
            self.unsettled = None
            self.tally.fires += 1
            self.tally.unknown += 1
            self.tally.faults["link"] += 1

    def _settle(self, pending: PressEvent) -> PressEvent:
        asked = pending.result.requested if pending.result else 0
        fire_id = pending.result.details.get("fire_id") if pending.result else None
        result = self.launcher.fire_result(fire_id) if fire_id is not None else None
        if result is None:
            self.tally.fires += 1
            self.tally.unknown += 1
            self.tally.faults["link"] += 1
            return PressEvent("unknown", "the launcher cannot tell how many cards this fire gave (it "
                              "restarted, or forgot it): the tally leaves them out",
                              FireResult(asked, 0, "link"), pending.press)
        self.tally.book(result)
        came = f"{counted(result.fired, 'card')} came out"
        return PressEvent("settled", f"the launcher is back and remembers this fire: {came}; nothing was "
                          "fired again", result, pending.press)

    def poll(self) -> list[PressEvent]:
        """Looks at the lid: open then closed while a reload is awaited, or after cards were fired, is a
        reload."""
        status = self.launcher.status()
        return self._lid(status.lid_open, status.lid_opens)

    def _lid(self, lid_open: bool, opens: int | None = None) -> list[PressEvent]:
        """What the lid did since the last look: shut after being open (a reload, or the lid closed), then
        open again. `opens` (the driver's count of openings) shows a top-up done between two looks."""
        was_open, seen = self.lid_open, self._lid_opens
        self.lid_open, self._lid_opens = lid_open, opens
        opened = opens - (seen or 0) if opens is not None else int(lid_open and not was_open)
        closed = opened + int(was_open) - int(lid_open) > 0
        events = [self._lid_closed()] if closed else []
        if lid_open and (opened > 0 or not was_open):
            events.append(PressEvent("lid_open", "lid open: load or straighten the cards, then close it"))
        return events

    def _lid_closed(self) -> PressEvent:
        if self.awaiting_reload:
            return self._reloaded("lid closed after a reload")
        if self._clearing:
            self._clearing = False
            return PressEvent("lid_closed", "lid closed; press to fire")
        if self.tally.fired > self._fired_at_reload:  # cards went out since the last load: a top-up
            return self._reloaded("lid opened and shut: a top-up, counted as a reload")
        return PressEvent("lid_closed", "lid closed; press to fire")

    def run(self, on_event: Callable[[PressEvent], None], *, presses: int | None = None,
            virtual: bool = False, press_gap: Callable[[], float] | None = None) -> Tally:
        """Until `presses` presses (forever when None); `virtual` makes each press on a simulated launcher,
        `press_gap()` seconds of virtual time after the one before (default: none)."""
        while presses is None or self.tally.presses < presses:
            try:
                self._step(on_event, virtual, press_gap)
            except VirtualPressError:
                raise
            except LauncherError as exc:
                event = self.lost(exc)
                if event is not None:
                    on_event(event)
                if virtual and self.clock.now() - (self._lost_at or 0.0) > VIRTUAL_LOST_S:
                    raise
                self.clock.sleep(1.0)  # the driver reconnects by itself; an evening never ends on a cable
        return self.tally

    def _step(self, on_event: Callable[[PressEvent], None], virtual: bool,
              press_gap: Callable[[], float] | None = None) -> None:
        status = self.launcher.status()
        for event in self.sync(status.connected):
            on_event(event)
        for event in self._lid(status.lid_open, status.lid_opens):
            on_event(event)
        if virtual and press_gap is not None and self.tally.presses:
            # the virtual player's pause, spent listening to the launcher (its heartbeats keep the link)
            if self.launcher.wait_press(timeout=press_gap()):
                raise VirtualPressError("the simulated launcher took a press nobody made; "
                                        "run `unox diagnose`")
        if virtual:
            self.launcher.press_button()  # type: ignore[attr-defined]
        if self.launcher.wait_press(timeout=5.0 if virtual else self.options.poll_s):
            at = self.elapsed()
            event = self.handle_press()
            event.press, event.at = self.tally.presses, at
            on_event(event)
        elif virtual:
            raise VirtualPressError("the launcher did not take the virtual press; run `unox diagnose`")
