"""Issue 26 item 7: every count the CLI prints has its noun in the right number ("1 games", "1 requests
replay", "(1 seats)" came out before); one helper, `unox.words.counted`, makes them all."""

from __future__ import annotations

import re

import pytest
from unox.words import counted

WRONG_ONE = re.compile(r"(?<![\d.,])1 (games|seats|hands|cards|presses|firings|reloads|requests|rows|files|"
                       r"results|players|times)\b|\(s\)")


@pytest.mark.parametrize(("n", "noun", "plural", "said"), [
    (0, "game", None, "0 games"), (1, "game", None, "1 game"), (2, "game", None, "2 games"),
    (1, "press", "presses", "1 press"), (3, "press", "presses", "3 presses"),
    (1, "request replays", "requests replay", "1 request replays"),
    (2, "request replays", "requests replay", "2 requests replay"),
])
def test_a_count_takes_its_noun_in_the_right_number(n, noun, plural, said):
    assert counted(n, noun, plural) == said


def test_unox_sim_with_one_game_says_1_game_and_1_seat(unox):
    done = unox("sim", "--games", "1", "--players", "3", "--bot", "mix", "--seed", "1", "--target", "50",
                "--silent")
    assert done.code == 0, done.err
    first = done.out.splitlines()[0]
    assert first.startswith("1 game, 3 players, extreme rules"), first
    assert "heuristic: " in done.out and "(1 seat)" in done.out and "(2 seats)" in done.out  # mix: 2 + 1
    assert WRONG_ONE.search(done.out) is None, done.out


def test_unox_sim_with_two_games_keeps_the_plural(unox):
    done = unox("sim", "--games", "2", "--players", "2", "--seed", "1", "--target", "50", "--silent")
    assert done.code == 0, done.err
    assert done.out.startswith("2 games, 2 players"), done.out


def test_unox_profile_with_one_press_says_1_press(unox):
    done = unox("profile", "measured", "--presses", "1", "--seed", "1")
    assert done.code == 0, done.err
    head = done.out.splitlines()[0]
    assert head.startswith("profile measured: 1 press, ") and WRONG_ONE.search(done.out) is None, done.out


def test_unox_journal_check_says_1_request_replays_and_2_requests_replay(unox, tmp_path):
    from unox.table.journal import Journal
    from unox.table.runtime import Table
    from unox.table.settings import TableSettings

    table = Table.create(TableSettings(players=("Ann", "Bob")), journal=Journal(tmp_path / "j.db"))
    assert table.handle({"cmd": "deal", "dealer": "Ann"})["ok"]
    table.close()
    one = unox("journal", "check", str(tmp_path / "j.db"))
    assert one.code == 0 and "; 1 request replays, phase flip" in one.out, one.out + one.err
    table = Table.resume(Journal(tmp_path / "j.db"))
    assert table.handle({"cmd": "flip", "card": "G7"})["ok"]
    table.close()
    two = unox("journal", "check", str(tmp_path / "j.db"))
    assert two.code == 0 and "; 2 requests replay, " in two.out, two.out + two.err
    assert WRONG_ONE.search(one.out + two.out) is None


def test_the_link_check_counts_its_frames_in_the_right_number():
    """A count phrase grep found beside the CLI's: `unox diagnose`'s link line."""
    from types import SimpleNamespace

    from unox.launcher.diagnostics import check_link

    endpoint = SimpleNamespace(retransmits=1, duplicates=0, decoder=SimpleNamespace(errors=2))
    launcher = SimpleNamespace(link=SimpleNamespace(endpoint=endpoint))
    check = check_link(launcher, SimpleNamespace(connected=True))
    assert check.detail == ("lossy link: 1 retransmit (lost frames), 2 bad frames (corrupt), 0 duplicate "
                            "frames; try another USB cable or port")


def test_one_press_owed_is_one_press():
    from unox.table.night_context import Context
    from unox.ui.prompt import prompt_for

    state = {"phase": "turn", "turn": "Bob", "players": ["Ann", "Bob", "Cy"], "top": "G7", "color": "G",
             "owed": [{"player": "Cy", "presses": 1}]}
    prompt = prompt_for(state, Context())
    assert prompt.who == "Cy" and ": 1 press owed" in prompt.text, prompt.text
