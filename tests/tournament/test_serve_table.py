"""Issue 16: `unox serve --tournament`: a tournament table on the phones, one served table per round, every
scored hand sent to the coordinator. Driven through the HTTP API the phones use (`unox.web.client`)."""

from __future__ import annotations

import signal
import subprocess

from unox.tournament.address import parse
from unox.tournament.broker import free_port
from unox.tournament.coordinator import Coordinator
from unox.tournament.journal import ResultsJournal
from unox.tournament.schedule import Plan
from unox.web.client import WebClient

from .kit import C_V2_PLAYERS, UNOX, WAIT, journal_rows, read_until, scored_by_hand


def play_hand(client: WebClient, number: int) -> dict:
    """One physical hand through the API: deal, a green 7, greens until someone goes out, score."""

    def send(**request) -> dict:
        status, reply = client.request(request)
        assert status == 200 and reply["ok"], reply
        return reply["state"]

    players = client.state()["state"]["players"]
    send(cmd="deal", dealer=players[0])
    state = send(cmd="flip", card="G7", fired=1)
    number_played = 0
    while state["phase"] == "turn":
        state = send(cmd="play", player=state["turn"], card=f"G{number_played % 9 + 1}")
        number_played += 1
    went_out = next(p for p, held in state["hands"].items() if held == 0)
    points = {p: 0 if p == went_out else 3 * i + number for i, p in enumerate(players)}
    send(cmd="score", points=points)
    return points


def test_C_V2_unox_serve_serves_each_round_and_sends_every_scored_hand(broker, tmp_path):
    plan = Plan(tuple(C_V2_PLAYERS))
    port = free_port()
    with ResultsJournal(tmp_path / "club.db") as journal, open(tmp_path / "stderr.txt", "w") as errors:
        coordinator = Coordinator(
            parse(broker.url("coordinator", "phones")), journal, plan, say=lambda t: None
        )
        coordinator.start()
        serve = subprocess.Popen(
            [
                *UNOX,
                "serve",
                "--tournament",
                broker.url("table1", "phones"),
                "--table",
                "1",
                "--launcher",
                "script",
                "--journal",
                str(tmp_path / "table1.db"),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--pin",
                "",
                "--operator-pin",
                "",
            ],
            stdout=subprocess.PIPE,
            stderr=errors,  # a file: a pipe read only at the end would stop the server once 64 KB filled it
            text=True,
        )
        told, seatings = [], []
        try:
            for round_no in (1, 2, 3):
                read_until(serve, f"round {round_no}, table 1")
                read_until(serve, "open http://127.0.0.1")
                client = WebClient(f"http://127.0.0.1:{port}")
                client.join(None, "operator")
                seatings.append(client.state()["state"]["players"])
                for hand in range(4):
                    told.append(play_hand(client, round_no * 4 + hand))
            out, _ = serve.communicate(timeout=WAIT)
            assert serve.returncode == 0, (tmp_path / "stderr.txt").read_text()
            assert "table 1: every result is in" in out
            assert coordinator.over.wait(WAIT)
            standings = coordinator.standings()
        finally:
            if serve.poll() is None:
                serve.send_signal(signal.SIGINT)
                serve.wait(WAIT)
            coordinator.stop()
    assert seatings == [["Ann", "Bob", "Cy", "Dee"], ["Ann", "Cy", "Bob", "Dee"], ["Ann", "Bob", "Dee", "Cy"]]
    played = journal_rows(tmp_path / "table1.db")
    assert [r["points"] for r in played] == told
    assert {r["player"]: r["points"] for r in standings["players"]} == scored_by_hand(C_V2_PLAYERS, played)
