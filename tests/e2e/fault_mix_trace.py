"""Replay the fault-mix audit (test_fault_mix_count.py, seed 11) and print every press where FIRED k is not
the cards out, with the press before it: each change of the feeder's phase, the beam, the bridge's inputs,
the roller's speed, the pack, the feeder's counters and the cards in the path (`x2@187.2/148J`: a pair, its
front 187.2 mm along, 148 mm long; J jammed, S stuck in the slot, F flying free, j will wedge, s will snag).

    .venv/bin/python tests/e2e/fault_mix_trace.py MIX [PRESSES] [EXTRA]

MIX is one of test_fault_mix_count.MIXES (`jam+double`, ...); EXTRA more sim URL parameters (`&battery=3700`).
A tool for finding a path (docs/reliability.md), not a test; the audit itself is the pytest command.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from test_fault_mix_count import MIXES, press_and_clear  # noqa: E402
from unox.launcher import open_launcher  # noqa: E402
from unoxsim.physics import HOPPER_CAPACITY  # noqa: E402

PHASES = ("IDLE", "SPIN", "RETRY_BACK", "EXIT", "END_BACK", "SETTLE", "RUNDOWN", "BRAKE", "PRE_BACK",
          "EXIT_BACK", "EXIT_PUSH")


def card_text(card) -> str:
    flags = "".join(flag for flag, on in (("J", card.jammed), ("S", card.stuck), ("F", card.free_speed),
                                          ("j", card.jam_at is not None), ("s", card.snags)) if on)
    return f"x{card.count}@{card.pos:.1f}/{card.length:.0f}{flags}"


def main(mix: str, presses: int, extra: str = "") -> int:
    launcher = open_launcher(f"sim:?seed=11&cards={HOPPER_CAPACITY}&{MIXES[mix]}{extra}")
    device, model = launcher.device, launcher.device.model
    log: list[str] = []
    last: list[object] = [None]
    step = device._step

    def traced_step(dt: int) -> None:
        step(dt)
        feeder = device.app.feeder
        cards = tuple((c.count, c.jammed, c.stuck, c.free_speed is None) for c in model.path)
        key = (feeder._phase, model.beam_blocked(), device._in1.drive(), device._in2.drive(),
               feeder._count, feeder._pulled, feeder.blocks.extra, feeder._frees, feeder._end_tries,
               feeder._stall_ms, model.ejected, model.hopper, cards)
        if key != last[0]:
            last[0] = key
            log.append(f"{device.now_ms():9d} {PHASES[feeder._phase]:10s} beam={'X' if key[1] else '.'} "
                       f"in={key[2]:.2f}/{key[3]:.2f} speed={model.motor.speed:+.2f} "
                       f"pack={model.battery.terminal_mv:.0f} count={feeder._count} "
                       f"pulled={feeder._pulled} "
                       f"extra={feeder.blocks.extra} frees={feeder._frees} tries={feeder._end_tries} "
                       f"stall={feeder._stall_ms} ref={feeder.blocks.ref} out={model.ejected} "
                       f"hopper={model.hopper} | {' '.join(card_text(c) for c in model.path)}")

    device._step = traced_step
    before: list[str] = []
    wrong = []
    for i in range(presses):
        log.clear()
        last[0] = None
        fired, out, pair = press_and_clear(launcher, 1 + i % 3)
        if fired != out:
            wrong.append(i)
            print(f"===== press {i - 1} =====", *before, sep="\n")
            head = f"===== press {i}: fire {1 + i % 3}, FIRED {fired}, out {out}, pair in the beam {pair}"
            print(head, *log, sep="\n", flush=True)
        before = list(log)
    print(f"{mix}: {presses} presses, wrong at {wrong}")
    launcher.close()
    return 1 if wrong else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0] not in MIXES:
        sys.exit(f"usage: fault_mix_trace.py MIX [PRESSES] [EXTRA]; MIX one of {', '.join(MIXES)}")
    sys.exit(main(args[0], int(args[1]) if len(args) > 1 else 15000, args[2] if len(args) > 2 else ""))
