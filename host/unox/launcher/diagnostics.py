"""Launcher self-test: each check is one row of `unox diagnose` (pass, fail or skip, and what to do)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

from unoxfw.settings import LIMITS

from unox.launcher.base import Launcher, LauncherStatus
from unox.launcher.faults import fault_action
from unox.words import counted as count_of  # `counted` names the beam's count in this module


@dataclass
class Check:
    name: str
    result: str  # pass | fail | skip
    detail: str

    def to_dict(self) -> dict:
        return asdict(self)


def _ok(name: str, good: bool, detail: str) -> Check:
    return Check(name, "pass" if good else "fail", detail)


def run_checks(
    launcher: Launcher, *, cards: int = 2, button_timeout: float = 10.0,
    prompt: Callable[[str], None] = print, thresholds: dict | None = None,
) -> list[Check]:
    """Every check, in the order a person would fix them; none stops the others. `thresholds`: the
    configured [firmware] settings (low_mv, crit_mv), which the battery row prints."""
    status = launcher.status()
    checks = [check_firmware(status), check_lid(status), check_battery(status, thresholds),
              check_beam_clear(status)]
    checks.append(check_buzzer(launcher))
    checks.append(check_button(launcher, button_timeout, prompt))
    checks += check_motor(launcher, cards)
    checks.insert(0, check_link(launcher, launcher.status()))  # judged over all the traffic above
    device = getattr(launcher, "device", None)
    if device is not None:
        checks.append(check_simulated_faults(device))
    return checks


def check_link(launcher: Launcher, status: LauncherStatus) -> Check:
    endpoint = getattr(getattr(launcher, "link", None), "endpoint", None)
    if endpoint is None:
        if not status.connected:
            return Check("link", "fail", fault_action("link"))
        return Check("link", "pass", "no serial link (direct driver)")
    lost, bad, dups = endpoint.retransmits, endpoint.decoder.errors, endpoint.duplicates
    detail = (f"{count_of(lost, 'retransmit')} (lost frames), {count_of(bad, 'bad frame')} (corrupt), "
              f"{count_of(dups, 'duplicate frame')}")
    if not status.connected:  # the counts say why a link that dropped out was lossy on the way
        return Check("link", "fail", f"{fault_action('link')}; before that: {detail}")
    if lost or bad or dups:
        return Check("link", "fail", f"lossy link: {detail}; try another USB cable or port")
    return Check("link", "pass", "clean: " + detail)


def check_firmware(status: LauncherStatus) -> Check:
    if status.firmware is None:
        return Check("firmware", "skip", "no firmware on this launcher (direct GPIO or script)")
    board = status.board_id or "unknown (this firmware predates board ids: unox firmware flash)"
    return Check("firmware", "pass", f"unoxfw {status.firmware}, board {board}")


def check_lid(status: LauncherStatus) -> Check:
    return _ok("lid", not status.lid_open, fault_action("lid") if status.lid_open else "shut")


def check_battery(status: LauncherStatus, thresholds: dict | None = None) -> Check:
    settings = {key: LIMITS[key][0] for key in ("low_mv", "crit_mv")}
    settings.update({key: int(value) for key, value in (thresholds or {}).items() if key in settings})
    if status.battery_mv is None:
        return Check("battery", "skip", "this launcher cannot measure its pack")
    # judged against the configured threshold: the device re-judges a changed low_mv only at its next sample
    low = status.battery_mv < settings["low_mv"]
    detail = (f"{status.battery_mv} mV (low below {settings['low_mv']} mV, fires refused below "
              f"{settings['crit_mv']} mV)")
    return _ok("battery", not low, f"battery low: {detail}; {fault_action('battery')}" if low else detail)


def check_beam_clear(status: LauncherStatus) -> Check:
    blocked = status.beam_blocked or "stuck" in status.faults
    return _ok("beam", not blocked, fault_action("stuck") if blocked else "clear before the run")


def check_buzzer(launcher: Launcher) -> Check:
    device = getattr(launcher, "device", None)
    before = device.beeps() if device is not None else 0
    launcher.beep("press")
    if device is None:
        return Check("buzzer", "pass", "played the press pattern: you should have heard one beep")
    launcher.wait_press(timeout=0.3)  # let the simulated buzzer play
    sounded = device.beeps() > before
    return _ok("buzzer", sounded, "the buzzer sounded" if sounded else "silent: check the buzzer wiring")


def check_button(launcher: Launcher, timeout: float, prompt: Callable[[str], None]) -> Check:
    virtual = getattr(launcher, "press_button", None)
    if virtual is not None:
        virtual()
    else:
        prompt(f"press the launcher's button within {timeout:g} s")
    if launcher.wait_press(timeout=timeout):
        return Check("button", "pass", "a press was taken" + (" (virtual)" if virtual else ""))
    return Check("button", "fail", f"no press within {timeout:g} s: check the button and its wiring")


def check_motor(launcher: Launcher, cards: int) -> list[Check]:
    before = launcher.status().cards_counted
    result = launcher.fire(cards)
    counted = launcher.status().cards_counted - before
    if result.fault:
        detail = result.details.get("detail", "")
        reason = f"{result.fault}" + (f" ({detail})" if detail else "")
        advice = fault_action(result.fault)
        motor = Check("motor", "fail", f"fired {result.fired} of {cards}: {reason}; {advice}")
    else:
        motor = Check("motor", "pass", f"fired {result.fired} of {cards}")
    beam = _ok("beam count", counted == result.fired and counted > 0,
               f"the beam counted {count_of(counted, 'card')}")
    return [motor, beam]


def check_simulated_faults(device) -> Check:
    """The simulator knows the truth: every fault it injected, and cards the beam missed (double feeds)."""
    injected = {name: n for name, n in device.model.fault_counts.items() if n}
    missed = device.cards_out - device.app.counted
    if missed > 0:
        injected["double feed (beam missed)"] = missed
    if not injected:
        return Check("simulator", "pass", "no fault injected")
    names = ", ".join(f"{name} x{n}" for name, n in injected.items())
    return Check("simulator", "fail", f"faults injected: {names}")
