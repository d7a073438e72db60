"""The serial driver's error paths and protocol duties, on fake ports and the simulator (virtual time)."""

from __future__ import annotations

import pytest
from unox import config
from unox.launcher import LauncherError
from unox.launcher.serial import SerialLauncher
from unoxfw.link import PROTOCOL, Decoder, Endpoint, encode


class FakePort:
    """A port on its own virtual clock; `answer(frames)` plays the device (None: a silent device)."""

    def __init__(self, answer=None):
        self.timeout, self.ms, self.inbox, self.answer = 0.0, 0, b"", answer
        self.decoder = Decoder()
        self.written: list[tuple] = []

    def virtual_clock(self) -> int:
        return self.ms

    def advance(self, ms: float) -> None:
        self.ms += int(ms)

    @property
    def in_waiting(self) -> int:
        return len(self.inbox)

    def read(self, size: int = 1) -> bytes:
        if not self.inbox:
            self.ms += max(1, int(self.timeout * 1000))
        data, self.inbox = self.inbox[:size], self.inbox[size:]
        return data

    def write(self, data: bytes) -> int:
        frames = list(self.decoder.feed(data))
        self.written += frames
        if self.answer:
            self.inbox += self.answer(frames)
        return len(data)

    def reset_input_buffer(self) -> None:
        self.inbox = b""

    def close(self) -> None:
        pass


def test_silent_device_is_a_clear_error_on_virtual_time():
    port = FakePort()
    with pytest.raises(LauncherError, match="no answer from the launcher on fake0.*unox firmware flash"):
        SerialLauncher(port, name="fake0")
    assert 2000 <= port.ms <= 2100  # the handshake waited its 2 s, virtually
    assert [kind for _, kind, _ in port.written if kind == "HELLO"]


def test_firmware_of_another_protocol_is_refused_with_advice():
    device = Endpoint(lambda frame: None, epoch=5)
    out: list[bytes] = []
    device._write = out.append

    def answer(frames):
        for seq, kind, args in frames:
            if kind == "HELLO":
                device.receive(b"", 0)
                device.peer_epoch = args[-1]
                device.hello((PROTOCOL + 1, "9.9.9"), 0, seq)
        data = b"".join(out)
        out.clear()
        return data

    with pytest.raises(LauncherError, match=f"protocol {PROTOCOL + 1}.*`unox firmware flash`"):
        SerialLauncher(FakePort(answer), name="fake1")


def test_garbage_from_the_device_is_dropped_and_the_link_goes_on(sim):
    launcher = sim("seed=1")
    launcher.device.cable.to_host._ready += b"\x00\xffnoise\n12 FIRED 9 9 - 01 0000\nZZ\n"
    assert launcher.fire(2).fired == 2
    assert launcher.link.endpoint.decoder.errors >= 2 and launcher.device.cards_out == 2


def test_calibrated_settings_go_to_the_firmware_on_connect(sim):
    settings = config.defaults()
    settings["firmware"].update(duty=55, card_ms=700)
    launcher = sim("seed=1", config=settings)
    assert launcher.device.app.settings.get("duty") == 55
    assert launcher.device.app.settings.get("card_ms") == 700


def test_a_refused_setting_names_the_key_and_the_range(sim):
    launcher = sim("seed=1")
    with pytest.raises(LauncherError, match=r"refused duty = 500: out_of_range; allowed: 20\.\.100"):
        launcher.configure({"duty": 500})
    assert launcher.device.app.settings.get("duty") != 500


def test_heartbeats_keep_a_long_fire_running(sim):
    launcher = sim("seed=1&cards=112")
    result = launcher.fire(40)  # several seconds of motor time, far beyond the firmware's silence_ms
    assert (result.fired, result.fault) == (40, None)
    assert result.details["fire_ms"] > 1500


def test_L1_a_press_beeps_on_the_device_and_is_taken_once(sim):
    launcher = sim("seed=1")
    beeps = launcher.device.beeps()
    launcher.press_button()
    assert launcher.wait_press(timeout=2.0) is True
    assert launcher.device.beeps() == beeps + 1  # the firmware beeped by itself
    start = launcher.clock.now()
    assert launcher.wait_press(timeout=1.0) is False
    assert launcher.clock.now() - start == pytest.approx(1.0, abs=0.05)  # virtual, not real, time


