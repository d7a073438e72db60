"""The virtual USB cable between host and board: two byte queues with per-frame fault injection.

The link protocol sends ASCII lines, so a frame is everything up to and including b"\\n". With fault rates
set, each direction holds bytes until a frame is complete and then, with the channel's own seeded RNG,
drops it, corrupts one bit of it, or delivers it twice (one fate per frame: `drop + corrupt + dup <= 1`).
Unplugged, nothing flows either way and the bytes in flight are lost; the board keeps running on its
battery (it does not reset).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

FRAME_END = b"\n"


@dataclass
class FaultyChannel:
    """One direction of the cable."""

    rng: random.Random
    drop: float = 0.0
    corrupt: float = 0.0
    dup: float = 0.0
    stats: dict[str, int] = field(default_factory=lambda: {"frames": 0, "dropped": 0, "corrupted": 0,
                                                           "duplicated": 0})

    def __post_init__(self) -> None:
        for name in ("drop", "corrupt", "dup"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name}={value}: a probability per frame must be between 0 and 1")
        if self.drop + self.corrupt + self.dup > 1.0:
            raise ValueError(f"drop + corrupt + dup = {self.drop + self.corrupt + self.dup:.3g}: "
                             "one fate per frame, so their sum must be <= 1")
        self._partial = bytearray()
        self._ready = bytearray()

    @property
    def faulty(self) -> bool:
        return bool(self.drop or self.corrupt or self.dup)

    def send(self, data: bytes) -> None:
        if not self.faulty:
            self._ready += data
            return
        self._partial += data
        while True:
            end = self._partial.find(FRAME_END)
            if end < 0:
                return
            frame = bytes(self._partial[: end + 1])
            del self._partial[: end + 1]
            self._ready += self._fate(frame)

    def _fate(self, frame: bytes) -> bytes:
        self.stats["frames"] += 1
        roll = self.rng.random()
        if roll < self.drop:
            self.stats["dropped"] += 1
            return b""
        if roll < self.drop + self.corrupt and len(frame) > 1:
            self.stats["corrupted"] += 1
            damaged = bytearray(frame)
            damaged[self.rng.randrange(len(frame) - 1)] ^= 1 << self.rng.randrange(8)
            return bytes(damaged)
        if roll < self.drop + self.corrupt + self.dup:
            self.stats["duplicated"] += 1
            return frame + frame
        return frame

    def receive(self, size: int = -1) -> bytes:
        if size < 0 or size >= len(self._ready):
            data = bytes(self._ready)
            self._ready.clear()
            return data
        data = bytes(self._ready[:size])
        del self._ready[:size]
        return data

    def pending(self) -> int:
        return len(self._ready)

    def clear(self) -> None:
        self._partial.clear()
        self._ready.clear()

    def drop_partial(self) -> None:
        self._partial.clear()


class UsbCable:
    """Host <-> board bytes. `host_*` is the host's side, `board_*` the firmware's `io`."""

    def __init__(self, seed: int = 0, *, drop: float = 0.0, corrupt: float = 0.0, dup: float = 0.0) -> None:
        self.to_board = FaultyChannel(random.Random(f"{seed}:usb-in"), drop, corrupt, dup)
        self.to_host = FaultyChannel(random.Random(f"{seed}:usb-out"), drop, corrupt, dup)
        self.plugged = True
        self.vanished = False  # unplugged as a USB CDC port does: the host's port goes away

    def unplug(self, *, vanish: bool = False) -> None:
        self.plugged = False
        self.vanished = vanish
        self.to_board.clear()
        self.to_host.drop_partial()
        if vanish:
            self.to_host.clear()

    def plug(self) -> None:
        self.plugged = True
        self.vanished = False

    def host_write(self, data: bytes) -> None:
        if self.plugged:
            self.to_board.send(data)

    def host_read(self, size: int = -1) -> bytes:
        return self.to_host.receive(size)

    def board_read(self) -> bytes:
        return self.to_board.receive() if self.plugged else b""

    def board_write(self, data: bytes) -> None:
        if self.plugged:
            self.to_host.send(bytes(data))

    def reset(self) -> None:
        """The board rebooted: whatever was half-sent on either side is gone."""
        self.to_board.clear()
        self.to_host.drop_partial()
