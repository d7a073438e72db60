"""`unox simulate-device --pty`: a real pty, opened with pyserial by another process, answering HELLO."""

import json
import os
import re
import select
import signal
import subprocess
import sys

import pytest
import serial
from unox.cli.main import main
from unoxfw.link import PROTOCOL, Decoder, encode
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
        assert hello[0] == str(PROTOCOL)  # the protocol version
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


def test_bad_option_is_a_usage_error_naming_the_range(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["simulate-device", "--pty", "--jam", "2"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("usage: unox simulate-device ")
    last = err.splitlines()[-1]
    assert last == "unox simulate-device: error: argument --jam: 2 is out of range; give a number from 0 to 1"


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
    from unox.cli.numbers import SEED_MAX
    from unoxsim.url import PARAMETERS

    for name, (kwarg, kind, _low, high, _) in PARAMETERS.items():
        high = SEED_MAX if name == "seed" else high  # the seeds every unox command takes
        value = "open" if kind is str else str(kind(high))
        option = f"--{name.replace('_', '-')}"  # options are spelled with hyphens, as every unox option
        args = build_parser().parse_args(["simulate-device", "--pty", option, value])
        assert device_kwargs(args)[kwarg] == (value if kind is str else kind(high))


def test_idle_step_is_spelled_with_a_hyphen_and_the_old_underscore_still_works_unlisted(capsys):
    from unox.cli.commands.simulate_device import device_kwargs
    from unox.cli.main import build_parser

    for spelling in ("--idle-step", "--idle_step"):
        args = build_parser().parse_args(["simulate-device", "--pty", spelling, "7"])
        assert device_kwargs(args)["idle_step"] == 7, spelling
    with pytest.raises(SystemExit):
        build_parser().parse_args(["simulate-device", "--help"])
    shown = capsys.readouterr().out
    assert "--idle-step IDLE_STEP" in shown and "--idle_step" not in shown
    with pytest.raises(SystemExit):
        build_parser().parse_args(["simulate-device", "--pty", "--idle-step", "0"])
    assert "--idle-step" in capsys.readouterr().err  # the range error names the option as it is spelled


def _unox(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "unox", *args], capture_output=True, text=True, timeout=60)


def _line(stream) -> str:
    ready, _, _ = select.select([stream], [], [], 60)  # only reached when something is broken
    return stream.readline() if ready else ""


def test_the_simulated_button_is_pressed_from_outside_and_its_hopper_count_agrees(tmp_path):
    control = str(tmp_path / "sim.sock")
    command = [sys.executable, "-m", "unox", "simulate-device", "--pty", "--seed", "1", "--cards", "83",
               "--control", control]
    sim = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    press = None
    try:
        path = _line(sim.stdout).strip()
        assert "kill -USR1" in _line(sim.stderr) + sim.stderr.readline()  # it says how to press its button
        press = subprocess.Popen([sys.executable, "-m", "unox", "press", "--launcher", f"serial:{path}",
                                  "--presses", "3", "--profile", "brutal", "--seed", "2"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert "press the launcher button" in _line(press.stderr)  # connected: presses now reach it
        lines = []
        for how in ("socket", "signal", "socket"):
            if how == "signal":
                sim.send_signal(signal.SIGUSR1)
            else:
                assert _unox("simulate-device", "--control", control, "--send", "press").stdout == "ok\n"
            lines.append(_line(press.stdout))
            assert lines[-1].startswith("press "), lines
        press.communicate(timeout=60)
        assert press.returncode == 0
        truth = json.loads(_unox("simulate-device", "--control", control, "--send", "count").stdout)
    finally:
        for proc in (press, sim):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.communicate()
    fired = int(re.search(r"total fired (\d+)", lines[-1]).group(1))
    assert fired > 0  # the brutal profile fired cards: the count is not trivially 0
    assert truth["ejected"] + truth["in_slot"] == fired  # cards out of the hopper == cards reported fired
    assert truth["hopper"] + truth["in_path"] + truth["ejected"] == truth["loaded"] == 83


def test_a_bad_control_command_is_a_one_line_error_naming_the_commands(tmp_path):
    from unoxsim.control import command

    device = VirtualDevice(seed=1)
    assert command(device, "jump").startswith("error: unknown command 'jump'; use press")
    assert command(device, "press x").startswith("error: ")
    assert command(device, "lid open") == "ok" and device.model.lid_open


def test_send_without_a_running_simulator_says_how_to_start_one(capsys, tmp_path):
    assert main(["simulate-device", "--control", str(tmp_path / "none.sock"), "--send", "press"]) == 1
    err = capsys.readouterr().err
    assert "no simulator answers" in err and "--pty --control" in err and err.count("\n") == 1


def _start_sim(control: str) -> tuple[subprocess.Popen, str]:
    sim = subprocess.Popen([sys.executable, "-m", "unox", "simulate-device", "--pty", "--seed", "1",
                            "--control", control], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return sim, _line(sim.stdout).strip()


def _stop(sim: subprocess.Popen) -> None:
    if sim.poll() is None:
        sim.kill()
    sim.communicate()


def test_a_socket_left_by_a_killed_simulator_does_not_block_a_restart_but_a_live_one_does(tmp_path):
    """Issue 13 item 15: `kill -9` leaves the control socket behind; the next start clears it. A socket a
    running simulator listens on is refused, and so is a file that is not a socket."""
    control = str(tmp_path / "sim.sock")
    first, path = _start_sim(control)
    try:
        assert path.startswith("/dev/")
        first.send_signal(signal.SIGKILL)
        first.wait(60)
        assert os.path.exists(control)  # what kill -9 leaves
        second, path = _start_sim(control)
        try:
            assert path.startswith("/dev/"), second.stderr.read() if second.poll() is not None else ""
            assert _unox("simulate-device", "--control", control, "--send", "press").stdout == "ok\n"
            third = _unox("simulate-device", "--pty", "--control", control)
            assert third.returncode == 1 and third.stderr.count("\n") == 1, third.stderr
            assert "already running with --control" in third.stderr
            assert _unox("simulate-device", "--control", control, "--send", "count").returncode == 0
        finally:
            _stop(second)
    finally:
        _stop(first)
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    refused = _unox("simulate-device", "--pty", "--control", str(notes))
    assert refused.returncode == 1 and "is not a control socket" in refused.stderr
    assert notes.read_text() == "mine"


@pytest.mark.parametrize("hold", ["99999999", "60001", "0", "-5", "1e9"])
def test_a_press_held_beyond_a_minute_is_refused_with_its_range(tmp_path, hold):
    """Issue 13 item 15: `press 99999999` held the simulated button for a day."""
    from unoxsim.control import MAX_HOLD_MS, command

    device = VirtualDevice(seed=1)
    free_at = device._button_free_at
    answer = command(device, f"press {hold}")
    assert answer.startswith("error: press ") and f"1 to {MAX_HOLD_MS}" in answer, answer
    assert device._button_free_at == free_at  # no press was scheduled
    assert command(device, f"press {MAX_HOLD_MS}") == "ok"


def test_send_press_with_a_huge_hold_is_a_one_line_error(tmp_path):
    control = str(tmp_path / "sim.sock")
    sim, _ = _start_sim(control)
    try:
        sent = _unox("simulate-device", "--control", control, "--send", "press 99999999")
        count = json.loads(_unox("simulate-device", "--control", control, "--send", "count").stdout)
    finally:
        _stop(sim)
    assert sent.returncode == 1 and sent.stderr.count("\n") == 1 and "60000" in sent.stderr, sent.stderr
    assert count["now_ms"] < 60_000  # the device was not held up
