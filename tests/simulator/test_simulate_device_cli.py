"""`unox simulate-device --pty`: a real pty, opened with pyserial by another process, answering HELLO."""

import select
import signal
import subprocess
import sys

import pytest
import serial
from unox.cli.main import main
from unoxfw.link import Decoder, encode
from unoxsim.device import VirtualDevice
from unoxsim.pty_server import PtyServer


def test_pty_server_answers_hello_over_a_real_pty_and_stops_on_ctrl_c():
    proc = subprocess.Popen([sys.executable, "-m", "unox", "simulate-device", "--pty", "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "simulate-device printed no pty path"
        path = proc.stdout.readline().strip()
        assert path.startswith("/dev/")
        with serial.Serial(path, timeout=5) as port:
            port.reset_input_buffer()
            port.write(encode(1, "HELLO", ("1", "pty-test", "0A0A")))
            decoder, frames = Decoder(), []
            for _ in range(20):  # each read waits at most 5 s; heartbeats keep lines coming
                frames += decoder.feed(port.read_until(b"\n"))
                if any(kind == "HELLO" for _, kind, _ in frames):
                    break
        hello = next(args for _, kind, args in frames if kind == "HELLO")
        assert hello[0] == "1"  # protocol version 1
        assert decoder.errors == 0  # raw mode: no echo, no \r\n mangling
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()  # never leave a server behind; the failure below says it ignored Ctrl-C
            _, err = proc.communicate()
    assert proc.returncode == 0, err
    assert "stopped" in err


def test_bad_option_is_a_one_line_error_naming_the_range(capsys):
    assert main(["simulate-device", "--pty", "--jam", "2"]) == 1
    err = capsys.readouterr().err
    assert "--jam=2.0: out of range 0.0..1.0" in err and err.count("\n") == 1


def test_without_pty_it_says_what_to_add(capsys):
    assert main(["simulate-device"]) == 1
    assert "--pty" in capsys.readouterr().err


def test_pty_server_paces_virtual_time_to_its_clock_and_skips_long_stalls():
    server = PtyServer(VirtualDevice(seed=1), speed=2.0)
    try:
        times = iter([0.0, 0.010, 0.025, 5.0])
        now = {"t": 0.0}

        def clock():
            now["t"] = next(times, now["t"])
            return now["t"]

        calls = {"n": 0}

        def stop():
            calls["n"] += 1
            return calls["n"] > 3

        server.serve(stop=stop, clock=clock, poll_s=0)
        assert server.device.now_ms() == 50 + 1000  # 2 x 25 ms, then a 10 s stall capped at 1 s
    finally:
        server.close()


def test_pty_server_refuses_a_silly_speed():
    with pytest.raises(ValueError, match="speed"):
        PtyServer(VirtualDevice(), speed=0)


def test_every_sim_url_parameter_is_an_option_and_reaches_the_device():
    from unox.cli.commands.simulate_device import device_kwargs
    from unox.cli.main import build_parser
    from unoxsim.url import PARAMETERS

    for name, (kwarg, kind, _low, high, _) in PARAMETERS.items():
        value = "open" if kind is str else str(kind(high))
        args = build_parser().parse_args(["simulate-device", "--pty", f"--{name}", value])
        assert device_kwargs(args)[kwarg] == (value if kind is str else kind(high))
