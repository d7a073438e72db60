"""docs/protocol.md is checked against the code: every example frame is valid, the tables list what exists."""

import binascii
import re
from pathlib import Path

from unoxfw.link import Decoder
from unoxfw.settings import LIMITS
from unoxfw.signals import PATTERNS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def example_lines() -> list[str]:
    blocks = re.findall(r"```frames\n(.*?)```", DOC, re.S)
    return [line[2:] for block in blocks for line in block.splitlines() if line[:2] in ("> ", "< ")]


def test_every_example_frame_has_a_valid_crc_and_decodes():
    lines = example_lines()
    assert len(lines) >= 30
    for line in lines:
        body, crc = line.rsplit(" ", 1)
        assert binascii.crc_hqx(body.encode(), 0xFFFF) == int(crc, 16), line
        assert len(Decoder().feed((line + "\n").encode())) == 1, line


def test_inline_fire_example_is_valid():
    assert "`05 FIRE 3 BCD9\\n`" in DOC
    assert binascii.crc_hqx(b"05 FIRE 3", 0xFFFF) == 0xBCD9


def test_settings_table_matches_the_firmware_limits():
    found = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+\.\.\d+) \|", DOC, re.M)
    rows = {key: (int(default), limits) for key, default, limits in found}
    assert rows == {key: (lim[0], f"{lim[1]}..{lim[2]}") for key, lim in LIMITS.items()}


def test_pattern_table_names_every_pattern():
    names = set(re.findall(r"^\| `(\w+)` \| [^|]*(?:Hz|kHz|chirps)[^|]* \|", DOC, re.M))
    assert names == set(PATTERNS)


def record_session(rig) -> list[str]:
    """The session of the doc's first example, run on the firmware: '>' host to firmware, '<' back."""
    log: list[str] = []

    def to_fw(data: bytes) -> bytes:
        log.extend("> " + line for line in data.decode().splitlines())
        return data

    def pump(original=rig._pump_host):
        log.extend("< " + line for line in rig.io.out.decode().splitlines())
        original()

    rig.wire_to_fw = to_fw
    rig._pump_host = pump
    rig.connect()
    rig.host.send("CONFIG", ("host_beat_ms", "500"), rig.now)  # what the host sends after each HELLO
    rig.run(50)
    rig.host.send("FIRE", ("3", "1001"), rig.now)
    rig.run(1600)
    rig.press()
    rig.run(300)
    for kind, args in [("BEEP", ("not_owed",)), ("CONFIG", ("card_ms", "1200")), ("CONFIG", ("duty", "150")),
                       ("STATUS", ()), ("QUERY", ("1001",)), ("QUERY", ("7",))]:
        rig.host.send(kind, args, rig.now)
        rig.run(50)
    return log


def test_the_documented_standalone_report_is_what_the_firmware_sends(make_rig):
    documented = [line for line in re.findall(r"```frames\n(.*?)```", DOC, re.S)[1].splitlines() if line]
    rig = make_rig(cards=20, seed=3)
    for _ in range(2):  # two presses with no host: each fires alone
        rig.press()
        rig.run(2500)
    log = record_session_of(rig, lambda: (rig.connect(), rig.run(100)))
    alone = [line for line in log if " ALONE " in line]
    assert alone and alone == [line for line in documented if " ALONE " in line]
    taken = [line for line in documented if " TAKEN " in line]
    for line in taken:  # the host's TAKEN makes the firmware forget each one
        rig.io.inbox += (line[2:] + "\n").encode()
    rig.run(50)
    assert len(taken) == len(alone) and rig.app.alone == []


def record_session_of(rig, run) -> list[str]:
    log: list[str] = []

    def pump(original=rig._pump_host):
        log.extend("< " + line for line in rig.io.out.decode().splitlines())
        original()

    rig._pump_host = pump
    run()
    return log


def test_the_documented_session_is_what_the_firmware_sends(make_rig):
    documented = [line for line in re.findall(r"```frames\n(.*?)```", DOC, re.S)[0].splitlines() if line]
    log = record_session(make_rig(cards=20, seed=1))
    without_beats = [line for line in log if " HEARTBEAT " not in line]
    assert documented[:-2] == without_beats
    assert documented[-2] in log and documented[-1] in log  # one heartbeat each way
