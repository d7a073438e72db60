"""What the host knows about the firmware, updated frame by frame (docs/protocol.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from unoxfw.link import PROTOCOL

from unox.launcher.base import FireResult, LauncherError

FAULT_EVENTS = {"JAM": "jam", "EMPTY": "empty", "STUCK": "stuck"}


@dataclass
class DeviceState:
    """Applies device frames; the serial driver reads the results. No I/O here."""

    firmware: str | None = None
    board: str | None = None  # HELLO's board (the launcher's identity); None from a firmware without one
    protocol: int | None = None
    device_epoch: str | None = None
    lid_open: bool = False
    lid_opens: int = 0  # LID open frames (and STATUS replies) that found it newly open: every top-up counts
    battery_mv: int | None = None
    battery_low: bool = False
    counted: int = 0
    mode: str | None = None
    peer_seen: str | None = None  # the host epoch the device's last HEARTBEAT named
    presses: int = 0
    last_fault: str | None = None
    results: dict[str, FireResult] = field(default_factory=dict)
    fault_details: dict[str, str] = field(default_factory=dict)
    status: dict[str, str] = field(default_factory=dict)
    config: dict[str, str] = field(default_factory=dict)
    errors: list[tuple[str, str, str]] = field(default_factory=list)
    answers: dict[str, tuple[str, ...]] = field(default_factory=dict)  # RESULT by fire id (decimal text)
    standalone: list[FireResult] = field(default_factory=list)  # ALONE fires not yet taken, oldest first
    taken_due: list[tuple[str, str]] = field(default_factory=list)  # (boot, number) to answer with TAKEN
    recorded: set[tuple[str, str]] = field(default_factory=set)  # ALONEs the host has recorded: TAKEN may go
    _alone_seen: set[tuple[str, str]] = field(default_factory=set)

    def apply(self, kind: str, args: tuple[str, ...]) -> None:
        handler = getattr(self, "_on_" + kind.lower(), None)
        if handler is not None:
            try:
                handler(args)
            except (IndexError, ValueError):
                self.errors.append((kind, "malformed", " ".join(args)))

    def _on_hello(self, args: tuple[str, ...]) -> None:
        if len(args) < 3:
            return  # not a firmware HELLO (protocol, version, epoch): e.g. our own echoed back
        self.protocol, self.firmware, self.device_epoch = int(args[0]), args[1], args[-1]
        self.board = args[2] if len(args) >= 4 else None  # older firmware: proto, version, epoch only
        if self.protocol != PROTOCOL:
            raise LauncherError(
                f"the launcher firmware speaks protocol {self.protocol}, this host speaks {PROTOCOL}: "
                "update it with `unox firmware flash`"
            )

    def _on_lid(self, args: tuple[str, ...]) -> None:
        self._lid(args[0] == "open")

    def _lid(self, now_open: bool) -> None:
        if now_open and not self.lid_open:
            self.lid_opens += 1
        self.lid_open = now_open

    def _on_battery(self, args: tuple[str, ...]) -> None:
        self.battery_mv, self.battery_low = int(args[0]), args[1] == "low"

    def _on_button(self, args: tuple[str, ...]) -> None:
        self.presses += 1

    def _on_alone(self, args: tuple[str, ...]) -> None:
        """A fire the firmware made alone; it is sent again until TAKEN, so only its first copy counts. TAKEN
        answers it only once the host has recorded it (`recorded`): a copy before that is only dropped."""
        boot, number, fired, n, fault = args[0], args[1], int(args[2]), int(args[3]), args[4]
        key = (boot, number)
        if key in self._alone_seen:
            if key in self.recorded:
                self.taken_due.append(key)  # our TAKEN was lost, or not sent yet: again
            return
        self._alone_seen.add(key)
        details = {"standalone": int(number), "boot": int(boot, 16)}
        self.standalone.append(FireResult(n, fired, None if fault == "-" else fault, details))
        self.counted += fired

    def _on_result(self, args: tuple[str, ...]) -> None:
        self.answers[args[0]] = args[1:]

    def _on_fired(self, args: tuple[str, ...]) -> None:
        fired, n, fault, ref = int(args[0]), int(args[1]), args[2], args[3]
        fault = None if fault == "-" else fault
        detail = self.fault_details.pop(ref, "-")
        details = {"detail": detail} if detail != "-" else {}
        self.results[ref] = FireResult(n, fired, fault, details)
        self.counted += fired
        self.last_fault = fault

    def _on_jam(self, args: tuple[str, ...]) -> None:
        self.fault_details[args[0]] = args[1]

    _on_empty = _on_stuck = _on_jam

    def _on_status(self, args: tuple[str, ...]) -> None:
        self.status = dict(arg.split("=", 1) for arg in args)
        self._lid(self.status.get("lid") == "open")
        self.battery_mv = int(self.status.get("mv", self.battery_mv or 0)) or None
        self.battery_low = self.status.get("low") == "1"
        self.mode = self.status.get("mode", self.mode)
        self.counted = int(self.status.get("counted", self.counted))

    def _on_config(self, args: tuple[str, ...]) -> None:
        self.config[args[0]] = args[1]

    def _on_err(self, args: tuple[str, ...]) -> None:
        self.errors.append((args[0], args[1], args[2] if len(args) > 2 else ""))

    def _on_heartbeat(self, args: tuple[str, ...]) -> None:
        self.peer_seen, self.mode = args[1], args[2]

    def faults(self) -> list[str]:
        faults = [self.last_fault] if self.last_fault and self.last_fault != "abort" else []
        if self.lid_open and "lid" not in faults:
            faults.append("lid")
        if self.battery_low and "battery" not in faults:
            faults.append("battery")
        return faults
