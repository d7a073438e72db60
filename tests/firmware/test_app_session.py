"""Sessions across restarts: a rebooted firmware ignores the old session until the host says HELLO again."""

from unoxfw.runner import boot


def reboot_firmware(rig, fake_machine, seed):
    """The board resets (watchdog, power): a new firmware instance on the same wire, nothing remembered."""
    rig.board, rig.app = boot(fake_machine, rig.io, rig.now, None, None, seed)
    rig.set_lid(False)


def test_rebooted_firmware_ignores_old_session_frames_and_fires_after_a_new_hello(make_rig, fake_machine):
    rig = make_rig(cards=30)
    rig.connect()
    rig.fire(2)
    rig.run(2500)
    assert rig.fired == 2
    reboot_firmware(rig, fake_machine, seed=99)
    rig.received = []
    rig.fire(3)  # the host does not know yet: this frame belongs to the old session
    rig.run(1500)
    assert rig.fired == 2  # ignored, not fired
    assert rig.frames("ACK") == [] and rig.host.unacked() == 1
    beats = [f[2] for f in rig.frames("HEARTBEAT")]
    assert beats and beats[-1][1] == "0000"  # the firmware names no host session: the host must HELLO
    rig.host.hello(("1", "rig"), rig.now)  # the host rule in docs/protocol.md
    rig.run(100)
    rig.fire(3)
    rig.run(3000)
    assert rig.fired == 5
    assert [f[2][:3] for f in rig.frames("FIRED")] == [("3", "3", "-")]


def test_hello_retransmitted_by_the_host_does_not_restart_the_session(make_rig):
    rig = make_rig(cards=30)
    sent = []
    rig.wire_to_fw = lambda data: sent.append(data) or data
    rig.connect()
    hello_frame = sent[0]
    assert b" HELLO " in hello_frame
    epoch = rig.host.peer_epoch
    rig.io.inbox += hello_frame  # the host did not hear the ACK and sends HELLO again
    rig.run(200)
    assert rig.app.link.duplicates == 1
    assert rig.host.peer_epoch == epoch and len(rig.frames("HELLO")) == 1
    seq = rig.fire(2)
    rig.run(2500)
    assert rig.fired == 2
    assert [f[2] for f in rig.frames("FIRED")] == [("2", "2", "-", f"{seq:02X}")]


def test_a_new_host_session_mid_fire_stops_that_fire_and_sends_no_stale_fired(make_rig):
    from unoxfw.link import Endpoint

    rig = make_rig(cards=40, feed_ms=300)
    rig.connect()
    rig.fire(10)
    rig.run(700)
    assert rig.motor() > 0
    rig.host = Endpoint(rig._host_write, epoch=0x6262)  # the host process restarted
    rig.received = []
    rig.connect()
    assert rig.motor() == 0
    rig.run(2000)
    assert rig.frames("FIRED") == []
    assert rig.app.counted == rig.fired and rig.app.last_fault == "link"


def alone_numbers(rig) -> set[str]:
    return {f[2][1] for f in rig.frames("ALONE")}


def test_a_button_in_flight_when_a_new_session_starts_is_fired_alone_and_reported_once(make_rig):
    # issue 22: the old session's window was dropped with the BUTTON in it, and the press was lost
    rig = make_rig(cards=20, seed=3)
    rig.connect()
    rig.host_silent = True  # the BUTTON is lost on the way: never ACKed
    rig.press()
    rig.run(100)
    assert rig.app.presses_taken == 1 and rig.fired == 0 and not rig.app.alone
    rig.host_silent = False
    rig.connect()  # a new HELLO: the host restarted, or gave the old session up
    rig.run(3000)
    assert rig.frames("BUTTON") == []  # not answered in the new session: fired alone instead
    assert alone_numbers(rig) == {"1"}
    (k, n, fault), = {f[2][2:] for f in rig.frames("ALONE")}
    assert int(k) == rig.fired and fault == "-"


def test_a_button_unacked_when_the_cable_is_pulled_fires_alone_after_silence_ms_and_never_again(make_rig):
    # issue 22, section 4: a press within 4 s (link_ms) of pulling the cable was lost with no report
    rig = make_rig(cards=20, seed=3)
    rig.connect()
    rig.host_silent = True  # the cable is pulled: nothing either way
    rig.press()
    rig.run(1000)
    assert not rig.app.alone and not rig.app.feeder.busy()  # within silence_ms the host may still answer
    rig.run(1000)
    assert rig.app.link_lost and (rig.app.feeder.busy() or rig.app.alone_made == 1)  # fired alone
    rig.run(3000)
    assert rig.app.alone_made == 1
    rig.host_silent = False  # plugged back in the same session: the BUTTON's seq comes as VOID
    rig.run(3000)
    assert "VOID" in rig.kinds() and rig.frames("BUTTON") == []
    assert alone_numbers(rig) == {"1"}
    (k, _n, _fault), = {f[2][2:] for f in rig.frames("ALONE")}
    assert int(k) == rig.fired


def test_a_press_after_silence_ms_of_a_quiet_host_fires_alone_at_once(make_rig):
    rig = make_rig(cards=20, seed=5)
    rig.connect()
    rig.host_silent = True
    rig.run(1600)  # longer than silence_ms (1500), shorter than link_ms (4000)
    assert not rig.app.link_lost
    rig.press()
    rig.run(20)
    assert rig.app.link_lost and rig.app.alone_made + rig.app.feeder.busy() >= 1
