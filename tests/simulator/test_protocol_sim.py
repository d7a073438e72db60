"""The `sim://` pyserial handler: registration, URL checks, virtual-time reads, reconnects."""

import importlib
import subprocess
import sys

import pytest
import serial
import unoxsim
from unoxfw.link import Decoder, encode
from unoxsim.url import PARAMETERS, parse_sim_url

HELLO = encode(1, "HELLO", ("1", "test", "0A0A"))


def kinds(data):
    return [kind for _, kind, _ in Decoder().feed(data)]


def test_the_handler_module_imports_on_its_own_in_a_fresh_interpreter():
    # pyserial swallows an ImportError here as "protocol 'sim' not known", so check it bare.
    code = "import unoxsim.protocol_sim as m; print(m.Serial.__name__)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "Serial"
    assert importlib.import_module("unoxsim.protocol_sim").Serial


def test_importing_unoxsim_registers_the_scheme_once():
    unoxsim.register()
    unoxsim.register()
    assert serial.protocol_handler_packages.count("unoxsim") == 1
    port = serial.serial_for_url("sim://?seed=1", timeout=0.2)
    assert port.is_open and port.virtual_clock() == 0


def test_a_fresh_interpreter_finds_sim_after_import_unoxsim():
    code = "import serial, unoxsim; p = serial.serial_for_url('sim://?seed=2'); print(type(p).__module__)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "unoxsim.protocol_sim"


def test_url_parameters_reach_the_device():
    port = serial.serial_for_url("sim://?seed=3&cards=7&jam=0.25&battery=4200&lid=open&drop=0.1", timeout=0)
    device = port.device
    assert device.model.hopper == 7 and device.model.faults.jam == 0.25
    assert device.model.battery.open_mv == 4200 and device.model.lid_open
    assert device.cable.to_board.drop == 0.1 and device.cable.to_host.drop == 0.1


@pytest.mark.parametrize("url, message", [
    ("sim://?colour=red", "unknown sim:// parameter 'colour'"),
    ("sim://?jam=1.5", "jam=1.5: out of range"),
    ("sim://?cards=500", "cards=500: out of range 0..112"),
    ("sim://?cards=many", "expected an integer"),
    ("sim://?seed=1&seed=2", "given twice"),
    ("sim://?lid=ajar", "use open or shut"),
    ("sim://?drop=0.5&corrupt=0.4&dup=0.2", "sum must be <= 1"),
    ("sim://launcher", "after '?'"),
])
def test_bad_urls_raise_value_error_with_a_clear_message(url, message):
    with pytest.raises(ValueError, match=message):
        serial.serial_for_url(url)


def test_every_parameter_is_documented_in_the_unknown_parameter_message():
    with pytest.raises(ValueError) as error:
        parse_sim_url("sim://?nope=1")
    for name in PARAMETERS:
        assert name in str(error.value)


def test_read_with_timeout_advances_virtual_time_instead_of_sleeping():
    port = serial.serial_for_url("sim://?seed=4", timeout=2.5)
    port.reset_input_buffer()
    assert port.read(10_000) != b""  # heartbeats arrive, but not 10 kB of them
    assert port.virtual_clock() == 2500


def test_read_returns_as_soon_as_the_bytes_have_arrived():
    port = serial.serial_for_url("sim://?seed=5", timeout=5)
    port.write(HELLO)
    ack = port.read_until(b"\n")
    assert kinds(ack) == ["ACK"]
    assert port.virtual_clock() <= 2  # the firmware answered in its next loop, not after the timeout


def test_read_until_counts_its_timeout_in_virtual_time():
    port = serial.serial_for_url("sim://?seed=5", timeout=0.3)
    port.device.unplug()  # silence
    assert port.read_until(b"\n") == b""
    assert port.virtual_clock() == 300


def test_polls_without_timeout_cost_a_virtual_millisecond_so_loops_progress():
    port = serial.serial_for_url("sim://?seed=6", timeout=0)
    port.write(HELLO)
    polls = 1
    while not port.in_waiting:
        polls += 1
    assert port.virtual_clock() == polls - 1 <= 5  # the first empty poll is free, each further one 1 ms
    assert port.read(0x1000) and port.read(1) == b""
    assert port.virtual_clock() == polls  # an empty non-blocking read costs 1 ms too


def test_press_button_through_the_port_gives_a_button_frame_in_a_session():
    port = serial.serial_for_url("sim://?seed=7", timeout=0.5)
    port.write(HELLO)
    port.read(4096)
    port.press_button()
    assert "BUTTON" in kinds(port.read(4096))


def test_close_and_open_reconnects_to_the_same_device():
    port = serial.serial_for_url("sim://?seed=8&cards=20", timeout=0.1)
    device = port.device
    port.advance(1000)
    port.close()
    port.advance(500)  # time goes on while the port is closed
    port.open()
    assert port.device is device and port.virtual_clock() == 1500


def test_a_vanished_port_raises_until_the_cable_is_back():
    port = serial.serial_for_url("sim://?seed=9", timeout=0.1)
    port.device.unplug(vanish=True)
    with pytest.raises(serial.SerialException, match="unplugged"):
        port.read(1)
    with pytest.raises(serial.SerialException, match="unplugged"):
        port.write(HELLO)
    port.close()
    with pytest.raises(serial.SerialException, match="unplugged"):
        port.open()
    port.device.plug()
    port.open()
    port.write(HELLO)
    assert "ACK" in kinds(port.read(4096))


def test_a_closed_port_refuses_io():
    port = serial.serial_for_url("sim://?seed=9", do_not_open=True)
    with pytest.raises(serial.PortNotOpenError):
        port.read(1)
