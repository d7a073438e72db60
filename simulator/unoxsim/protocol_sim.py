"""pyserial URL handler `sim://`: a serial port whose other end is a `VirtualDevice` running the firmware.

`serial.serial_for_url("sim://?seed=1&cards=83&jam=0.01")` finds this module through
`serial.protocol_handler_packages` (importing `unoxsim` adds it, see `unoxsim.register`). The parameters are
those of `unoxsim.url.PARAMETERS`; a bad one raises `ValueError` from the constructor.

Time is virtual. `read()` with a timeout ADVANCES the device's clock by up to the timeout instead of
sleeping, and returns as soon as the bytes asked for have arrived. A `timeout=0` read that finds nothing
costs 1 ms of virtual time, and so does every empty `in_waiting` after the first in a row (no read or
write between), so a polling loop always makes progress while `read(max(1, in_waiting))` stays cheap.
`close()` then `open()` reconnects to the same device (the cable replugged), so no state is lost.
Beyond pyserial: `virtual_clock()` (ms), `advance(ms)` (a virtual sleep, also while closed), `device`,
`press_button()`, `swap_device(device)` (another launcher plugged in at this port).
"""

from __future__ import annotations

import math
from typing import Any

from serial.serialutil import PortNotOpenError, SerialBase, SerialException

from unoxsim.device import VirtualDevice
from unoxsim.url import parse_sim_url

_BLOCKING_LIMIT_MS = 3_600_000  # a read without timeout gives up after an hour of virtual silence
_POLL_COST_MS = 1


class Serial(SerialBase):
    """A `sim://` port: pyserial's interface over a `VirtualDevice`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.device: VirtualDevice | None = None
        self._next_device: VirtualDevice | None = None  # plugged in at this port in place of `device`
        self._device_url: str | None = None
        self._empty_polls = 0
        super().__init__(*args, **kwargs)

    # -- opening ------------------------------------------------------------------------------------
    def open(self) -> None:
        if self.is_open:
            raise SerialException("Port is already open.")
        if self._port is None:
            raise SerialException("Port must be configured before it can be used.")
        if self._next_device is not None and self.device is not None:
            self._next_device.advance(max(0, self.device.now_ms() - self._next_device.now_ms()))
            self.device, self._next_device = self._next_device, None
        elif self.device is None or self._device_url != self._port:
            self.device = VirtualDevice(**parse_sim_url(self._port))
            self._device_url = self._port
        elif self.device.cable.vanished:
            raise SerialException(f"could not open port {self._port}: the virtual launcher is unplugged")
        self.is_open = True

    def close(self) -> None:
        self.is_open = False

    def _reconfigure_port(self, *args: Any, **kwargs: Any) -> None:
        """Baud rate and framing mean nothing on a virtual USB CDC port."""

    def _live(self) -> VirtualDevice:
        if not self.is_open or self.device is None:
            raise PortNotOpenError()
        if self.device.cable.vanished:
            raise SerialException("device disconnected: the virtual launcher was unplugged; reopen the port")
        return self.device

    # -- beyond pyserial -------------------------------------------------------------------------------
    def virtual_clock(self) -> int:
        """The device's virtual time in ms: drivers take their clock from here, so nothing sleeps."""
        if self.device is None:
            raise PortNotOpenError()
        return self.device.now_ms()

    def advance(self, ms: float) -> None:
        """Let `ms` of virtual time pass (the simulator's sleep); works while the port is closed."""
        if self.device is None:
            raise PortNotOpenError()
        self.device.advance(max(0, math.ceil(ms)))

    def press_button(self, hold_ms: int = 120) -> None:
        if self.device is None:
            raise PortNotOpenError()
        self.device.press_button(hold_ms)

    def swap_device(self, device: VirtualDevice) -> VirtualDevice:
        """Our launcher is unplugged (the port breaks) and `device` is plugged in at the same port, as two
        Picos that swap ttyACM0 and ttyACM1: the next `open()` reaches it, its clock moved on to the old
        one's so the port's time never runs back. Returns the old device."""
        old = self.device
        if old is None:
            raise PortNotOpenError()
        old.unplug(vanish=True)
        self._next_device = device
        return old

    # -- pyserial ---------------------------------------------------------------------------------------
    @property
    def in_waiting(self) -> int:
        device = self._live()
        if device.host_pending():
            self._empty_polls = 0
        else:
            self._empty_polls += 1
            if self._empty_polls > 1:  # polling in a loop: each further empty poll costs 1 ms
                device.advance(_POLL_COST_MS)
        return device.host_pending()

    def read(self, size: int = 1) -> bytes:
        device = self._live()
        self._empty_polls = 0
        data = device.host_read(size)
        if len(data) >= size:
            return data
        if self._timeout == 0:
            if not data:
                device.advance(_POLL_COST_MS)
                data = device.host_read(size)
            return data
        budget = _BLOCKING_LIMIT_MS if self._timeout is None else math.ceil(self._timeout * 1000)
        end = device.now_ms() + budget
        while len(data) < size:
            left = end - device.now_ms()
            if left <= 0:
                break
            device.advance_until(left, device.host_pending)
            data += device.host_read(size - len(data))
            device = self._live()
        if self._timeout is None and len(data) < size:
            raise SerialException(f"no data from the virtual launcher for {budget // 1000} s of virtual "
                                  "time; set a read timeout")
        return data

    def read_until(self, expected: bytes = b"\n", size: int | None = None) -> bytes:
        """As pyserial's, but the timeout counts virtual time over the whole call."""
        device = self._live()
        budget = _BLOCKING_LIMIT_MS if self._timeout is None else math.ceil((self._timeout or 0) * 1000)
        end = device.now_ms() + budget
        line = bytearray()
        while not line.endswith(expected) and (size is None or len(line) < size):
            byte = device.host_read(1)
            if byte:
                line += byte
                continue
            left = end - device.now_ms()
            if left <= 0 or not device.advance_until(left, device.host_pending):
                break
            device = self._live()
        return bytes(line)

    def write(self, data: bytes | bytearray | memoryview) -> int:
        device = self._live()
        self._empty_polls = 0
        payload = bytes(data)
        device.host_write(payload)
        return len(payload)

    def flush(self) -> None:
        self._live()

    def reset_input_buffer(self) -> None:
        self._live().cable.to_host.clear()

    def reset_output_buffer(self) -> None:
        self._live()

    @property
    def out_waiting(self) -> int:
        self._live()
        return 0

    def cancel_read(self) -> None:
        """Reads never block in real time, so there is nothing to cancel."""

    def cancel_write(self) -> None:
        """Writes are instant, so there is nothing to cancel."""

    def _update_break_state(self) -> None:
        """No break condition on a virtual port."""

    def _update_rts_state(self) -> None:
        """RTS is not wired on a virtual port."""

    def _update_dtr_state(self) -> None:
        """DTR is not wired on a virtual port."""

    @property
    def cts(self) -> bool:
        self._live()
        return True

    @property
    def dsr(self) -> bool:
        self._live()
        return True

    @property
    def ri(self) -> bool:
        self._live()
        return False

    @property
    def cd(self) -> bool:
        self._live()
        return self.device is not None and self.device.cable.plugged
