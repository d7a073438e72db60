"""Issue 26 item 15: a tournament table said "`unox play --continue` picks it up", but its journal is under
`tournaments/`, `unox play --list` did not show it, and `--continue` resumed a different table. Now the
round names the command that rejoins it (and that command does), `--list` shows the tournament's tables
with their tournament's name and id, and `--continue`/`--resume` on a round's journal is refused naming it."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from unox.table.journal import Journal
from unox.tournament.address import parse
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.schedule import Plan, seats

from .kit import C_V2_PLAYERS, UNOX, WAIT
from .test_play_table import hand_lines


def run(argv: list[str], env: dict, typed: list[str] = ()) -> subprocess.CompletedProcess:
    return subprocess.run([*UNOX, *argv], input="".join(f"{line}\n" for line in typed), capture_output=True,
                          text=True, timeout=WAIT * 2, env=env)


def round_entries(path) -> list[str]:
    with Journal(path) as journal:
        return [entry["cmd"] for entry in journal.entries()]


def test_a_round_left_midway_names_the_command_that_rejoins_it_and_that_command_does(broker, tmp_path):
    plan = Plan(tuple(C_V2_PLAYERS))
    hand, _points = hand_lines(seats(plan.rounds[0][0]), 4)
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    env.pop("UNOX_MQTT_PASSWORD", None)
    url = broker.url("table1", "term")
    password = parse(url).password
    with ResultsJournal(tmp_path / "club.db") as results:
        coordinator = Coordinator(parse(broker.url("coordinator", "term")), results, plan, say=lambda t: None)
        coordinator.start()
        try:
            first = run(["play", "--plain", "--tournament", url, "--table", "1", "--launcher", "script"], env,
                        hand[:5])
            assert first.returncode == 0, first.stdout[-2000:] + first.stderr
            (round1,) = (tmp_path / "state" / "unox" / "tournaments").glob("term-*-table1.round1.db")
            tournament = round1.name.split("-")[1]
            command = f"unox play --tournament mqtt://table1@127.0.0.1:{broker.port}/term --table 1"
            picks_up = f"`{command}` (with the table's password in UNOX_MQTT_PASSWORD) picks it up"
            assert f"Journal: {round1} (every event is kept; {picks_up})" in first.stdout
            assert f"The round is kept in {round1}: {picks_up}." in first.stdout
            assert "unox play --continue" not in first.stdout + first.stderr
            assert password not in first.stdout + first.stderr
            played = round_entries(round1)
            assert played[:2] == ["deal", "flip"] and "score" not in played

            listed = run(["play", "--list"], env)
            assert listed.returncode == 0, listed.stderr
            lines = listed.stdout.splitlines()
            assert lines[0].startswith("No tables kept in")  # the tables folder has none of its own
            assert "Tournament tables, newest first" in lines[1]
            at = lines.index(next(line for line in lines if line.startswith(f"term-{tournament}-table1.db")))
            assert lines[at + 1] == f"    tournament term (id {tournament}), table 1: round 1, 0 hands scored"
            assert lines[at + 2] == f"    rejoin: {command}"
            assert lines[at + 3] == "    (with the table's password in UNOX_MQTT_PASSWORD)"
            assert all(len(line) <= 80 for line in lines if "rejoin:" not in line and "/" not in line)

            deal = '{"cmd": "deal", "dealer": "Ann"}'
            for argv in (["play", "--plain", "--launcher", "script", "--continue", str(round1)],
                         ["play", "--plain", "--launcher", "script", "--resume", str(round1)],
                         # the same command run again on its journal, each way in
                         ["play", "--plain", "--launcher", "script", "--journal", str(round1)],
                         ["play", "--plain", "--journal", str(round1), "--players", "Ann,Bob"],
                         ["serve", "--port", "0", "--journal", str(round1)],
                         ["table", "--resume", str(round1)],
                         ["table", "--journal", str(round1), "--players", "Ann,Bob"]):
                refused = run(argv, env, [deal if argv[0] == "table" else "yes"])
                assert refused.returncode == 1, refused.stdout + refused.stderr
                (said,) = refused.stderr.splitlines()
                option = next(word for word in ("--continue", "--resume", "--journal") if word in argv)
                assert said == (f"unox: error: {round1} is round 1 of table 1 of tournament term (id "
                                f"{tournament}), played only inside its tournament, so {option} does not "
                                f"take it; {picks_up}"), argv
                assert round_entries(round1) == played  # nothing was written to it
            outbox = round1.with_name(f"term-{tournament}-table1.db")  # the table's results journal
            refused = run(["play", "--plain", "--launcher", "script", "--continue", str(outbox)], env)
            assert refused.returncode == 1 and refused.stderr == (
                f"unox: error: {outbox} is the results journal of table 1 of tournament term (id "
                f"{tournament}), played only inside its tournament, so --continue does not take it; "
                f"{picks_up}\n")
            newest = run(["play", "--plain", "--continue"], env)
            assert newest.returncode == 1 and "no game in progress is kept in" in newest.stderr
            assert round_entries(round1) == played

            # the command the table named, as a person copies it (the password where it says)
            again = run([*shlex.split(command)[1:], "--plain", "--launcher", "script"],
                        {**env, "UNOX_MQTT_PASSWORD": password}, hand[5:])
            assert again.returncode == 0, again.stdout[-2000:] + again.stderr
            assert round_entries(round1)[: len(played)] == played and round_entries(round1)[-1] == "score"
            while coordinator.counted() < 1 and coordinator.changed.wait(WAIT):
                pass
            assert coordinator.counted() == 1  # the hand went to the tournament: the command rejoined it
        finally:
            coordinator.stop()


def test_the_rejoin_command_keeps_the_password_out_and_the_journal_absolute(tmp_path, monkeypatch):
    from unox.tournament.kept import pick_up, told

    monkeypatch.chdir(tmp_path)
    given = pick_up("serve", parse("mqtt://table 2:s3cret@club.local/spring"), 2, Path("my table.db"))
    assert given == {"command": "unox serve --tournament mqtt://table%202@club.local:1883/spring --table 2 "
                                f"--journal '{tmp_path / 'my table.db'}'", "password": True}
    assert "s3cret" not in told(given) and told(given).endswith("(with the table's password in "
                                                                 "UNOX_MQTT_PASSWORD) picks it up")
    anonymous = pick_up("play", parse("mqtt://127.0.0.1:1884/spring"), 1, None)
    assert told(anonymous) == "`unox play --tournament mqtt://127.0.0.1:1884/spring --table 1` picks it up"
    assert parse(shlex.split(given["command"])[3]).username == "table 2"  # the URL reads back as given


def test_a_bot_tables_rejoin_command_keeps_its_bots_and_seed(broker, tmp_path):
    """`unox table --tournament ... --bots heuristic --seed 3`: the command `--list` shows plays the same bots
    from the same seed (a hand played again gives the same result), not people on stdin."""
    plan = Plan(tuple(C_V2_PLAYERS))
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    with ResultsJournal(tmp_path / "club.db") as results:
        coordinator = Coordinator(parse(broker.url("coordinator", "bots")), results, plan, say=lambda t: None)
        coordinator.start()
        try:
            done = run(["table", "--tournament", broker.url("table1", "bots"), "--table", "1", "--bots",
                        "heuristic", "--seed", "3"], env)
            assert done.returncode == 0, done.stdout[-2000:] + done.stderr
        finally:
            coordinator.stop()
    listed = run(["play", "--list"], env).stdout.splitlines()
    # whether the coordinator's `over` reached the table before it stopped is a race: either word is true
    ends = (": tournament over, 12 hands scored", ": all its hands sent, 12 hands scored")
    assert any(line.startswith("    tournament bots (id ") and line.endswith(ends) for line in listed), listed
    assert "    nothing left to play" in listed
    from unox.tournament.kept import read

    (journal,) = (tmp_path / "state" / "unox" / "tournaments").glob("bots-*-table1.db")
    command = read(journal).pick_up["command"]
    assert command == (f"unox table --tournament mqtt://table1@127.0.0.1:{broker.port}/bots --table 1 "
                       "--bots heuristic --seed 3")