def test_beep_plays_on_the_device(sim):
    launcher = sim("seed=1")
    before = launcher.device.beeps()
    launcher.beep("empty")
    launcher.wait_press(timeout=1.5)
    from unoxfw.signals import PATTERNS

    tones = sum(1 for freq in PATTERNS["empty"][::2] if freq)  # (freq, ms) pairs; freq 0 is a rest
    assert tones == 3 and launcher.device.beeps() - before == tones


def test_a_busy_launcher_gets_the_fire_again_when_it_is_free(sim):
    launcher = sim("seed=1&cards=112")
    device = launcher.device
    device.app._fire(3, 0, device.now_ms())  # a standalone fire already running
    result = launcher.fire(2)
    assert (result.fired, result.fault) == (2, None)
    assert device.cards_out == 5


def test_the_host_fire_limit_is_the_firmwares():
    from unox.launcher.base import MAX_FIRE
    from unoxfw import app

    assert MAX_FIRE == app._MAX_FIRE


def test_malformed_device_frames_are_recorded_not_raised():
    from unox.launcher.device_state import DeviceState

    state = DeviceState()
    state.apply("FIRED", ("x", "3"))
    state.apply("BATTERY", ())
    state.apply("LID", ("open",))
    assert [e[:2] for e in state.errors] == [("FIRED", "malformed"), ("BATTERY", "malformed")]
    assert state.results == {} and state.lid_open


class FakeFirmware:
    """The device end of a link: answers HELLO, then FIRE as told: 'fired', 'ack_only' or an ERR."""

    def __init__(self, on_fire: str = "fired"):
        self.out: list[bytes] = []
        self.endpoint = Endpoint(self.out.append, epoch=9)
        self.on_fire, self.fires = on_fire, 0

    def __call__(self, frames) -> bytes:
        for data in frames:
            for seq, kind, args in self.endpoint.receive(encode(*data), 0):
                self._handle(seq, kind, args)
        data = b"".join(self.out)
        self.out.clear()
        return data

    def _handle(self, seq, kind, args):
        if kind == "HELLO":
            self.endpoint.hello((PROTOCOL, "0.0.fake"), 0, seq)
        elif kind == "FIRE":
            self.fires += 1
            if self.on_fire == "fired":
                self.endpoint.send("FIRED", (args[0], args[0], "-", f"{seq:02X}"), 0, seq)
            elif self.on_fire != "ack_only":
                self.endpoint.send("ERR", ("FIRE", self.on_fire, "0..40"), 0, seq)


def test_a_refused_fire_is_an_error_naming_the_reason():
    launcher = SerialLauncher(FakePort(FakeFirmware("bad_count")), name="fake2")
    with pytest.raises(LauncherError, match=r"refused FIRE 3: bad_count \(0\.\.40\)"):
        launcher.fire(3)


def test_a_fire_that_never_gets_its_fired_is_given_up_and_never_resent():
    device = FakeFirmware("ack_only")
    port = RetransmittingPort(device)  # it keeps beating: the link is up, only the FIRED never comes
    launcher = SerialLauncher(port, name="fake3")
    result = launcher.fire(2)
    assert (result.fired, result.fault, result.details["detail"]) == (0, "link", "no_reply")
    assert device.fires == 1
    device.on_fire = "fired"
    assert launcher.fire(1).fired == 1  # a new session first: the abandoned FIRE is not sent again
    hellos = [kind for _, kind, _ in port.written if kind == "HELLO"]
    assert len(hellos) == 2 and device.fires == 2


def test_a_bad_beep_pattern_is_refused_before_sending():
    port = FakePort(FakeFirmware())
    launcher = SerialLauncher(port, name="fake4")
    sent = len(port.written)
    with pytest.raises(ValueError, match="unknown beep pattern 'tada'"):
        launcher.beep("tada")
    assert len(port.written) == sent


def test_wait_press_with_no_timeout_left_still_reads_what_arrived(sim):
    launcher = sim("seed=1")
    launcher.press_button()
    launcher.clock.sleep(0.3)  # the press happened; its BUTTON frame waits in the port
    assert launcher.wait_press(timeout=0) is True
    assert launcher.wait_press(timeout=0) is False


