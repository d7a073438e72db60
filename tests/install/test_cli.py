"""The thin `unox install` CLI: prints the file by default, writes it with --write, and fails clearly."""

import pytest
from unox import install
from unox.cli.main import main

UNOX = "/home/pi/unox/bin/unox"
SERVICE = ["install", "service", "--user", "pi", "--unox", UNOX]


def test_service_is_printed_exactly_and_the_next_steps_go_to_stderr(capsys):
    assert main(SERVICE + ["--mode", "play", "--players", "Ann,Bob"]) == 0
    out, err = capsys.readouterr()
    assert out == install.service_unit("play", user="pi", unox=UNOX, players="Ann,Bob")
    assert "sudo systemctl enable --now unox.service" in err and "daemon-reload" in err


def test_service_write_creates_the_unit_under_root_and_says_what_to_run(tmp_path, capsys):
    assert main(SERVICE + ["--write", "--root", str(tmp_path)]) == 0
    written = tmp_path / "etc" / "systemd" / "system" / "unox.service"
    assert written.read_text(encoding="utf-8") == install.service_unit("press", user="pi", unox=UNOX)
    assert oct(written.stat().st_mode & 0o777) == oct(0o644)
    out = capsys.readouterr().out
    assert f"created {written}" in out
    assert "sudo systemctl daemon-reload" in out and "sudo systemctl enable --now unox.service" in out


def test_writing_the_same_unit_again_changes_nothing(tmp_path, capsys):
    main(SERVICE + ["--write", "--root", str(tmp_path)])
    assert main(SERVICE + ["--write", "--root", str(tmp_path)]) == 0
    assert "unchanged" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "etc" / "systemd" / "system").iterdir()) == ["unox.service"]


def test_a_different_unit_is_only_replaced_with_force_and_the_old_one_is_kept(
    tmp_path, capsys, one_line_error
):
    assert main(SERVICE + ["--write", "--root", str(tmp_path)]) == 0
    capsys.readouterr()
    written = tmp_path / "etc" / "systemd" / "system" / "unox.service"
    before = written.read_text(encoding="utf-8")
    assert main(SERVICE + ["--mode", "play", "--players", "Ann,Bob", "--write", "--root", str(tmp_path)]) == 1
    assert "exists and differs; pass --force" in one_line_error()
    assert written.read_text(encoding="utf-8") == before
    play = ["--mode", "play", "--players", "Ann,Bob"]
    assert main(SERVICE + [*play, "--write", "--force", "--root", str(tmp_path)]) == 0
    assert "replaced" in capsys.readouterr().out
    assert written.with_name("unox.service.bak").read_text(encoding="utf-8") == before
    assert "ExecStart=" + UNOX + " play" in written.read_text(encoding="utf-8")


def test_udev_write_creates_the_rule_and_says_how_to_reload(tmp_path, capsys):
    assert main(["install", "udev", "--write", "--root", str(tmp_path)]) == 0
    written = tmp_path / "etc" / "udev" / "rules.d" / "99-unox.rules"
    assert written.read_text(encoding="utf-8") == install.udev_rule()
    out = capsys.readouterr().out
    assert "sudo udevadm control --reload-rules" in out and "udevadm trigger" in out


def test_udev_prints_the_rule_by_default(capsys):
    assert main(["install", "udev", "--serial", "ABC123"]) == 0
    out, err = capsys.readouterr()
    assert out == install.udev_rule("ABC123")
    assert "udevadm control --reload-rules" in err


def test_udev_per_board_prints_that_rule_and_serial_with_it_is_one_clear_line(capsys):
    assert main(["install", "udev", "--per-board"]) == 0
    out, err = capsys.readouterr()
    assert out == install.udev_rule(per_board=True) and "ls -l /dev/unox-launcher-*" in err
    assert main(["install", "udev", "--per-board", "--serial", "e6614104032a5c2b"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("unox: error: ") and "not both" in err and err.count("\n") == 1


def test_a_target_that_cannot_be_written_is_one_clear_line(tmp_path, capsys):
    blocker = tmp_path / "etc"
    blocker.write_text("a file where a directory should be", encoding="utf-8")
    assert main(["install", "udev", "--write", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("unox: error: cannot write ") and "99-unox.rules" in err
    assert err.count("\n") == 1
    assert blocker.read_text(encoding="utf-8") == "a file where a directory should be"


def test_permission_denied_says_to_use_sudo_and_leaves_no_partial_file(
    tmp_path, monkeypatch, one_line_error
):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(install.os, "replace", refuse)
    assert main(SERVICE + ["--write", "--root", str(tmp_path)]) == 1
    assert "permission denied; run it with sudo" in one_line_error()
    assert list((tmp_path / "etc" / "systemd" / "system").iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["install", "service", "--mode", "dance"], "invalid choice: 'dance'"),
        (["install", "service", "--bogus"], "unrecognized arguments: --bogus"),
        (["install"], "required: WHAT"),
        (["install", "firmware"], "invalid choice: 'firmware'"),
    ],
)
def test_bad_options_are_usage_errors(argv, needle, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "usage: unox" in err and needle in err


def test_a_bad_value_is_a_command_error_not_a_traceback(one_line_error):
    assert main(SERVICE[:2] + ["--user", "pi", "--unox", UNOX, "--launcher", "bluetooth"]) == 1
    assert "unox: error: launcher 'bluetooth' is not one of" in one_line_error()


@pytest.mark.parametrize("mode", ["play", "press"])
def test_only_the_play_service_continues_the_table_in_var_lib_unox(mode, capsys):
    players = ["--players", "Ann,Bob"] if mode == "play" else []
    assert main(SERVICE + ["--mode", mode, *players]) == 0
    out, _ = capsys.readouterr()
    (exec_line,) = [line for line in out.splitlines() if line.startswith("ExecStart=")]
    assert ("--continue /var/lib/unox/table.db" in exec_line) is (mode == "play")
    assert "StateDirectory=unox" in out.splitlines()  # both: the sandbox's one writable directory
