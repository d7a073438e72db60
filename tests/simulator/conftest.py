"""A minimal host for the simulator tests: the real link endpoint (`unoxfw.link`) over a VirtualDevice.

It is not the host driver (that is `unox.launcher`'s job); it only speaks enough of the protocol to
command the firmware, with the same Endpoint the host uses, and keeps the link alive with heartbeats.
"""

from __future__ import annotations

import pytest
from unoxfw.link import Endpoint
from unoxsim.device import VirtualDevice

HOST_BEAT_MS = 500


class HostSide:
    def __init__(self, device: VirtualDevice) -> None:
        self.device = device
        self.link = Endpoint(device.host_write, epoch=0x0A0A)
        self.frames: list[tuple[int, str, tuple[str, ...]]] = []
        self._beat = 0

    def pump(self, ms: int, step: int = 5) -> None:
        for _ in range(max(1, ms // step)):
            self.device.advance(step)
            now = self.device.now_ms()
            data = self.device.host_read()
            if data:
                self.frames.extend(self.link.receive(data, now))
            self.link.poll(now)
            if now - self._beat >= HOST_BEAT_MS:
                self._beat = now
                self.link.send_unreliable("HEARTBEAT", (f"{self.link.epoch:04X}",))

    def wait_for(self, kind: str, timeout_ms: int = 20_000) -> tuple[str, ...]:
        """Pump until a `kind` frame arrives; return its args and forget the frames before it."""
        waited = 0
        while waited <= timeout_ms:
            for i, (_, frame_kind, args) in enumerate(self.frames):
                if frame_kind == kind:
                    del self.frames[: i + 1]
                    return args
            self.pump(10)
            waited += 10
        raise AssertionError(f"no {kind} frame within {timeout_ms} virtual ms; got {self.frames[-5:]}")

    def hello(self) -> tuple[str, ...]:
        self.link.hello(("1", "test-host"), self.device.now_ms())
        return self.wait_for("HELLO")

    def fire(self, n: int) -> tuple[str, ...]:
        """FIRE n; returns FIRED's args (fired, requested, fault, ref)."""
        self.link.send("FIRE", (n,), self.device.now_ms())
        return self.wait_for("FIRED")


@pytest.fixture
def host_for():
    def make(**kwargs) -> HostSide:
        host = HostSide(VirtualDevice(**kwargs))
        host.hello()
        return host

    return make
