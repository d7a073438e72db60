"""3. Safety in the emulated chip's time: the on-time cap, the lid opened mid-fire, host silence, and a hung
firmware (a Python loop that never returns; a long call into C) on MicroPython's rp2 port.

Measured here: a hard `machine.Timer` callback (hard=True, which `Board.cut_after` asks for) runs on this
port both while the interpreter spins in Python code and while it is inside one long C call; a soft one only
in the first case. So the on-time cap's backstop stops the motor at max_on_ms + 20 ms either way, before the
5 s watchdog; the watchdog then restarts the chip, main.py comes back, and the host's link recovers."""

from __future__ import annotations

from unox.table.journal import Journal
from unoxsim.pico import repl_exec

from tests.e2e.conftest import firmware_config
from tests.simulator.conftest import HostSide
from tests.table.tablekit import FixedProfile, new_table, started

HOPPER_CAPACITY = 112
CAP_MS = 600
CUT_MARGIN_MS = 20  # unoxfw.feeder._CUT_MARGIN_MS: the hard timer fires this long after max_on_ms
WDT_MS = 5000


def motor_on_spans(device) -> list[tuple[float, float]]:
    """(start, end) of every stretch with either motor pad driven, in emulated ms (end: now if still on)."""
    spans, start = [], None
    events = sorted([(t, "in1", v) for t, v in device.wire("motor_in1").history]
                    + [(t, "in2", v) for t, v in device.wire("motor_in2").history])
    level = {"in1": 0.0, "in2": 0.0}
    for t, pad, value in events:
        level[pad] = value
        on = level["in1"] > 0 or level["in2"] > 0
        if on and start is None:
            start = t
        elif not on and start is not None:
            spans.append((start, t))
            start = None
    if start is not None:
        spans.append((start, device.now_ms()))
    return spans


def test_on_time_cap_stops_the_motor_on_the_chip(pico, host):
    device = pico(seed=1, cards=HOPPER_CAPACITY)
    launcher = host(device, config=firmware_config(max_on_ms=CAP_MS))
    result = launcher.fire(40)
    assert (result.fault, result.details["detail"]) == ("jam", "ontime")
    assert 0 < result.fired < 40
    assert device.model.longest_run_ms <= CAP_MS + 5  # the loop's own check: within a tick or two
    assert device.wire("motor_in1").level() == 0


def test_lid_opened_mid_fire_stops_the_motor_within_milliseconds(pico, host):
    device = pico(seed=6, cards=HOPPER_CAPACITY)
    launcher = host(device)
    launcher.status()
    device.schedule(200, device.open_lid)
    result = launcher.fire(13)
    assert result.fault == "lid" and result.fired < 13
    assert device.model.lid_open_motor_ms <= 3  # 1 ms physics slices: the firmware reacts at once


def test_host_silence_stops_the_motor_within_silence_ms(pico):
    device = pico(seed=2, cards=HOPPER_CAPACITY)
    writes: list[int] = []
    side = HostSide(device)
    side.link = type(side.link)(lambda frame: (writes.append(device.now_ms()), device.host_write(frame)),
                                epoch=side.link.epoch)
    side.hello()
    side.link.send("FIRE", (40,), device.now_ms())
    side.pump(300)
    assert device.wire("motor_in1").level() > 0
    last_from_host = writes[-1]  # the host's last frame (a heartbeat or an ACK); nothing is sent after it
    device.advance(2000)  # the host falls silent
    (start, end), *_ = [span for span in motor_on_spans(device) if span[1] > last_from_host]
    # silence_ms (1500), judged by the firmware's loop from the last frame it took in; that frame's trip
    # through the emulated USB stack and the firmware's stdin poll is part of the figure (35 ms measured)
    assert 1500 <= end - last_from_host <= 1500 + 50
    assert device.wire("motor_in1").level() == 0 and device.boots == 1