class RetransmittingPort(FakePort):
    """A FakePort whose device keeps the firmware's timers: every read first lets the device's
    Endpoint retransmit on the port's virtual clock, and beat every 250 ms as the firmware does (a host
    hearing nothing for 0.9 s calls the link down); `writes` keeps each write() call as (ms, bytes)."""

    def __init__(self, device: FakeFirmware):
        super().__init__(device)
        self.device = device
        self.writes: list[tuple[int, bytes]] = []
        self._beat = 0

    def press(self) -> int:
        seq = self.device.endpoint.send("BUTTON", ("1",), self.ms)
        self.inbox += b"".join(self.device.out)
        self.device.out.clear()
        return seq

    def read(self, size: int = 1) -> bytes:
        endpoint = self.device.endpoint
        endpoint.poll(self.ms)
        if endpoint.peer_epoch and self.ms - self._beat >= 250:
            self._beat = self.ms
            endpoint.send_unreliable("HEARTBEAT", (f"{endpoint.epoch:04X}", endpoint.peer_epoch, "host"))
        self.inbox += b"".join(self.device.out)
        self.device.out.clear()
        return super().read(size)

    def write(self, data: bytes) -> int:
        self.writes.append((self.ms, bytes(data)))
        return super().write(data)


def kinds(data: bytes) -> list[str]:
    return [kind for _, kind, _ in Decoder().feed(data)]


def test_L1_a_press_and_its_fire_are_one_write_the_fire_then_the_held_ack():
    port = RetransmittingPort(FakeFirmware())
    launcher = SerialLauncher(port, name="fake5")
    button_seq = port.press()
    before = len(port.writes)
    assert launcher.wait_press(timeout=1.0) is True
    assert launcher.fire(1).fired == 1
    writes = [data for _, data in port.writes[before:]]
    first = list(Decoder().feed(writes[0]))
    assert [kind for _, kind, _ in first] == ["FIRE", "ACK"]  # the FIRE first: the chip acts on it first
    assert first[1][2][0] == f"{button_seq:02X}"
    assert [kinds(data) for data in writes[1:]] == [["ACK"]]  # the FIRED's ACK, before fire() returned
    assert port.device.endpoint.unacked() == 0 and port.device.endpoint.retransmits == 0


def test_an_ack_is_written_before_the_link_waits_so_the_device_never_retransmits():
    port = RetransmittingPort(FakeFirmware())
    launcher = SerialLauncher(port, name="fake6")
    button_seq = port.press()
    pressed_at = port.ms
    assert launcher.wait_press(timeout=1.0) is True
    assert launcher.wait_press(timeout=1.0) is False  # nothing to send: the held ACK goes out anyway
    acks = [(ms, args) for ms, data in port.writes for _, kind, args in Decoder().feed(data) if kind == "ACK"]
    assert (pressed_at, (f"{button_seq:02X}", f"{port.device.endpoint.epoch:04X}")) in acks
    assert port.ms >= pressed_at + 1000  # the host waited out its second second on virtual time ...
    assert port.device.endpoint.retransmits == 0  # ... and the device's 250 ms timer never fired


class StatusFirmware(FakeFirmware):
    def _handle(self, seq, kind, args):
        if kind == "STATUS":
            self.endpoint.send("STATUS", ("lid=closed", "mv=5000"), 0, seq)
        super()._handle(seq, kind, args)


class PressAgainFirmware(FakeFirmware):
    """Answers the first FIRE with FIRED and, in the same burst, a second press."""

    def _handle(self, seq, kind, args):
        super()._handle(seq, kind, args)
        if kind == "FIRE" and self.fires == 1:
            self.button_seq = self.endpoint.send("BUTTON", ("2",), 0)


def test_L1_a_press_that_comes_with_the_fired_is_acked_before_fire_returns():
    port = RetransmittingPort(PressAgainFirmware())
    launcher = SerialLauncher(port, name="fake8")
    port.press()
    assert launcher.wait_press(timeout=1.0) is True
    before = len(port.writes)
    assert launcher.fire(1).fired == 1  # its FIRED arrives with the next BUTTON
    assert launcher.link._held == [] and port.device.endpoint.unacked() == 0
    frames = list(Decoder().feed(port.writes[-1][1]))
    assert [kind for _, kind, _ in frames] == ["ACK", "ACK"]  # the FIRED's and the BUTTON's, one write
    assert frames[1][2][0] == f"{port.device.button_seq:02X}"
    assert len(port.writes) - before == 2  # the ACK + FIRE of the first press, then those two ACKs
    assert launcher.wait_press(timeout=1.0) is True
    assert launcher.fire(1).fired == 1
    assert port.device.endpoint.unacked() == 0 and port.device.endpoint.retransmits == 0


