"""Test-only: run the real `unox table` CLI with a hopper witness and a SIGKILL armed at a chosen point.

    python crashing_table.py WITNESS KILL -- table --resume game.db

WITNESS: a file that gets `life` when this process starts, `fire ID` when the launcher driver is told to
fire (before any card moves), and `card` for each card that really leaves the simulated launcher (the
simulator's ground truth, `LauncherModel.ejected`). Each line is written with `os.write` at once, so it
survives the SIGKILL that may follow a moment later.

KILL: where this process kills itself with SIGKILL (a real kill, by the kernel; nothing is flushed):
  card:N     when the N-th card of this life leaves the launcher, in the middle of a fire
  intent:N   right after the N-th fire intent is committed, before the launcher is told to fire
  resolve:N  after the N-th fire has ended, before its outcome is committed (the window of issue 7, item 1)
  standalone:N        before the N-th fire the launcher made alone is committed (issue 13, item 9)
  standalone_after:N  right after that commit, before the launcher hears TAKEN
  none       never (the test may kill it from outside)

Nothing here is part of unox: it patches the simulator and the journal from outside, in this process only.
"""

from __future__ import annotations

import os
import signal
import sys


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def install_witness(path: str, kill_at_card: int | None) -> None:
    from unox.launcher.serial import SerialLauncher
    from unoxsim.physics import LauncherModel

    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.write(fd, b"life\n")
    seen = {"cards": 0}
    real_fire = SerialLauncher.fire

    def fire(self, n, fire_id=None):
        os.write(fd, f"fire {fire_id}\n".encode())
        return real_fire(self, n, fire_id)

    SerialLauncher.fire = fire  # type: ignore[method-assign]

    def get(model: LauncherModel) -> int:
        return model.__dict__.get("_witnessed_ejected", 0)

    def set_(model: LauncherModel, value: int) -> None:
        old = model.__dict__.get("_witnessed_ejected", 0)
        model.__dict__["_witnessed_ejected"] = value
        for _ in range(max(0, value - old)):
            os.write(fd, b"card\n")
            seen["cards"] += 1
            if kill_at_card is not None and seen["cards"] == kill_at_card:
                die()

    LauncherModel.ejected = property(get, set_)  # type: ignore[assignment]


def arm_journal(method: str, nth: int, *, after: bool) -> None:
    from unox.table.journal import Journal

    real = getattr(Journal, method)
    calls = {"n": 0}

    def wrapper(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == nth and not after:
            die()
        result = real(self, *args, **kwargs)
        if calls["n"] == nth and after:
            die()
        return result

    setattr(Journal, method, wrapper)


def main() -> int:
    witness, kill, separator, *argv = sys.argv[1:]
    assert separator == "--", "usage: crashing_table.py WITNESS KILL -- unox arguments"
    kind, _, number = kill.partition(":")
    install_witness(witness, int(number) if kind == "card" else None)
    if kind == "intent":
        arm_journal("begin_fire", int(number), after=True)
    elif kind == "resolve":
        arm_journal("resolve_fire", int(number), after=False)
    elif kind in ("standalone", "standalone_after"):
        arm_journal("record_standalone", int(number), after=kind == "standalone_after")
    from unox.cli.main import main as unox_main

    return unox_main(argv)


if __name__ == "__main__":
    sys.exit(main())
