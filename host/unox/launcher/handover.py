"""Asks the firmware on a port to hand MicroPython's REPL over, so mpremote can reach it (firmware flash).

While main.py runs, no byte on the wire stops it (the keyboard interrupt is off), so mpremote's Ctrl-C alone
no longer works. The flash first runs this, as its own process on the port (`python -m
unox.launcher.handover PORT`): it listens for the firmware's heartbeats; if our firmware speaks, a HELLO, then
the frame `REPL`; main.py stops the motor, answers `REPL ok` and ends its loop into the REPL. A port where
nothing speaks (a fresh Pico, main.py already stopped) or a firmware older than the frame (it keeps Ctrl-C)
is left to mpremote as it is. docs/protocol.md, "REPL".
"""

from __future__ import annotations

import sys

from unox.launcher.base import LauncherError
from unox.launcher.port_link import QUIET_S, PortLink

LISTEN_S = 1.5  # the firmware beats every 250 ms: this long without a frame, no firmware of ours runs
REPLY_S = 3.0
HANDED_OVER, SILENT, OLD = "handed over", "silent", "old"
RECOVER = ("unplug the Pico and plug it in again, then flash again; if main.py still cannot be reached, "
           "recover the Pico in BOOTSEL mode (docs/install.md, \"A Pico that cannot be reached\")")


def hand_over(link: PortLink, listen_s: float = LISTEN_S) -> str:
    """SILENT (no firmware of ours speaks), OLD (it does not know REPL, and keeps Ctrl-C) or HANDED_OVER;
    LauncherError when our firmware speaks but did not hand over."""
    link.watch_prompt = False  # the prompt that follows is what we asked for: never restart main.py
    link.heard = float("-inf")  # nothing heard yet on this port: listen for the firmware's beats
    link.listen(listen_s)
    if link.silent_for() > QUIET_S:
        return SILENT
    link.handshake()
    state, errors = link.state, len(link.state.errors)
    state.repl = None
    link.send("REPL")
    link.wait(lambda: state.repl is not None or len(state.errors) > errors, REPLY_S)
    link.drop_held()  # an ACK now would reach the REPL as typed text
    if state.repl == "ok":
        return HANDED_OVER
    if any(what == "REPL" and reason == "unknown_kind" for what, reason, _ in state.errors[errors:]):
        return OLD
    raise LauncherError(f"the firmware on {link.name} did not hand over its REPL; {RECOVER}")


def main(argv: list[str]) -> int:
    """One port: 0 when mpremote may go on (with a line saying why), 1 with the reason on stderr."""
    from unox.launcher.serial import SerialLauncher

    if len(argv) != 1:
        print("usage: python -m unox.launcher.handover PORT", file=sys.stderr)
        return 2
    device = argv[0]
    try:
        port = SerialLauncher.open_serial(device)
    except LauncherError as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        outcome = hand_over(PortLink(port, name=device))
    except LauncherError as exc:
        print(exc, file=sys.stderr)
        return 1
    finally:
        port.close()
    print({HANDED_OVER: f"main.py on {device} stopped its motor and handed over the REPL",
           SILENT: f"no unox firmware speaks on {device}: the REPL is mpremote's",
           OLD: f"the firmware on {device} predates REPL: mpremote stops it with Ctrl-C"}[outcome])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