def test_calls_that_return_without_a_fire_leave_no_ack_held():
    port = RetransmittingPort(StatusFirmware())
    launcher = SerialLauncher(port, name="fake7")
    assert launcher.link._held == [] and port.device.endpoint.unacked() == 0  # the HELLO's ACK is out
    assert launcher.status().connected  # its STATUS reply is ACKed before status() returns
    assert launcher.link._held == [] and port.device.endpoint.unacked() == 0
    port.press()
    assert launcher.wait_press(timeout=0) is True
    assert len(launcher.link._held) == 1  # the press's ACK waits for the FIRE ...
    assert launcher.fire(0).fired == 0  # ... but fire(0) sends none, so it goes out on its own
    assert launcher.link._held == [] and port.device.endpoint.unacked() == 0
    assert port.device.endpoint.retransmits == 0


def test_a_frame_lost_for_good_from_the_device_window_ends_the_session_and_a_new_one_starts():
    port = RetransmittingPort(FakeFirmware())
    launcher = SerialLauncher(port, name="fake9")
    port.device.endpoint._tx += 1  # the next seq never comes: as if pushed out of a full window
    port.press()  # every copy of this BUTTON arrives ahead of the gap
    assert launcher.wait_press(timeout=1.0) is False  # not delivered: the gap blocks it
    assert launcher.wait_press(timeout=3.0) is False  # the link gives that session up and starts anew
    hellos = [kind for _, kind, _ in port.written if kind == "HELLO"]
    assert len(hellos) == 2 and not launcher.link.needs_hello
    port.press()
    assert launcher.wait_press(timeout=1.0) is True  # frames flow again


@pytest.mark.parametrize("idle_s", [3.0, 6.0])
def test_fire_result_after_a_later_fire_and_an_idle_host_is_what_the_device_remembers(sim, idle_s):
    """Issue 13 item 8: a caller idle past link_timeout had the QUERY's answer given up unread, because the
    device's silence was counted from before the QUERY went out."""
    launcher = sim("seed=1")
    first = launcher.fire(2, fire_id=11)
    second = launcher.fire(1, fire_id=12)
    launcher.clock.sleep(idle_s)  # the host does nothing: no pump, the device's heartbeats wait unread
    remembered = launcher.fire_result(11)
    assert (remembered.requested, remembered.fired, remembered.fault) == (2, first.fired, None)
    launcher.clock.sleep(idle_s)
    remembered = launcher.fire_result(12)
    assert (remembered.requested, remembered.fired, remembered.fault) == (1, second.fired, None)
    assert launcher.device.cards_out == first.fired + second.fired  # asking fired nothing


def test_fire_result_of_a_device_that_went_silent_gives_up_within_the_link_timeout(sim):
    launcher = sim("seed=1")
    launcher.fire(1, fire_id=11)
    launcher.device.unplug()
    started = launcher.clock.now()
    assert launcher.fire_result(11) is None
    assert launcher.clock.now() - started <= launcher.link_timeout + 0.1


def test_a_standalone_fire_is_kept_on_the_device_until_the_host_says_it_is_recorded(sim):
    """Issue 13 item 9: TAKEN goes out only with `standalone_taken` (after the journal's commit); until then
    the firmware keeps the fire and offers it to every new host session, and the driver hands it out once."""
    launcher = sim("seed=3&cards=112")
    device = launcher.device
    launcher.clock.sleep(4.5)  # no host frame past link_ms: the launcher plays alone
    device.press_button()
    launcher.clock.sleep(3.0)
    pending: list = []
    for _ in range(50):  # each call pumps once: the link comes back, then the ALONE arrives
        pending += launcher.pending_standalone_fires()
    assert len(pending) == 1 and len(device.app.alone) == 1
    launcher.link.handshake()  # a new session: the firmware sends the ALONE again
    launcher.clock.sleep(0.5)
    assert launcher.pending_standalone_fires() == [] and len(device.app.alone) == 1  # once, and still kept
    launcher.standalone_taken(pending[0])
    launcher.status()  # one round trip: the TAKEN has arrived
    assert device.app.alone == []
    launcher.link.handshake()
    launcher.clock.sleep(0.5)
    assert launcher.pending_standalone_fires() == [] and device.app.alone == []