def hang_after_200_ms_of_motor(hang: str) -> str:
    """main.py's loop, run from the REPL, that hangs 200 ms into a fire (the watchdog re-armed first)."""
    return f"""
import machine, time, main
wdt = machine.WDT(timeout={WDT_MS})
board, app = main.boot(machine, main.UsbIO(), time.ticks_ms(), wdt)
on = None
while True:
    now = time.ticks_ms()
    main.step(board, app, now)
    if board.motor_value() > 0:
        if on is None:
            on = now
        elif time.ticks_diff(now, on) >= 200:
            break
    time.sleep_ms(1)
{hang}
"""


def start_hanging_firmware(device, hang: str) -> None:
    repl_exec(device, "print(1)")  # Ctrl-C stops main.py (it pauses its watchdog) into the raw REPL
    device.host_write(hang_after_200_ms_of_motor(hang).encode() + b"\x04")
    assert device.advance_until(2000, lambda: device.host_pending() >= 2)
    assert device.host_read(2) == b"OK"  # the raw REPL took the code; what follows is the firmware's


def test_a_python_loop_hang_mid_fire_is_cut_by_the_hard_timer_at_the_on_time_cap(pico, host):
    device = pico(seed=4, cards=HOPPER_CAPACITY)
    start_hanging_firmware(device, "while True:\n    pass")
    launcher = host(device, config=firmware_config(max_on_ms=CAP_MS))
    result = launcher.fire(13)
    assert result.fault == "link"  # the loop hung: no FIRED came
    (start, end), = motor_on_spans(device)
    assert CAP_MS <= end - start <= CAP_MS + CUT_MARGIN_MS + 5
    assert device.boots == 1  # stopped by the timer, long before the watchdog


def test_a_hang_in_one_long_c_call_is_cut_by_the_hard_timer_then_the_watchdog_restarts_the_chip(pico, host,
                                                                                               tmp_path):
    """The fire is a table's (journalled, Bob's press); after the restart the table settles it as
    docs/reliability.md says: the chip cannot tell, so it stays unsettled until the operator's count."""
    device = pico(seed=4, cards=HOPPER_CAPACITY)
    start_hanging_firmware(device, "sum(range(10**9))")  # one C call: minutes on a real RP2040
    launcher = host(device, config=firmware_config(max_on_ms=CAP_MS))
    launcher.status()
    told: list[str] = []
    table = new_table(launcher=launcher, journal=Journal(tmp_path / "table.db"), seed=3)
    table.listeners.append(told.append)
    table.profile = FixedProfile(40)
    started(table)  # Bob's turn to press
    reply = table.button()
    assert reply["error"]["code"] == "unsettled" and "launcher fault (link)" in " ".join(told)
    pending = table.journal.pending_fire()
    assert (pending["player"], pending["requested"], pending["fired"]) == ("Bob", 40, None)
    (start, end), = motor_on_spans(device)
    assert CAP_MS <= end - start <= CAP_MS + CUT_MARGIN_MS + 5  # a soft timer would not have run
    launcher.clock.sleep(WDT_MS / 1000)
    assert device.boots == 2 and device.resets[-1][1] == 1  # WATCHDOG.REASON: the timer ran out
    assert device.resets[-1][0] - start <= 200 + WDT_MS + 5  # the last feed was 200 ms into the fire
    cards_out = device.model.ejected + device.model.past_beam()
    assert cards_out > 0  # the motor ran 600 ms: cards came out that nobody counted for the host
    # rebooted: the chip cannot tell, so the table, having asked it, still holds the fire for the operator
    assert launcher.fire_result(pending["fire_id"]) is None
    assert table.button()["error"]["code"] == "unsettled"
    assert table.state()["unsettled"]["fire_id"] == pending["fire_id"]
    reply = table.handle({"cmd": "settle", "fired": cards_out})  # the operator counts what came out
    assert reply["ok"] and reply["settled"]["fired"] == cards_out, reply
    fires = table.journal.fires()
    assert [(f["player"], f["fired"], f["settled_by"]) for f in fires] == [("Bob", cards_out, "operator")]
    assert sum(f["fired"] for f in fires) == device.model.ejected + device.model.past_beam()
    assert table.journal.pending_fire() is None and "unsettled" not in table.state()
    assert launcher.fire(2).fired == 2  # main.py came back from flash; the host's link recovered alone
    assert device.model.ejected + device.model.past_beam() == cards_out + 2
