"""Refused host commands change nothing and say what to do instead."""

import pytest
from unoxfw.settings import LIMITS, Settings


def settled(rig):
    return dict(rig.app.settings.values)


@pytest.mark.parametrize(
    ("args", "reason"),
    [(("duty", "fast"), "not_an_integer"), (("duty",), None), ((), "usage"), (("duty", "50", "x"), "usage"),
     (("max_on_ms", "100"), "out_of_range"), (("turbo", "1"), "unknown_key")],
)
def test_config_refusals_leave_every_setting_unchanged(make_rig, args, reason):
    rig = make_rig(cards=5)
    rig.connect()
    before = settled(rig)
    rig.host.send("CONFIG", args, rig.now)
    rig.run(200)
    assert settled(rig) == before
    errors = [f[2] for f in rig.frames("ERR")]
    if reason is None:  # a read, not a refusal
        assert errors == [] and rig.frames("CONFIG")[0][2] == ("duty", str(before["duty"]))
    else:
        assert [e[:2] for e in errors] == [("CONFIG", reason)]
        assert errors[0][2]  # a hint: the range or the known keys


def test_unknown_command_is_refused_by_name(make_rig):
    rig = make_rig(cards=5)
    rig.connect()
    rig.host.send("LAUNCH", ("3",), rig.now)
    rig.run(200)
    assert [f[2][:2] for f in rig.frames("ERR")] == [("LAUNCH", "unknown_kind")]
    assert rig.max_motor_ms == 0


def test_fire_zero_answers_at_once_without_the_motor(make_rig):
    rig = make_rig(cards=5)
    rig.connect()
    seq = rig.fire(0)
    rig.run(200)
    assert [f[2] for f in rig.frames("FIRED")] == [("0", "0", "-", f"{seq:02X}")]
    assert rig.max_motor_ms == 0


def test_abort_when_idle_does_nothing(make_rig):
    rig = make_rig(cards=5)
    rig.connect()
    rig.host.send("ABORT", (), rig.now)
    rig.run(200)
    assert rig.frames("FIRED") == [] and rig.frames("ERR") == []


def test_bad_boot_config_is_a_clear_error():
    with pytest.raises(ValueError, match="duty: out_of_range"):
        Settings({"duty": 5})
    with pytest.raises(ValueError, match="colour: unknown_key"):
        Settings({"colour": 1})


def test_settings_accept_both_bounds_and_refuse_just_outside():
    for key, (_default, lo, hi) in LIMITS.items():
        # the widest partner for the two settings bound to each other (silence >= 2 x host heartbeat)
        settings = Settings({"host_beat_ms": 100, "silence_ms": 10000})
        assert settings.set(key, str(lo)) is None and settings.set(key, str(hi)) is None
        assert settings.set(key, str(lo - 1)) == "out_of_range"
        assert settings.set(key, str(hi + 1)) == "out_of_range"
        assert settings.get(key) == hi


def test_a_command_on_unreliable_seq_00_is_ignored(make_rig):
    from unoxfw.link import encode

    rig = make_rig(cards=5)
    rig.connect()
    rig.io.inbox += encode(0, "FIRE", ("2",)) + encode(0, "CONFIG", ("duty", "30"))
    rig.run(1000)
    assert rig.max_motor_ms == 0 and rig.app.settings.get("duty") == LIMITS["duty"][0]
    assert rig.frames("FIRED") == [] and rig.frames("ERR") == []


def test_silence_below_twice_the_host_heartbeat_is_refused_with_the_allowed_range():
    settings = Settings()
    assert settings.set("silence_ms", "999") == "below_2x_host_beat"
    assert settings.range_text("silence_ms") == "1000..10000"
    assert settings.set("host_beat_ms", "800") == "above_half_silence"
    assert settings.range_text("host_beat_ms") == "100..750"
    assert settings.get("silence_ms") == LIMITS["silence_ms"][0]
    assert settings.get("host_beat_ms") == LIMITS["host_beat_ms"][0]
    assert settings.set("host_beat_ms", "100") is None and settings.set("silence_ms", "200") is None


def test_silence_below_twice_the_host_heartbeat_is_refused_over_the_link(make_rig):
    rig = make_rig(cards=5)
    rig.connect()
    rig.host.send("CONFIG", ("silence_ms", "200"), rig.now)
    rig.run(100)
    assert ("CONFIG", "below_2x_host_beat", "1000..10000") in [f[2] for f in rig.frames("ERR")]
    assert rig.app.settings.get("silence_ms") == LIMITS["silence_ms"][0]


def test_repl_stops_a_running_fire_at_once_answers_and_asks_main_py_to_hand_over(make_rig):
    rig = make_rig(cards=10)
    rig.connect()
    rig.fire(5)
    rig.run(100)
    assert rig.motor() > 0 and not rig.app.handover
    rig.host.send("REPL", (), rig.now)
    rig.run(5)
    assert rig.app.handover  # main.py's loop ends on it (firmware/tests/test_main.py)
    assert rig.motor() == 0 and rig.app.board.tone_hz() == 0
    assert [f[2] for f in rig.frames("REPL")] == [("ok",)]
    assert rig.frames("FIRED") == []  # the cut fire is answered by no one: the next boot knows nothing of it
