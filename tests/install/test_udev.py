"""`unox install udev`: one rule that names the MicroPython Pico /dev/unox-launcher for the dialout group."""

import re

import pytest
from unox import install

# udev syntax: KEY or KEY{attr}, an operator, a double-quoted value; pairs separated by commas.
PAIR = re.compile(r'\s*([A-Z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|:=|=)\s*"([^"]*)"\s*(?:,|$)')


def parse_rule(text: str) -> list[tuple[str, str, str]]:
    (line,) = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    pairs, position = [], 0
    while position < len(line):
        match = PAIR.match(line, position)
        assert match, f"unparsable udev text at {line[position:]!r}"
        pairs.append(match.groups())
        position = match.end()
    return pairs


def test_rule_matches_the_micropython_pico_by_usb_ids():
    pairs = parse_rule(install.udev_rule())
    matches = {key: value for key, op, value in pairs if op == "=="}
    # Raspberry Pi's USB vendor id is 0x2E8A; MicroPython's CDC serial on the Pico is product 0x0005.
    assert matches == {"SUBSYSTEM": "tty", "ATTRS{idVendor}": "2e8a", "ATTRS{idProduct}": "0005"}


def test_rule_gives_a_stable_name_readable_by_dialout_only():
    assignments = {(key, op): value for key, op, value in parse_rule(install.udev_rule()) if op != "=="}
    assert assignments[("SYMLINK", "+=")] == "unox-launcher"
    assert assignments[("GROUP", "=")] == "dialout"
    mode = int(assignments[("MODE", "=")], 8)
    assert mode & 0o660 == 0o660 and mode & 0o007 == 0  # owner and group read/write, nobody else


def test_rule_feeds_the_service_its_device_unit():
    pairs = parse_rule(install.udev_rule())
    # Without the tag the unit's After=dev-unox\x2dlauncher.device never appears.
    assert ("TAG", "+=", "systemd") in pairs
    # ModemManager must not send AT commands into the link.
    assert ("ENV{ID_MM_DEVICE_IGNORE}", "=", "1") in pairs
    assert install.DEFAULT_LAUNCHER == "serial:/dev/" + dict((k, v) for k, _, v in pairs)["SYMLINK"]


def test_serial_number_narrows_the_match_to_one_pico():
    pairs = parse_rule(install.udev_rule("E6614C311B7A8B2C"))
    assert ("ATTRS{serial}", "==", "E6614C311B7A8B2C") in pairs


@pytest.mark.parametrize("serial", ['x", RUN+="/bin/sh', "", "E661 4C"])
def test_a_bad_serial_number_is_refused(serial):
    with pytest.raises(install.InstallError, match="not letters and digits"):
        install.udev_rule(serial)


def test_per_board_names_each_pico_by_its_serial_number_which_is_its_board_id():
    """Issue 22: several launchers, each at a name of its own. udev fills $attr{serial} from the USB device
    the ATTRS keys matched; MicroPython sets that serial number to machine.unique_id() in hex, the board id
    the firmware's HELLO sends."""
    pairs = parse_rule(install.udev_rule(per_board=True))
    assert ("SYMLINK", "+=", "unox-launcher-$attr{serial}") in pairs
    assert not any(key == "SYMLINK" and value == "unox-launcher" for key, _, value in pairs)  # no shared name
    assert ("GROUP", "=", "dialout") in pairs and ("TAG", "+=", "systemd") in pairs
    assert install.udev_next_steps(per_board=True)[-1].startswith("ls -l /dev/unox-launcher-*")


def test_serial_and_per_board_together_are_refused():
    with pytest.raises(install.InstallError, match="not both"):
        install.udev_rule("e6614104032a5c2b", per_board=True)
